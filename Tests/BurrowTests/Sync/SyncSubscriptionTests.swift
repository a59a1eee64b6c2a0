import Burrow
import Foundation
import TemporaryPostgres
import Testing

final class SubscribedOwner: Object {
    @Persisted(primaryKey: true) var id: Int = 0
    @Persisted var name: String = ""
}

final class SubscribedItem: Object {
    @Persisted(primaryKey: true) var id: Int = 0
    @Persisted var name: String = ""
    @Persisted var nickname: String?
    @Persisted var count: Int = 0
    @Persisted var score: Double?
    @Persisted var done: Bool = false
    @Persisted var created: Date = Date(timeIntervalSince1970: 0)
    @Persisted var token: UUID?
    @Persisted var tags: List<String>
    @Persisted var numbers: MutableSet<Int>
    @Persisted var prices: Map<String, Double>
    @Persisted var owner: SubscribedOwner?
    @Persisted var helpers: List<SubscribedOwner>
    @Persisted var mixed: AnyRealmValue
}

/// Subscriptions by query: the server picks with SQL what a file downloads, objects move in
/// and out of a file as they change, and the set is kept in the file.
@Suite(.enabled(if: TemporaryPostgres.isAvailable, "\(TemporaryPostgres.unavailableReason ?? "")"), .serialized,
       .plainFilesOnly("the server sees values, not files: encryption is covered by the local tests"))
final class SyncSubscriptionTests {
    let fixture: SyncFixture

    init() throws {
        fixture = try SyncFixture()
    }

    func configuration(_ name: String, rerunOnOpen: Bool = false,
                       subscriptions: @escaping @Sendable (SyncSubscriptionSet) -> Void) -> Realm.Configuration {
        var configuration = fixture.configuration(name, objectTypes: [SubscribedItem.self, SubscribedOwner.self], subscriptions: subscriptions)
        configuration.syncConfiguration?.rerunOnOpen = rerunOnOpen
        return configuration
    }

    /// A file holding every object, with `count` varied items written and uploaded.
    func writer(items count: Int = 60) throws -> Realm {
        let writer = try Realm(configuration: configuration("writer") { subs in
            subs.append(QuerySubscription<SubscribedItem>())
            subs.append(QuerySubscription<SubscribedOwner>())
        })
        let names = ["Ana", "ana", "Bob", "Zoë", "éclair", "", "日本", "a%b_c", "x*y", "bar", "Bart", "anna"]
        let tags = [[], ["red"], ["blue", "red"], ["bright", "blue"], ["red", "red"], ["日"]]
        try writer.write {
            let owners = (0..<4).map { writer.create(SubscribedOwner.self, value: ["id": $0, "name": "owner\($0)"]) }
            for id in 0..<count {
                let item = writer.create(SubscribedItem.self, value: [
                    "id": id, "name": names[id % names.count], "count": (id * 7) % 11,
                    "done": id % 3 == 0, "created": Date(timeIntervalSince1970: Double(id) * 86_400),
                    "tags": tags[id % tags.count], "numbers": Array(0..<(id % 5)).map { $0 * id % 13 },
                ])
                if id % 4 != 0 { item.nickname = names[(id + 5) % names.count] }
                if id % 5 != 0 { item.score = Double(id % 9) / 8 }
                if id % 6 == 1 { item.token = UUID(uuidString: "00000000-0000-0000-0000-0000000000\(10 + id % 3)") }
                if id % 2 == 0 { item.prices["eur"] = Double(id % 10) }
                if id % 3 == 1 { item.prices["usd"] = Double(id) }
                if id % 7 != 0 { item.owner = owners[id % 4] }
                item.helpers.append(objectsIn: owners.filter { ($0.id + id) % 3 == 0 })
            }
        }
        try writer.syncSession!.waitUntilSynced()
        return writer
    }

    func ids(_ results: Results<SubscribedItem>) -> Set<Int> { Set(results.map(\.id)) }

