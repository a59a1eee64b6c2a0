import Burrow
import Foundation
import Testing

/// A damaged length in one of LMDB's pages (a leaf node's data size) names bytes past the end
/// of the file: reading them through the map would be a SIGBUS. Each read is checked first, so
/// the damage stops with a message that says so, on plain and on encrypted files. (A walk
/// checks the whole page first, ``LeafPageCheck``, and stops there: the lookups here read the
/// row by its key alone.)
@Suite struct DamagedLengthTests {
    let directory = TestDirectory()
    private static let key = Data((0..<64).map { UInt8($0) })

    private func configuration(_ name: String, encrypted: Bool) -> Realm.Configuration {
        var configuration = Realm.Configuration(fileURL: directory.file(name), objectTypes: [Person.self])
        configuration.encryptionKey = encrypted ? Self.key : nil
        return configuration
    }

    /// A file of 300 people, closed again; returns its bytes.
    private func original(encrypted: Bool) throws -> Data {
        let configuration = configuration("original.realm", encrypted: encrypted)
        do {
            let realm = try Realm(configuration: configuration)
            try realm.write {
                for id in 0..<300 { realm.add(Person(value: ["id": id, "name": "person \(id)", "picture": Data(count: id % 50)])) }
            }
        }
        return try Data(contentsOf: configuration.fileURL!)
    }

    /// Where the leaf nodes with 8-byte keys (`key`, or any key when `nil`) and values of a
    /// plausible row's size start.
    private static func leafNodes(of key: [UInt8]?, in bytes: Data) -> [Int] {
        let bytes = [UInt8](bytes)
        var found: [Int] = []
        for node in 0..<(bytes.count - 16) {
            let size = Int(bytes[node]) | Int(bytes[node + 1]) << 8 | Int(bytes[node + 2]) << 16 | Int(bytes[node + 3]) << 24
            let flags = Int(bytes[node + 4]) | Int(bytes[node + 5]) << 8
            let keySize = Int(bytes[node + 6]) | Int(bytes[node + 7]) << 8
            guard keySize == 8, flags == 0, (16..<4000).contains(size) else { continue }
            if let key, Array(bytes[node + 8..<node + 16]) != key { continue }
            found.append(node)
        }
        return found
    }

    @Test(arguments: [false, true]) func aLengthPastTheFileStopsWithDamage(encrypted: Bool) async throws {
        var bytes = try original(encrypted: encrypted)
        // The row of person 77, keyed by its object key (the key's bits, big-endian, sign
        // flipped); in an encrypted file, where keys are not in the clear, every such node:
        // random bytes look like one about once in 4 GB.
        let objectKey = withUnsafeBytes(of: (UInt64(77) ^ (1 << 63)).bigEndian) { Array($0) }
        let nodes = Self.leafNodes(of: encrypted ? nil : objectKey, in: bytes)
        try #require(!nodes.isEmpty, "no leaf node found")
        for node in nodes {
            // About 2 GiB: far past the end of the file, inside the map.
            bytes.replaceSubrange(node..<node + 4, with: [0xFF, 0xFF, 0xFF, 0x7F])
        }
        let damaged = configuration("copy.realm", encrypted: encrypted)
        try bytes.write(to: damaged.fileURL!)
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            [path = damaged.fileURL!.path as String, key = damaged.encryptionKey as Data?] in
            do {
                var configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: [Person.self])
                configuration.encryptionKey = key
                let realm = try Realm(configuration: configuration)
                var total = 0
                for id in 0..<300 {
                    let person = realm.object(ofType: Person.self, forPrimaryKey: id)
                    total += (person?.name.count ?? 0) + (person?.picture?.count ?? 0)
                }
                print("read \(total)")
            } catch {
                FileHandle.standardError.write(Data("threw: \(error)\n".utf8))
                exit(1)
            }
        }
        expectMessage(result, "The file is damaged: a page names bytes past the end of the file.")
    }
}
