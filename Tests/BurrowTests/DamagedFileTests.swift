import Burrow
import Foundation
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
}