    @Test func theServerSelectsWhatTheSameQuerySelectsHere() throws {
        let writer = try writer()
        let reader = try Realm(configuration: configuration("reader") { subs in subs.append(QuerySubscription<SubscribedOwner>()) })
        try reader.syncSession!.waitUntilSynced()
        reader.refresh()
        // An object in a query is one of the file's own, as in a local query.
        let owner = try #require(reader.object(ofType: SubscribedOwner.self, forPrimaryKey: 2))
        let writersOwner = try #require(writer.object(ofType: SubscribedOwner.self, forPrimaryKey: 2))
        let token = try #require(UUID(uuidString: "00000000-0000-0000-0000-000000000011"))
        let queries: [(String, [Any])] = [
            ("count > 5", []), ("count >= 5 AND done == false", []), ("NOT (count == 3)", []), ("count BETWEEN {2, 6}", []),
            ("nickname == nil", []), ("nickname != nil", []), ("nickname != 'ana'", []), ("NOT (nickname == 'ana')", []),
            ("name == 'Ana'", []), ("name ==[c] 'ana'", []), ("name BEGINSWITH 'a'", []), ("name BEGINSWITH[c] 'A'", []),
            ("name ENDSWITH 'r'", []), ("name CONTAINS 'a%b'", []), ("name LIKE 'a?b_c'", []), ("name LIKE '*r*'", []),
            ("name LIKE[c] 'B*'", []), ("name < 'b'", []), ("name > 'Z'", []), ("name >= 'é'", []), ("name == ''", []),
            ("score > 0.5", []), ("score == nil", []), ("score != nil AND score < 0.25", []), ("score <= count", []),
            ("created > %@", [Date(timeIntervalSince1970: 20 * 86_400)]), ("token == %@", [token]), ("token != nil", []),
            ("id IN {1, 2, 3, 40}", []), ("nickname IN {'ana', nil}", []), ("name IN {}", []),
            ("ANY tags == 'red'", []), ("'red' IN tags", []), ("ALL tags BEGINSWITH 'b'", []), ("NONE tags == 'red'", []),
            ("tags.@count == 0", []), ("tags.@count > 1", []), ("ANY numbers > 7", []), ("numbers.@count >= 3", []),
            ("prices['eur'] < 5", []), ("prices.@count > 1", []), ("ANY prices > 30", []),
            ("owner == nil", []), ("owner.id == 2", []), ("owner == %@", [owner]), ("owner != %@", [owner]),
            ("ANY helpers.id == 3", []), ("helpers.@count == 0", []), ("FALSEPREDICATE", []),
        ]
        for (format, arguments) in queries {
            let local = arguments.map { ($0 as? SubscribedOwner).map { _ in writersOwner as Any } ?? $0 }
            let expected = ids(writer.objects(SubscribedItem.self).filter(try QueryPredicate(format: format, argumentArray: local)))
            try reader.updateSubscriptions {
                reader.subscriptions.removeAll(ofType: SubscribedItem.self)
                reader.subscriptions.append(QuerySubscription<SubscribedItem>(name: "q", where: try! QueryPredicate(format: format, argumentArray: arguments)))
            }
            #expect(ids(reader.objects(SubscribedItem.self)) == expected, "\(format)")
            #expect(reader.subscriptions.state == .complete)
        }
        // The type-safe builder's queries translate alike.
        try reader.updateSubscriptions {
            reader.subscriptions.removeAll(ofType: SubscribedItem.self)
            reader.subscriptions.append(QuerySubscription<SubscribedItem>(name: "built") {
                ($0.count > 3 && $0.name.starts(with: "a", options: .caseInsensitive)) || $0.tags.contains("blue")
            })
        }
        let built = writer.objects(SubscribedItem.self).where {
            ($0.count > 3 && $0.name.starts(with: "a", options: .caseInsensitive)) || $0.tags.contains("blue")
        }
        #expect(ids(reader.objects(SubscribedItem.self)) == ids(built))
        #expect(!built.isEmpty)
    }

