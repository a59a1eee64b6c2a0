import Burrow
import Foundation
import PostgreSQL
import TemporaryPostgres
import Testing

// The owner's class sorts before its target's, so that a first download, class by class,
// meets links before their targets.
final class LinkOwner: Object {
    @Persisted(primaryKey: true) var id: String = ""
    @Persisted var name: String = ""
    @Persisted var lead: LinkTarget?
    @Persisted var members: List<LinkTarget>
    @Persisted var byRole: Map<String, LinkTarget?>
    @Persisted var address: LinkAddress?
    @Persisted var milestones: List<LinkMilestone>
}

final class LinkTarget: Object {
    @Persisted(primaryKey: true) var id: Int = 0
    @Persisted var name: String = ""
}

final class LinkAddress: EmbeddedObject {
    @Persisted var street: String = ""
    @Persisted var number: Int = 0
    @Persisted var contact: LinkTarget?
}

final class LinkMilestone: EmbeddedObject {
    @Persisted var title: String = ""
    @Persisted var due: Date?
}

/// Links travel as their targets' primary keys and embedded objects with their owners; a link
/// that arrives before its target is set once the target does.
@Suite(.enabled(if: TemporaryPostgres.isAvailable, "\(TemporaryPostgres.unavailableReason ?? "")"), .serialized,
       .plainFilesOnly("the server sees values, not files: encryption is covered by the local tests"))
final class SyncLinkTests {
    let fixture: SyncFixture
    var server: TemporaryPostgres { fixture.server }
    var directory: TestDirectory { fixture.directory }

    init() throws {
        fixture = try SyncFixture()
    }

    func configuration(_ name: String) -> Realm.Configuration {
        fixture.configuration(name, objectTypes: [LinkOwner.self, LinkTarget.self, LinkAddress.self, LinkMilestone.self]) { subs in
            subs.append(QuerySubscription<LinkOwner>())
            subs.append(QuerySubscription<LinkTarget>())
        }
    }

    func synced(_ realms: Realm...) throws {
        try fixture.converge(realms)
    }

    /// A project with links of every kind and embedded objects, written in one write.
    func writeProject(into realm: Realm) throws {
        try realm.write {
            let ana = realm.create(LinkTarget.self, value: ["id": 1, "name": "Ana"])
            let bo = realm.create(LinkTarget.self, value: ["id": 2, "name": "Bo"])
            let cy = realm.create(LinkTarget.self, value: ["id": 3, "name": "Cy"])
            let owner = realm.create(LinkOwner.self, value: ["id": "p", "name": "Burrow"])
            owner.lead = bo
            owner.members.append(objectsIn: [cy, ana, bo])
            owner.byRole["lead"] = bo
            owner.byRole["contact"] = ana
            owner.address = LinkAddress(value: ["street": "Rue des Terriers", "number": 7, "contact": ana])
            owner.milestones.append(LinkMilestone(value: ["title": "sync", "due": Date(timeIntervalSince1970: 1_800_000_000)]))
            owner.milestones.append(LinkMilestone(value: ["title": "tool"]))
        }
    }

