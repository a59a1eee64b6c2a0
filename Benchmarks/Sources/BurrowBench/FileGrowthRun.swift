import Burrow
import Foundation

/// Writes `gigabytes` GiB into one realm with the default configuration (64 KiB values, 1 MiB
/// per transaction), then reopens it and reads every object back: the file must hold it all.
///
///     BurrowBench --file-growth 10 /tmp/growth
enum FileGrowthRun {
    static let valueBytes = 64 << 10
    static let valuesPerTransaction = 16

    struct Measurement {
        let bytesWritten: Int
        let seconds: Double
        let fileBytes: Int
        let objectsRead: Int
        let bytesRead: Int
    }

    static func measure(gigabytes: Int, in directory: URL) throws -> Measurement {
        let configuration = Realm.Configuration(fileURL: directory.appendingPathComponent("growth.realm"))
        try Realm.deleteFiles(for: configuration)
        defer { _ = try? Realm.deleteFiles(for: configuration) }
        let transactions = (gigabytes << 30) / (valueBytes * valuesPerTransaction)
        let payload = Data((0..<valueBytes).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let written = try Stopwatch.measure { () throws -> Void in
            let realm = try Realm(configuration: configuration)
            var id: Int64 = 0
            for _ in 0..<transactions {
                try realm.write {
                    for _ in 0..<valuesPerTransaction {
                        id += 1
                        let item = Item()
                        item.id = id
                        item.blob = payload
                        realm.add(item)
                    }
                }
            }
        }
        let fileBytes = (try FileManager.default.attributesOfItem(atPath: configuration.fileURL!.path)[.size] as? Int) ?? 0
        let realm = try Realm(configuration: configuration)
        var objectsRead = 0, bytesRead = 0
        for item in realm.objects(Item.self) where item.blob == payload {
            objectsRead += 1
            bytesRead += item.blob.count
        }
        return Measurement(bytesWritten: transactions * valuesPerTransaction * valueBytes, seconds: written.seconds,
                           fileBytes: fileBytes, objectsRead: objectsRead, bytesRead: bytesRead)
    }

    static func summary(_ measurement: Measurement) -> String {
        String(format: "File growth: %.2f GiB written in %.1f s (%.0f MiB/s, 1 MiB a transaction), file %.2f GiB; "
               + "reopened and read back %d objects, %.2f GiB, every value intact: %@",
               Double(measurement.bytesWritten) / Double(1 << 30), measurement.seconds,
               Double(measurement.bytesWritten) / Double(1 << 20) / measurement.seconds,
               Double(measurement.fileBytes) / Double(1 << 30), measurement.objectsRead,
               Double(measurement.bytesRead) / Double(1 << 30),
               measurement.bytesRead == measurement.bytesWritten ? "yes" : "NO")
    }
}
