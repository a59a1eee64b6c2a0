import Burrow
@testable import LMDB
import Foundation
import Testing

/// Notifications of lists and dictionaries nested in an `AnyRealmValue`.
@Suite struct NestedCollectionNotificationTests {
    let directory = TestDirectory()

    private func setting(_ realm: Realm, _ value: AnyRealmValue) throws -> Setting {
        let setting = Setting(value: ["name": "s", "value": value])
        try realm.write { realm.add(setting) }
        return setting
    }

    @Test func aNestedListReportsByPosition() throws {
        let realm = try directory.realm()
        let setting = try setting(realm, .fromArray([.int(1), .int(2), .fromArray([.string("inner")])]))
        let list = try #require(setting.value.listValue)
        var events: [String] = []
        let token = list.observe { change in
            switch change {
            case .initial(let list): events.append("initial \(list.count)")
            case .update(let list, let deletions, let insertions, let modifications):
                events.append("\(list.count) \(deletions) \(insertions) \(modifications)")
            case .error(let error): events.append("error \(error)")
            }
        }
        defer { token.invalidate() }
        realm.refresh()
        try realm.write { list.append(.string("ünï")) }
        try realm.write { list.insert(.none, at: 0) }
        try realm.write { list[1] = .int(10) }
        try realm.write { list[3].listValue!.append(.bool(true)) }
        try realm.write { list.remove(at: 2) }
        try realm.write { setting.value = setting.value }  // the same value: nothing to report
        try realm.write { list.removeAll() }
        #expect(events == ["initial 3", "4 [] [3] []", "5 [] [0] []", "5 [] [] [1]", "5 [] [] [3]", "4 [2] [] []", "0 [0, 1, 2, 3] [] []"])
    }

    @Test func equalElementsAreToldApart() throws {
        let realm = try directory.realm()
        let setting = try setting(realm, .fromArray([.int(7), .int(7), .int(7)]))
        let list = try #require(setting.value.listValue)
        var events: [String] = []
        let token = list.observe { change in
            if case .update(_, let deletions, let insertions, let modifications) = change { events.append("\(deletions) \(insertions) \(modifications)") }
        }
        defer { token.invalidate() }
        realm.refresh()
        try realm.write { list.remove(at: 1) }
        try realm.write { list.insert(.int(8), at: 1) }
        #expect(events == ["[2] [] []", "[] [1] []"])
    }

    @Test func aNestedDictionaryReportsKeys() throws {
        let realm = try directory.realm()
        let setting = try setting(realm, .fromDictionary(["a": .int(1), "b": .int(2)]))
        let map = try #require(setting.value.dictionaryValue)
        var events: [String] = []
        let token = map.observe { change in
            switch change {
            case .initial(let map): events.append("initial \(map.count)")
            case .update(_, let deletions, let insertions, let modifications): events.append("\(deletions) \(insertions) \(modifications)")
            case .error(let error): events.append("error \(error)")
            }
        }
        defer { token.invalidate() }
        realm.refresh()
        try realm.write { map["ключ"] = .string("v") }
        try realm.write { map["a"] = .int(100) }
        try realm.write { map["b"] = nil }
        #expect(events == ["initial 2", "[] [\"ключ\"] []", "[] [] [\"a\"]", "[\"b\"] [] []"])
    }

    @Test func replacingOrDeletingTheHolderEndsTheObservation() throws {
        let realm = try directory.realm()
        let setting = try setting(realm, .fromArray([.int(1), .int(2)]))
        let list = try #require(setting.value.listValue)
        var events: [String] = []
        let token = list.observe { change in
            if case .update(_, let deletions, let insertions, _) = change { events.append("\(deletions) \(insertions)") }
        }
        realm.refresh()
        try realm.write { setting.value = .string("no longer a list") }
        try realm.write { setting.value = .fromArray([.int(3)]) }
        #expect(events == ["[0, 1] []"])
        #expect(token.internals.isInvalidated)

        let other = try #require(setting.value.listValue)
        var deleted: [[Int]] = []
        let second = other.observe { change in
            if case .update(_, let deletions, _, _) = change { deleted.append(deletions) }
        }
        realm.refresh()
        try realm.write { realm.delete(setting) }
        #expect(deleted == [[0]])
        #expect(second.internals.isInvalidated)
    }

    @Test func changesOfAnotherThreadArriveOnAQueue() throws {
        let configuration = directory.configuration()
        let realm = try Realm(configuration: configuration)
        let setting = try setting(realm, .fromDictionary(["inner": .fromArray([])]))
        let list = try #require(setting.value.dictionaryValue?["inner"]?.listValue)
        let events = Locked<[String]>([])
        let arrived = DispatchSemaphore(value: 0)
        let queue = DispatchQueue(label: "nested observer")
        let token = list.observe(on: queue) { change in
            switch change {
            case .initial(let list): events.withLock { $0.append("initial \(list.count)") }
            case .update(let list, _, let insertions, _):
                events.withLock { $0.append("update \(list.count) \(insertions)") }
                arrived.signal()
            case .error(let error): events.withLock { $0.append("error \(error)") }
            }
        }
        defer {
            token.invalidate()
            queue.sync {}  // the queue's realm closes once the observation is gone
        }
        // Waits for the initial notification, so that the write below is an update.
        for _ in 0..<1000 where events.withLock({ $0.isEmpty }) { Thread.sleep(forTimeInterval: 0.005) }
        onAnotherThread {
            let realm = try! Realm(configuration: configuration)
            let setting = realm.object(ofType: Setting.self, forPrimaryKey: "s")!
            try! realm.write { setting.value.dictionaryValue!["inner"]!.listValue!.append(.int(5)) }
        }
        #expect(arrived.wait(timeout: .now() + 60) == .success)
        #expect(events.withLock { $0 } == ["initial 0", "update 1 [0]"])
    }

    @Test func keyPathsTrap() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = MisuseTests.freshRealm()
            let setting = Setting(value: ["name": "s", "value": AnyRealmValue.fromArray([.int(1)])])
            try! realm.write { realm.add(setting) }
            _ = setting.value.listValue!.observe(keyPaths: ["name"]) { _ in }
        }.map { #expect(String(decoding: $0.standardErrorContent, as: UTF8.self).contains("no key paths to filter by")) }
    }
}
