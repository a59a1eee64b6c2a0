import Burrow
@testable import LMDB
import Foundation
import Testing

/// Notifications of realms, results and objects, delivered where the realm moves.
@Suite struct NotificationTests {
    let directory = TestDirectory()

    @Test func resultsReportInitialThenEachChange() throws {
        let realm = try Realm(configuration: directory.configuration(objectTypes: [Dog.self]))
        try realm.write { for age in 0..<5 { realm.add(Dog(value: ["name": "d\(age)", "age": age])) } }
        var seen: [String] = []
        let token = realm.objects(Dog.self).filter("age >= 2").sorted(byKeyPath: "age").observe { change in
            switch change {
            case .initial(let results): seen.append("initial \(results.count)")
            case .update(_, let deletions, let insertions, let modifications): seen.append("update \(deletions) \(insertions) \(modifications)")
            case .error(let error): seen.append("error \(error)")
            }
        }
        realm.refresh()
        #expect(seen == ["initial 3"])
        try realm.write {
            realm.add(Dog(value: ["name": "new", "age": 10]))
            realm.objects(Dog.self).filter("age == 3").first!.name = "renamed"
            realm.delete(realm.objects(Dog.self).filter("age == 2"))
        }
        #expect(seen.last == "update [0] [2] [1]")
        try realm.write { realm.objects(Dog.self).filter("age == 0").first!.name = "not in the results" }
        #expect(seen.count == 2)
        token.invalidate()
        try realm.write { realm.add(Dog(value: ["age": 50])) }
        #expect(seen.count == 2)
    }

    @Test func objectsReportChangedPropertiesWithOldValuesThenDeletion() throws {
        let realm = try Realm(configuration: directory.configuration(objectTypes: [Dog.self]))
        let dog = Dog(value: ["name": "Rex", "age": 1])
        try realm.write { realm.add(dog) }
        var seen: [String] = []
        let token = dog.observe { (change: ObjectChange<Dog>) in
            switch change {
            case .change(let object, let properties):
                seen.append(properties.map { "\($0.name) \($0.oldValue ?? "nil") \($0.newValue ?? "nil")" }.joined(separator: ", ") + " on \(object.name)")
            case .deleted: seen.append("deleted")
            case .error(let error): seen.append("error \(error)")
            }
        }
        // Another thread's write reports old values; the realm's own write does not, as in
        // RealmSwift (its ObjectTests' testModifyObservedObjectLocally).
        let configuration = realm.configuration
        onAnotherThread {
            let other = try! Realm(configuration: configuration)
            try! other.write { other.objects(Dog.self).first!.age = 2 }
        }
        realm.refresh()
        #expect(seen == ["age 1 2 on Rex"])
        try realm.write { dog.name = "Max"; dog.age = 3 }
        #expect(seen.last == "name nil Max, age nil 3 on Max")
        // Setting the value a property holds is a change, as in RealmSwift; other objects are
        // not this one.
        onAnotherThread {
            let other = try! Realm(configuration: configuration)
            try! other.write { other.objects(Dog.self).first!.age = 3; other.add(Dog()) }
        }
        realm.refresh()
        #expect(seen.last == "age 3 3 on Max")
        try realm.write { realm.add(Dog()) }
        #expect(seen.count == 3)
        try realm.write { realm.delete(dog) }
        #expect(seen.last == "deleted")
        withExtendedLifetime(token) {}
    }

    @Test func keyPathsFilterWhatCounts() throws {
        let realm = try Realm(configuration: directory.configuration(objectTypes: [Dog.self]))
        let dog = Dog(value: ["name": "Rex", "age": 1])
        try realm.write { realm.add(dog) }
        var names = 0
        let token = dog.observe(keyPaths: ["name"]) { (change: ObjectChange<Dog>) in names += 1 }
        var ages = 0
        let results = realm.objects(Dog.self).observe(keyPaths: ["age"]) { change in
            if case .update(_, _, _, let modifications) = change, !modifications.isEmpty { ages += 1 }
        }
        realm.refresh()
        try realm.write { dog.age = 5 }
        try realm.write { dog.name = "Max" }
        #expect(names == 1)
        #expect(ages == 1)
        withExtendedLifetime((token, results)) {}
    }