    @Test func objectsEnterAndLeaveAFileAsTheyChange() throws {
        let writer = try writer(items: 6)
        let reader = try Realm(configuration: configuration("reader") { subs in
            subs.append(QuerySubscription<SubscribedItem>(name: "open") { $0.done == false })
            subs.append(QuerySubscription<SubscribedOwner>())
        })
        try fixture.converge([writer, reader])
        #expect(ids(reader.objects(SubscribedItem.self)) == [1, 2, 4, 5])
        var changes: [[Int]] = []
        let token = reader.objects(SubscribedItem.self).observe { change in
            if case .update(_, let deletions, let insertions, _) = change { changes.append([deletions.count, insertions.count]) }
        }
        defer { token.invalidate() }
        reader.refresh()

        // One leaves the view: it goes from the file, not from the server.
        try writer.write { writer.object(ofType: SubscribedItem.self, forPrimaryKey: 1)!.done = true }
        try fixture.converge([writer, reader])
        #expect(ids(reader.objects(SubscribedItem.self)) == [2, 4, 5])
        #expect(writer.object(ofType: SubscribedItem.self, forPrimaryKey: 1) != nil)

        // One enters through a change of one property: it arrives whole.
        try writer.write { writer.object(ofType: SubscribedItem.self, forPrimaryKey: 3)!.done = false }
        try fixture.converge([writer, reader])
        let entered = try #require(reader.object(ofType: SubscribedItem.self, forPrimaryKey: 3))
        let original = writer.object(ofType: SubscribedItem.self, forPrimaryKey: 3)!
        #expect(entered.name == original.name && entered.count == original.count && Array(entered.tags) == Array(original.tags))
        #expect(entered.owner?.id == original.owner?.id && entered.nickname == original.nickname)
        #expect(changes.contains([1, 0]) && changes.contains([0, 1]), "\(changes)")

        // A change made here that takes an object out of the view goes up, then the object goes.
        try reader.write { reader.object(ofType: SubscribedItem.self, forPrimaryKey: 2)!.done = true }
        try fixture.converge([reader, writer])
        #expect(reader.object(ofType: SubscribedItem.self, forPrimaryKey: 2) == nil)
        #expect(writer.object(ofType: SubscribedItem.self, forPrimaryKey: 2)?.done == true)

        // A deletion elsewhere removes it here; objects that stay keep their links.
        try writer.write { writer.delete(writer.object(ofType: SubscribedItem.self, forPrimaryKey: 4)!) }
        try fixture.converge([writer, reader])
        #expect(ids(reader.objects(SubscribedItem.self)) == [3, 5])
    }

    @Test func changingTheSetDownloadsWhatEntersAndRemovesWhatLeaves() throws {
        let writer = try writer(items: 30)
        let reader = try Realm(configuration: configuration("reader") { subs in
            subs.append(QuerySubscription<SubscribedItem>(name: "small") { $0.count < 5 })
        })
        try reader.syncSession!.waitUntilSynced()
        reader.refresh()
        let small = ids(writer.objects(SubscribedItem.self).where { $0.count < 5 })
        #expect(ids(reader.objects(SubscribedItem.self)) == small)

        try reader.updateSubscriptions {
            reader.subscriptions.first(named: "small")!.updateQuery(toType: SubscribedItem.self) { $0.count >= 5 }
        }
        let large = ids(writer.objects(SubscribedItem.self).where { $0.count >= 5 })
        #expect(ids(reader.objects(SubscribedItem.self)) == large)

        // Two subscriptions of one class select the objects either selects.
        try reader.updateSubscriptions {
            reader.subscriptions.append(QuerySubscription<SubscribedItem>(name: "done") { $0.done == true })
        }
        let either = ids(writer.objects(SubscribedItem.self).where { $0.count >= 5 || $0.done == true })
        #expect(ids(reader.objects(SubscribedItem.self)) == either)
        #expect(reader.objects(SubscribedOwner.self).isEmpty)

        // A link's target is not downloaded by the link: its class needs a subscription.
        try reader.updateSubscriptions { reader.subscriptions.append(QuerySubscription<SubscribedOwner>()) }
        #expect(reader.objects(SubscribedOwner.self).count == 4)
        let linked = try #require(reader.objects(SubscribedItem.self).first { $0.owner != nil })
        #expect(linked.owner?.id == writer.object(ofType: SubscribedItem.self, forPrimaryKey: linked.id)?.owner?.id)

        try reader.updateSubscriptions { reader.subscriptions.removeAll() }
        #expect(reader.objects(SubscribedItem.self).isEmpty && reader.objects(SubscribedOwner.self).isEmpty)
        try writer.syncSession!.waitUntilSynced()
        writer.refresh()
        #expect(writer.objects(SubscribedItem.self).count == 30, "unsubscribing removed objects from the server")
    }

