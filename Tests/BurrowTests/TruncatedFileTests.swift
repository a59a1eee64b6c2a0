import Burrow
import Foundation
import Testing

/// A file cut short anywhere opens and reads in full, or throws `invalidDatabase`: the process
/// never dies of a SIGBUS on pages past the end.
@Suite struct TruncatedFileTests {
    let directory = TestDirectory()

    @Test func everyTruncationThrowsOrReads() async throws {
        let original = directory.file("original.realm")
        do {
            let realm = try Realm(configuration: directory.configuration("original.realm"))
            try realm.write {
                for id in 0..<3000 { realm.add(Person(value: ["id": id, "name": "person \(id)", "picture": Data(count: id % 300)])) }
            }
        }
        let bytes = try Data(contentsOf: original)
        var cuts = Array(stride(from: 0, to: bytes.count, by: max(1, bytes.count / 48)))
        cuts += [1, 4095, 4096, 8191, 8192, 8193, bytes.count - 1]
        var outcomes: [String: Int] = [:]
        for cut in cuts {
            let damaged = directory.file("cut-\(cut).realm")
            try bytes.prefix(cut).write(to: damaged)
            let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) { [path = damaged.path as String] in
                do {
                    let realm = try Realm(fileURL: URL(fileURLWithPath: path))
                    var total = 0
                    for person in realm.objects(Person.self) { total += person.name.count + (person.picture?.count ?? 0) + person.id }
                    print("outcome: read")
                    _ = total
                } catch let error as Realm.Error where error.code == .invalidDatabase {
                    print("outcome: invalidDatabase")
                } catch {
                    print("outcome: other error \(error)")
                    exit(2)
                }
            }
            let said = result.map { String(decoding: $0.standardOutputContent, as: UTF8.self) } ?? ""
            let outcome = said.split(separator: "\n").first { $0.hasPrefix("outcome: ") }.map(String.init) ?? "outcome: none"
            outcomes[outcome, default: 0] += 1
            try? FileManager.default.removeItem(at: damaged)
            unlink(damaged.path + "-lock")
        }
        #expect(outcomes["outcome: invalidDatabase", default: 0] > 0)
        print("truncated files: \(cuts.count) cuts, \(outcomes.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key.dropFirst(9))" }.joined(separator: ", "))")
    }
}