    /// Key paths through linking objects, as RealmSwift's backlink key-path tests check them:
    /// `puppies` hears puppies linking or unlinking, not their own changes nor the owner's
    /// other properties; `puppies.name` hears those puppies' names too.
    @Test func keyPathsThroughLinkingObjects() throws {
        let realm = try Realm(configuration: directory.configuration(objectTypes: [Owner.self, Puppy.self]))
        let owner = Owner(value: ["id": 1, "name": "Ann"])
        let rex = Puppy(value: ["name": "Rex", "owner": owner])
        try realm.write { realm.add(rex) }
        var heard: [String: [String]] = [:]
        func observe(_ keyPath: String) -> NotificationToken {
            owner.observe(keyPaths: [keyPath]) { (change: ObjectChange<Owner>) in
                if case .change(_, let properties) = change { heard[keyPath, default: []].append(properties.map(\.name).joined(separator: ",")) }
            }
        }
        let tokens = [observe("puppies"), observe("puppies.name")]
        try realm.write { owner.name = "Bea" }
        try realm.write { rex.age = 3 }
        #expect(heard.isEmpty)
        try realm.write { rex.name = "Max" }
        #expect(heard["puppies"] == nil && heard["puppies.name"] == ["puppies"])
        try realm.write { realm.add(Puppy(value: ["name": "Ida", "owner": owner])) }
        #expect(heard["puppies"] == ["puppies"] && heard["puppies.name"] == ["puppies", "puppies"])
        try realm.write { rex.owner = nil }
        #expect(heard["puppies"]?.count == 2 && heard["puppies.name"]?.count == 3)
        withExtendedLifetime(tokens) {}
    }

    /// Results observed through linking objects hear the objects newly linked and the linking
    /// objects' changes; linking objects of a list count too.
    @Test func resultsKeyPathsThroughLinkingObjects() throws {
        let realm = try Realm(configuration: directory.configuration(objectTypes: [Owner.self, Puppy.self, Kennel.self]))
        let ann = Owner(value: ["id": 1, "name": "Ann"]), bea = Owner(value: ["id": 2, "name": "Bea"])
        let rex = Puppy(value: ["name": "Rex", "owner": ann])
        try realm.write { realm.add([rex, Puppy(value: ["name": "Ida", "owner": bea])]) }
        var modified: [[Int]] = []
        let owners = realm.objects(Owner.self).sorted(byKeyPath: "id")
        let token = owners.observe(keyPaths: ["puppies.name"]) { change in
            if case .update(_, _, _, let modifications) = change, !modifications.isEmpty { modified.append(modifications) }
        }
        realm.refresh()
        try realm.write { rex.name = "Max" }
        try realm.write { rex.age = 4 }
        try realm.write { realm.add(Puppy(value: ["name": "Cy", "owner": bea])) }
        #expect(modified == [[0], [1]])
        var kennels: [String] = []
        let kennelToken = rex.observe(keyPaths: ["kennels"]) { (change: ObjectChange<Puppy>) in
            if case .change(_, let properties) = change { kennels.append(contentsOf: properties.map(\.name)) }
        }
        try realm.write { realm.add(Kennel(value: ["id": 1, "dogs": [rex]])) }
        try realm.write { rex.age = 5 }
        #expect(kennels == ["kennels"])
        withExtendedLifetime((token, kennelToken)) {}
    }

    @Test func realmObserversHearEveryVersion() throws {
        let realm = try Realm(configuration: directory.configuration(objectTypes: [Dog.self]))
        var count = 0
        let token = realm.observe { notification, _ in
            if notification == .didChange { count += 1 }
        }
        try realm.write { realm.add(Dog()) }
        try realm.write(withoutNotifying: [token]) { realm.add(Dog()) }
        let configuration = realm.configuration
        onAnotherThread {
            let other = try! Realm(configuration: configuration)
            try! other.write { other.add(Dog()) }
        }
        #expect(count == 1)
        realm.refresh()
        #expect(count == 2)
        token.invalidate()
    }