    @Test func aQueryWithoutAnSQLFormIsRefusedNamingItsPart() throws {
        let reader = try Realm(configuration: configuration("reader") { subs in
            subs.append(QuerySubscription<SubscribedItem>(name: "all"))
        })
        try reader.syncSession!.waitUntilSynced()
        let refused: [(String, String)] = [
            ("owner.name == 'x'", "'owner.name'"),
            ("SUBQUERY(helpers, $h, $h.name == 'x').@count > 0", "SUBQUERY(helpers"),
            ("name ==[d] 'e'", "[d]"),
            ("mixed == 5", "'mixed'"),
            ("count == 'five'", "does not compare"),
        ]
        for (format, part) in refused {
            do {
                try reader.updateSubscriptions {
                    reader.subscriptions.append(QuerySubscription<SubscribedItem>(name: "bad", where: format))
                }
                Issue.record("\(format) was accepted")
            } catch let error as SyncError {
                #expect(error.code == .invalidSubscription)
                #expect(error.message.contains(part), "\(error.message)")
            }
            #expect(reader.subscriptions.count == 1 && reader.subscriptions.first(named: "bad") == nil)
            #expect(reader.subscriptions.state == .complete)
        }
    }

    /// Every kind of value an `AnyRealmValue` holds goes up from one file and down into
    /// another, and a change of it comes back the other way.
    @Test func everyKindOfMixedValueTravelsBothWays() throws {
        let everything: @Sendable (SyncSubscriptionSet) -> Void = { subs in
            subs.append(QuerySubscription<SubscribedItem>())
            subs.append(QuerySubscription<SubscribedOwner>())
        }
        let writer = try Realm(configuration: configuration("mixed-writer", subscriptions: everything))
        let date = Date(timeIntervalSince1970: 1_700_000_000.25)
        let uuid = try #require(UUID(uuidString: "137DECC8-B300-4954-A233-F89909F4FD89"))
        let objectId = try ObjectId(string: "1234567890ab1234567890ab")
        let values: [AnyRealmValue] = [
            .none, .int(-42), .bool(true), .float(2.5), .double(-0.125), .string("日本 é"), .data(Data([0, 1, 255])), .date(date),
            .objectId(objectId), .decimal128("12.345"), .uuid(uuid),
        ]
        try writer.write {
            let owner = writer.create(SubscribedOwner.self, value: ["id": 1, "name": "Ann"])
            for (id, value) in values.enumerated() { writer.create(SubscribedItem.self, value: ["id": id, "mixed": value]) }
            writer.create(SubscribedItem.self, value: ["id": 100, "mixed": AnyRealmValue.object(owner)])
        }
        try writer.syncSession!.waitUntilSynced()
        let reader = try Realm(configuration: configuration("mixed-reader", subscriptions: everything))
        try reader.syncSession!.waitUntilSynced()
        reader.refresh()
        for (id, value) in values.enumerated() {
            #expect(reader.object(ofType: SubscribedItem.self, forPrimaryKey: id)?.mixed == value, "\(value)")
        }
        let linked = reader.object(ofType: SubscribedItem.self, forPrimaryKey: 100)?.mixed.object(SubscribedOwner.self)
        #expect(linked?.name == "Ann" && linked?.realm == reader)
        // Back the other way: a change made in the reader reaches the writer.
        try reader.write {
            reader.object(ofType: SubscribedItem.self, forPrimaryKey: 1)!.mixed = .string("changed")
            reader.object(ofType: SubscribedItem.self, forPrimaryKey: 0)!.mixed = .int(7)
        }
        try reader.syncSession!.waitUntilSynced()
        try writer.syncSession!.waitUntilSynced()
        writer.refresh()
        #expect(writer.object(ofType: SubscribedItem.self, forPrimaryKey: 1)?.mixed == .string("changed"))
        #expect(writer.object(ofType: SubscribedItem.self, forPrimaryKey: 0)?.mixed == .int(7))
        #expect(writer.object(ofType: SubscribedItem.self, forPrimaryKey: 2)?.mixed == .bool(true))
    }

