import Burrow
import Foundation
import LMDB
import Testing

/// Damaged copies of a real file, each opened and read in full in a child process: it reads,
/// or throws `invalidDatabase`; the outcomes are counted and printed.
@Suite struct DamagedFileTests {
    let directory = TestDirectory()

    /// A file of 3,000 people with names, pictures and an index, closed again.
    private func realFile() throws -> Data {
        do {
            let realm = try Realm(configuration: directory.configuration("original.realm"))
            try realm.write {
                for id in 0..<3000 { realm.add(Person(value: ["id": id, "name": "person \(id)", "picture": Data(count: id % 300)])) }
            }
        }
        return try Data(contentsOf: directory.file("original.realm"))
    }

    /// Opens `bytes` as a realm in a child and reads every object; returns what happened.
    private func outcome(of bytes: Data, named name: String) async throws -> String {
        let damaged = directory.file(name)
        try bytes.write(to: damaged)
        defer {
            try? FileManager.default.removeItem(at: damaged)
            unlink(damaged.path + "-lock")
        }
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent], "\(name)") { [path = damaged.path as String] in
            do {
                let realm = try Realm(fileURL: URL(fileURLWithPath: path))
                var total = 0
                for person in realm.objects(Person.self) { total += person.name.count + (person.picture?.count ?? 0) + person.id }
                _ = realm.objects(Person.self).filter("name == 'person 7'").count
                print("outcome: read \(total > 0 ? "data" : "nothing")")
            } catch let error as Realm.Error where error.code == .invalidDatabase {
                print("outcome: invalidDatabase")
            } catch {
                print("outcome: other error \(error)")
                exit(2)
            }
        }
        let said = result.map { String(decoding: $0.standardOutputContent, as: UTF8.self) } ?? ""
        return said.split(separator: "\n").first { $0.hasPrefix("outcome: ") }.map { String($0.dropFirst(9)) } ?? "died"
    }

    private func report(_ kind: String, _ outcomes: [String: Int]) {
        let total = outcomes.values.reduce(0, +)
        print("damaged files, \(kind): \(total) files, " + outcomes.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "))
    }

    @Test func everyTruncationThrowsOrReads() async throws {
        let bytes = try realFile()
        var cuts = Array(stride(from: 0, to: bytes.count, by: max(1, bytes.count / 48)))
        cuts += [1, 4095, 4096, 8191, 8192, 8193, bytes.count - 1]
        var outcomes: [String: Int] = [:]
        for cut in cuts { outcomes[try await outcome(of: bytes.prefix(cut), named: "cut-\(cut).realm"), default: 0] += 1 }
        #expect(outcomes["invalidDatabase", default: 0] > 0)
        report("truncations", outcomes)
    }

    /// Every byte of both meta records, inverted in turn. A copy the meta-page check refuses is
    /// opened here (nothing is mapped before the refusal); every other copy is opened and read
    /// in a child process.
    @Test func everyDamagedMetaPageThrowsOrReads() async throws {
        let bytes = try realFile()
        let pageSize = bytes.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: 40, as: UInt32.self)) }
        var outcomes: [String: Int] = [:]
        for meta in 0..<2 {
            for offset in 0..<152 {
                var damaged = bytes
                damaged[meta * pageSize + offset] ^= 0xFF
                let name = "meta-\(meta)-\(offset).realm"
                let path = directory.file(name).path
                try damaged.write(to: directory.file(name))
                let refused: Bool
                do {
                    try Environment.checkMetaPages(atPath: path)
                    refused = false
                } catch {
                    refused = true
                }
                if refused {
                    // Refused before LMDB maps anything, so this process can open it.
                    do {
                        _ = try Realm(fileURL: directory.file(name))
                        Issue.record("\(name) opened although its meta page was refused")
                    } catch let error as Realm.Error {
                        #expect(error.code == .invalidDatabase, "\(name): \(error)")
                    }
                    try? FileManager.default.removeItem(atPath: path)
                    unlink(path + "-lock")
                    outcomes["refused before LMDB maps it", default: 0] += 1
                    continue
                }
                try? FileManager.default.removeItem(atPath: path)
                outcomes[try await outcome(of: damaged, named: name), default: 0] += 1
            }
        }
        #expect(outcomes["died", default: 0] == 0)
        #expect(outcomes.keys.allSatisfy { ["refused before LMDB maps it", "read data", "invalidDatabase"].contains($0) },
                "\(outcomes)")
        report("meta pages", outcomes)
    }
}