    func expectProject(in realm: Realm, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let owner = try #require(realm.object(ofType: LinkOwner.self, forPrimaryKey: "p"), sourceLocation: sourceLocation)
        #expect(owner.lead?.name == "Bo", sourceLocation: sourceLocation)
        #expect(owner.members.map(\.name) == ["Cy", "Ana", "Bo"], sourceLocation: sourceLocation)
        #expect(owner.byRole["lead"]??.id == 2 && owner.byRole["contact"]??.name == "Ana" && owner.byRole.count == 2,
                sourceLocation: sourceLocation)
        #expect(owner.address?.street == "Rue des Terriers" && owner.address?.number == 7, sourceLocation: sourceLocation)
        #expect(owner.address?.contact?.name == "Ana", sourceLocation: sourceLocation)
        #expect(owner.milestones.map(\.title) == ["sync", "tool"], sourceLocation: sourceLocation)
        #expect(owner.milestones.first?.due == Date(timeIntervalSince1970: 1_800_000_000), sourceLocation: sourceLocation)
    }

    /// Two files that hold the project, paused: their writes wait, as on machines apart.
    func twoPausedFilesWithTheProject() throws -> (Realm, Realm) {
        let a = try Realm(configuration: configuration("a"))
        let b = try Realm(configuration: configuration("b"))
        try writeProject(into: a)
        try synced(a, b)
        a.syncSession!.pause()
        b.syncSession!.pause()
        return (a, b)
    }

    func resumeAndSync(_ a: Realm, _ b: Realm) throws {
        a.syncSession!.resume()
        b.syncSession!.resume()
        try synced(a, b)
    }

    @Test func linksAndEmbeddedObjectsTravelWithTheirOwner() throws {
        let a = try Realm(configuration: configuration("a"))
        let b = try Realm(configuration: configuration("b"))
        try synced(a, b)
        try writeProject(into: a)
        try synced(a, b)
        try expectProject(in: b)
        let row = try PostgresConnection(server.connectionString).execute(
            "SELECT lead::text, members::text, address->>'street', address->>'contact' FROM \"LinkOwner\" WHERE id = 'p'")
        #expect(row[0, 0] == "2" && row[0, 1] == "[3, 1, 2]" && row[0, 2] == "Rue des Terriers" && row[0, 3] == "1")

        // A change inside an embedded object is a change of its owner's property.
        let onB = b.object(ofType: LinkOwner.self, forPrimaryKey: "p")!
        try b.write {
            onB.address?.number = 9
            onB.milestones[1].title = "the tool"
        }
        try synced(b, a)
        let onA = a.object(ofType: LinkOwner.self, forPrimaryKey: "p")!
        #expect(onA.address?.number == 9 && onA.address?.contact?.id == 1)
        #expect(onA.milestones.map(\.title) == ["sync", "the tool"])
    }

    @Test func aFirstDownloadSetsLinksToClassesItDownloadsAfter() throws {
        let a = try Realm(configuration: configuration("a"))
        try writeProject(into: a)
        try a.syncSession!.waitUntilSynced()
        // Past a first download too: changes pulled in one page, owner first.
        let b = try Realm(configuration: configuration("b"))
        try synced(b)
        try expectProject(in: b)
        let late = try Realm(configuration: configuration("late"))
        try synced(late)
        try expectProject(in: late)
    }

    @Test func aLinkToAnObjectDeletedMeanwhileIsEmpty() throws {
        let (a, b) = try twoPausedFilesWithTheProject()
        try a.write { a.delete(a.object(ofType: LinkTarget.self, forPrimaryKey: 2)!) }
        try b.write {
            let owner = b.object(ofType: LinkOwner.self, forPrimaryKey: "p")!
            owner.name = "renamed"
        }
        try resumeAndSync(a, b)
        for realm in [a, b] {
            let owner = try #require(realm.object(ofType: LinkOwner.self, forPrimaryKey: "p"))
            #expect(owner.name == "renamed" && owner.lead == nil)
            #expect(owner.members.map(\.id) == [3, 1])
        }
        // The links the deletion emptied are emptied on the server too.
        let row = try PostgresConnection(server.connectionString).execute(
            "SELECT lead::text, members::text, \"byRole\"::text FROM \"LinkOwner\" WHERE id = 'p'")
        #expect(row[0, 0] == nil && row[0, 1] == "[3, 1]" && row[0, 2] == #"{"lead": null, "contact": 1}"#,
                "\(row[0, 0] ?? "NULL") \(row[0, 1] ?? "NULL") \(row[0, 2] ?? "NULL")")
    }

    @Test func aLinkSetToAnObjectDeletedElsewhereComesBackWithIt() throws {
        let (a, b) = try twoPausedFilesWithTheProject()
        try b.write { b.delete(b.object(ofType: LinkTarget.self, forPrimaryKey: 1)!) }
        usleep(5_000)
        // Later than the deletion, by a machine that has not seen it: the server keeps the
        // link, as a primary key with no row behind it for now.
        try a.write { a.object(ofType: LinkOwner.self, forPrimaryKey: "p")!.lead = a.object(ofType: LinkTarget.self, forPrimaryKey: 1) }
        try resumeAndSync(a, b)
        let lead = try PostgresConnection(server.connectionString).execute("SELECT lead::text FROM \"LinkOwner\" WHERE id = 'p'")[0, 0]
        #expect(lead == "1")
        for realm in [a, b] {
            #expect(realm.object(ofType: LinkOwner.self, forPrimaryKey: "p")?.lead == nil)
        }
        try b.write { b.create(LinkTarget.self, value: ["id": 1, "name": "Ana again"]) }
        try synced(b, a)
        for realm in [a, b] {
            #expect(realm.object(ofType: LinkOwner.self, forPrimaryKey: "p")?.lead?.name == "Ana again")
        }
        // A new file reads the same.
        let late = try Realm(configuration: configuration("late"))
        try synced(late)
        #expect(late.object(ofType: LinkOwner.self, forPrimaryKey: "p")?.lead?.name == "Ana again")
    }

    @Test func anEditBesideALinkWaitingForItsTargetKeepsTheLink() throws {
        let (a, b) = try twoPausedFilesWithTheProject()
        try b.write { b.delete(b.object(ofType: LinkTarget.self, forPrimaryKey: 1)!) }
        usleep(5_000)
        // a, unaware of the deletion, adds Ana to the members again.
        try a.write {
            let owner = a.object(ofType: LinkOwner.self, forPrimaryKey: "p")!
            owner.members.append(a.object(ofType: LinkTarget.self, forPrimaryKey: 1)!)
        }
        try resumeAndSync(a, b)
        for realm in [a, b] {
            #expect(realm.object(ofType: LinkOwner.self, forPrimaryKey: "p")?.members.map(\.id) == [3, 2])
        }
        // An edit of the list where Ana is missing leaves her on the server.
        try b.write {
            let owner = b.object(ofType: LinkOwner.self, forPrimaryKey: "p")!
            owner.members.append(b.object(ofType: LinkTarget.self, forPrimaryKey: 3)!)
        }
        try synced(b, a)
        try b.write { b.create(LinkTarget.self, value: ["id": 1, "name": "Ana again"]) }
        try synced(b, a)
        for realm in [a, b] {
            #expect(realm.object(ofType: LinkOwner.self, forPrimaryKey: "p")?.members.map(\.id) == [3, 2, 1, 3])
        }
    }
}
