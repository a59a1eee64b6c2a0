import Burrow
import Foundation
import Testing

private final class Walker: Object {
    @Persisted var name = ""
    @Persisted var client: WalkClient?
    @Persisted var regulars: List<WalkClient>
}

private final class WalkClient: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
}

/// Results of a class whose links go to a class that has no table yet (nothing of it was ever
/// written, and the configuration names no classes) are observed like any others.
@Suite struct UnwrittenLinkTargetTests {
    let directory = TestDirectory()

    @Test func observingResultsWhoseLinkTargetHasNoTableYet() throws {
        let realm = try Realm(configuration: directory.configuration())
        var updates: [(insertions: [Int], modifications: [Int])] = []
        let token = realm.objects(Walker.self).observe { change in
            if case .update(_, _, let insertions, let modifications) = change { updates.append((insertions, modifications)) }
        }
        defer { token.invalidate() }
        let keyPathToken = realm.objects(Walker.self).observe(keyPaths: ["client.name"]) { _ in }
        defer { keyPathToken.invalidate() }
        let ann = Walker(value: ["name": "Ann"])
        var objectChanges: [String] = []
        try realm.write { realm.add(ann) }
        let objectToken = ann.observe { change in
            if case .change(_, let properties) = change { objectChanges += properties.map(\.name) }
        }
        defer { objectToken.invalidate() }
        realm.refresh()
        #expect(updates.map(\.insertions) == [[0]])
        // The first client makes the class's table: its changes count from then on.
        try realm.write { ann.client = WalkClient(value: ["id": 1, "name": "Bo"]) }
        try realm.write { ann.client!.name = "Bob" }
        try realm.write { ann.regulars.append(WalkClient(value: ["id": 2, "name": "Cy"])) }
        try realm.write { ann.regulars[0].name = "Cyd" }
        realm.refresh()
        #expect(updates.count == 5 && updates.dropFirst().allSatisfy { $0.modifications == [0] }, "\(updates)")
        #expect(objectChanges == ["client", "client", "regulars", "regulars"], "\(objectChanges)")
        #expect(realm.objects(Walker.self).filter("client.name == 'Bob'").count == 1)
    }
}