    @Test func theSetIsKeptInTheFile() throws {
        var configuration = configuration("kept") { subs in
            subs.append(QuerySubscription<SubscribedItem>(name: "open") { $0.done == false })
            subs.append(QuerySubscription<SubscribedOwner>())
        }
        do {
            let realm = try Realm(configuration: configuration)
            try realm.syncSession!.waitUntilSynced()
            let subscriptions = realm.subscriptions
            #expect(subscriptions.count == 2 && subscriptions.state == .complete)
            let open = try #require(subscriptions.first(named: "open"))
            #expect(open.objectClassName == "SubscribedItem" && open.queryString == "done == false")
            #expect(subscriptions.first(ofType: SubscribedItem.self) { $0.done == false }?.name == "open")
            #expect(subscriptions.map(\.objectClassName) == ["SubscribedItem", "SubscribedOwner"])
            #expect(subscriptions[1]?.queryString == "TRUEPREDICATE" && subscriptions[2] == nil)
            Thread.sleep(forTimeInterval: 0.01)
            try realm.updateSubscriptions { open.updateQuery(to: "done == true AND name BEGINSWITH %@", "é") }
            let updated = try #require(subscriptions.first(named: "open"))
            #expect(updated.queryString == #"(done == true AND name BEGINSWITH "é")"#)
            #expect(updated.createdAt == open.createdAt && updated.updatedAt > open.updatedAt)
            try realm.updateSubscriptions {
                subscriptions.append(QuerySubscription<SubscribedItem>(where: "count > 3"))
                subscriptions.remove(named: "missing")
            }
            #expect(subscriptions.count == 3)
        }
        configuration.stopSyncSession()
        // Opened again, the file keeps its set: the initial subscriptions do not run again.
        configuration.syncConfiguration?.initialSubscriptions = { subs in subs.append(QuerySubscription<SubscribedOwner>(name: "other")) }
        do {
            let realm = try Realm(configuration: configuration)
            #expect(realm.subscriptions.map(\.name) == ["open", nil, nil])
            #expect(realm.subscriptions.first(named: "open")?.queryString == #"(done == true AND name BEGINSWITH "é")"#)
            try realm.updateSubscriptions { realm.subscriptions.removeAll(unnamedOnly: true) }
            #expect(realm.subscriptions.map(\.name) == ["open"])
        }
        configuration.stopSyncSession()
        // With rerunOnOpen they do, at every open.
        configuration.syncConfiguration?.rerunOnOpen = true
        let realm = try Realm(configuration: configuration)
        #expect(realm.subscriptions.map(\.name) == ["open", "other"])
    }

    @Test @MainActor func resultsSubscribeAndUnsubscribe() async throws {
        let writer = try writer(items: 20)
        let reader = try Realm(configuration: configuration("reader") { _ in })
        let big = try await reader.objects(SubscribedItem.self).where { $0.count > 5 }.subscribe(name: "big")
        #expect(ids(big) == ids(writer.objects(SubscribedItem.self).where { $0.count > 5 }))
        #expect(reader.subscriptions.first(named: "big")?.queryString == "count > 5")
        // Subscribing again changes nothing and does not wait.
        _ = try await reader.objects(SubscribedItem.self).where { $0.count > 5 }.subscribe(name: "big", waitForSync: .onCreation)
        #expect(reader.subscriptions.count == 1)
        big.unsubscribe()
        #expect(reader.subscriptions.isEmpty)
        try reader.syncSession!.waitUntilSynced()
        reader.refresh()
        #expect(reader.objects(SubscribedItem.self).isEmpty)
    }

    @Test func changingSubscriptionsOutsideUpdateTraps() async {
        await #expect(processExitsWith: .failure) {
            let directory = TestDirectory()
            var configuration = Realm.Configuration(fileURL: directory.url.appendingPathComponent("trap.realm"),
                                                    objectTypes: [SubscribedItem.self, SubscribedOwner.self])
            configuration.syncConfiguration = SyncConfiguration(server: "host=/nonexistent dbname=none connect_timeout=1")
            let realm = try! Realm(configuration: configuration)
            realm.subscriptions.append(QuerySubscription<SubscribedItem>())
        }
        await #expect(processExitsWith: .failure) {
            let directory = TestDirectory()
            let realm = try! Realm(configuration: Realm.Configuration(fileURL: directory.url.appendingPathComponent("plain.realm"),
                                                                      objectTypes: [SubscribedItem.self, SubscribedOwner.self]))
            _ = realm.subscriptions.count
        }
    }
}