    @Test func aRealmObserverHearsItsRealmsWritesThatChangeNothing() throws {
        // RealmSwift's testObserve: `write {}` makes no new version, and still notifies.
        let realm = try Realm(configuration: directory.configuration(objectTypes: [Dog.self]))
        var realmNotifications = 0
        var collectionUpdates = 0
        let token = realm.observe { _, _ in realmNotifications += 1 }
        let dogsToken = realm.objects(Dog.self).observe { change in
            if case .update = change { collectionUpdates += 1 }
        }
        realm.refresh()  // the collection's initial notification
        try realm.write {}
        #expect(realmNotifications == 1)
        realm.beginWrite()
        try realm.commitWrite()
        #expect(realmNotifications == 2)
        try realm.write(withoutNotifying: [token]) {}
        #expect(realmNotifications == 2)
        // A refresh that finds nothing new, and a cancelled write, are not commits.
        realm.refresh()
        realm.beginWrite()
        realm.cancelWrite()
        #expect(realmNotifications == 2)
        // Collections hear only changes.
        #expect(collectionUpdates == 0)
        try realm.write { realm.add(Dog()) }
        #expect((realmNotifications, collectionUpdates) == (3, 1))
        withExtendedLifetime((token, dogsToken)) {}
    }

    @Test func aRealmWithoutAutorefreshStaysAndHearsThatANewerVersionWaits() throws {
        // RealmSwift's testRefresh: with autorefresh off, another thread's commit leaves the
        // realm at its version and sends `.refreshRequired`; `refresh()` moves it on.
        let configuration = directory.configuration(objectTypes: [Dog.self])
        let queue = DispatchQueue(label: "no autorefresh")
        let heard = DispatchSemaphore(value: 0)
        let events = Locked<[String]>([])
        let holder = Locked<(realm: UncheckedBox<Realm>, token: NotificationToken)?>(nil)
        queue.sync {
            let realm = try! Realm(configuration: configuration, queue: queue)
            realm.autorefresh = false
            let token = realm.observe { notification, realm in
                events.withLock { $0.append("\(notification == .refreshRequired ? "refresh required" : "did change") \(realm.objects(Dog.self).count)") }
                heard.signal()
            }
            holder.withLock { $0 = (UncheckedBox(realm), token) }
        }
        let writer = try Realm(configuration: configuration)
        try writer.write { writer.add(Dog()) }
        #expect(heard.wait(timeout: .now() + 60) == .success)
        queue.sync {
            let realm = holder.withLock { $0!.realm.value }
            events.withLock { $0.append("count \(realm.objects(Dog.self).count)") }
            realm.refresh()
        }
        #expect(events.withLock { $0 } == ["refresh required 0", "count 0", "did change 1"])
        queue.sync { holder.withLock { $0?.token.invalidate(); $0 = nil } }
        queue.sync {}
    }

    @Test func aQueueObservationHearsCommitsOfOtherThreads() throws {
        let realm = try Realm(configuration: directory.configuration(objectTypes: [Dog.self]))
        let queue = DispatchQueue(label: "observer")
        let events = Locked<[String]>([])
        let arrived = DispatchSemaphore(value: 0)
        let token = realm.objects(Dog.self).observe(on: queue) { change in
            switch change {
            case .initial(let dogs): events.withLock { $0.append("initial \(dogs.count)") }
            case .update(let dogs, _, let insertions, _): events.withLock { $0.append("update \(dogs.count) \(insertions)") }
            case .error: break
            }
            arrived.signal()
        }
        #expect(arrived.wait(timeout: .now() + 60) == .success)
        let configuration = realm.configuration
        onAnotherThread {
            let other = try! Realm(configuration: configuration)
            try! other.write { other.add(Dog(value: ["age": 7])) }
        }
        #expect(arrived.wait(timeout: .now() + 60) == .success)
        #expect(events.withLock { $0 } == ["initial 0", "update 1 [0]"])
        token.invalidate()
        // The queue's realm closes once the observation is gone.
        queue.sync {}
    }
}
