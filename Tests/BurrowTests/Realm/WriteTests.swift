import Burrow
import Foundation
import Testing

@Suite struct WriteTests {
    let directory = TestDirectory()

    /// `nil` (`NSNull`, or a `nil` optional in `[String: Any?]`) for a list, set or map in
    /// `create` and `init(value:)` is an empty collection, as RealmSwift reads it.
    @Test func nilForACollectionIsAnEmptyCollection() throws {
        let realm = try directory.realm()
        let unmanaged = Bag(value: ["items": NSNull(), "tags": NSNull(), "slots": NSNull()])
        #expect(unmanaged.items.isEmpty && unmanaged.tags.isEmpty && unmanaged.slots.isEmpty)
        try realm.write {
            let kennel = realm.create(Kennel.self, value: ["id": 1, "dogs": NSNull(), "tags": nil as [String]?, "scores": [1, nil]] as [String: Any?])
            #expect(kennel.dogs.isEmpty && kennel.tags.isEmpty && Array(kennel.scores) == [1, nil])
            realm.add(unmanaged)
            // An update with nil empties the collection.
            realm.create(Kennel.self, value: ["id": 1, "scores": NSNull()], update: .modified)
        }
        #expect(realm.object(ofType: Kennel.self, forPrimaryKey: 1)?.scores.isEmpty == true)
        #expect(realm.objects(Bag.self).first?.slots.isEmpty == true)
    }

    @Test func writeReturnsTheBlocksValueAndCommits() throws {
        let realm = try directory.realm()
        let name = try realm.write { () -> String in
            realm.add(Dog(value: ["Rex", 1]))
            return "done"
        }
        #expect(name == "done")
        #expect(!realm.isInWriteTransaction)
        #expect(realm.objects(Dog.self).count == 1)
    }

    @Test func aThrowingBlockCancelsTheWrite() throws {
        struct Stop: Error {}
        let realm = try directory.realm()
        let dog = Dog(value: ["Rex", 1])
        #expect(throws: Stop.self) {
            try realm.write {
                realm.add(dog)
                throw Stop()
            }
        }
        #expect(!realm.isInWriteTransaction)
        #expect(realm.objects(Dog.self).isEmpty)
        #expect(dog.isInvalidated)
    }

    @Test func beginCommitAndCancel() throws {
        let realm = try directory.realm()
        realm.beginWrite()
        #expect(realm.isInWriteTransaction)
        let kept = realm.create(Dog.self, value: ["Kept", 2])
        try realm.commitWrite()
        realm.beginWrite()
        let dropped = realm.create(Dog.self, value: ["Dropped", 3])
        kept.age = 20
        realm.cancelWrite()
        #expect(!realm.isInWriteTransaction)
        #expect(dropped.isInvalidated)
        #expect(!kept.isInvalidated)
        #expect(kept.age == 2)
        #expect(realm.objects(Dog.self).map(\.name) == ["Kept"])
    }

    @Test func anOpenWriteKeepsItsRealmForTheNextValue() throws {
        let configuration = directory.configuration()
        // Each value is dropped at once: the open write keeps the realm in the thread's cache.
        try Realm(configuration: configuration).beginWrite()
        try Realm(configuration: configuration).create(Dog.self, value: ["Rex", 1])
        #expect(try Realm(configuration: configuration).isInWriteTransaction)
        try Realm(configuration: configuration).commitWrite()
        #expect(try Realm(configuration: configuration).objects(Dog.self).count == 1)
        try Realm(configuration: configuration).beginWrite()
        try Realm(configuration: configuration).cancelWrite()
        #expect(try !Realm(configuration: configuration).isInWriteTransaction)
    }

    @Test func addingMakesTheSameInstanceManaged() throws {
        let realm = try directory.realm()
        let dog = Dog(value: ["Rex", 1])
        try realm.write { realm.add(dog) }
        #expect(dog.realm == realm)
        try realm.write {
            dog.age = 4
            realm.add(dog)  // already managed: nothing happens
        }
        #expect(realm.objects(Dog.self).count == 1)
        #expect(realm.objects(Dog.self).first?.age == 4)
    }

    @Test func addsSequences() throws {
        let realm = try directory.realm()
        try realm.write { realm.add((0..<100).map { Dog(value: ["d\($0)", $0]) }) }
        #expect(realm.objects(Dog.self).count == 100)
        #expect(realm.objects(Dog.self)[42].name == "d42")
    }

    @Test func updatePolicyAllAndModifiedOverwriteByPrimaryKey() throws {
        let realm = try directory.realm()
        try realm.write { realm.add(Person(value: ["id": 1, "name": "Ann", "nickname": "A"])) }
        let replacement = Person(value: ["id": 1, "name": "Anne"])
        try realm.write { realm.add(replacement, update: .all) }
        let people = realm.objects(Person.self)
        #expect(people.count == 1)
        #expect(people.first?.name == "Anne")
        #expect(people.first?.nickname == nil)
        #expect(replacement.realm == realm)
        try realm.write { realm.add(Person(value: ["id": 1, "name": "Annie"]), update: .modified) }
        #expect(people.first?.name == "Annie")
    }

    @Test func createWithUpdateKeepsUnmentionedProperties() throws {
        let realm = try directory.realm()
        try realm.write {
            realm.create(Person.self, value: ["id": 1, "name": "Jane", "nickname": "JJ"])
            realm.create(Person.self, value: ["id": 1, "age": 28], update: .modified)
        }
        let jane = try #require(realm.object(ofType: Person.self, forPrimaryKey: 1))
        #expect(jane.name == "Jane" && jane.nickname == "JJ" && jane.age == 28)
        try realm.write { realm.create(Person.self, value: [2, "Bob"], update: .all) }
        #expect(realm.object(ofType: Person.self, forPrimaryKey: 2)?.name == "Bob")
    }

    @Test func deletingInvalidatesTheObject() throws {
        let realm = try directory.realm()
        let dog = Dog(value: ["Rex", 1])
        try realm.write { realm.add(dog); realm.add(Dog(value: ["Fido", 2])) }
        let other = realm.objects(Dog.self).first!
        try realm.write { realm.delete(dog) }
        #expect(dog.isInvalidated)
        #expect(other.isInvalidated)
        #expect(realm.objects(Dog.self).map(\.name) == ["Fido"])
    }

    @Test func deletingResultsSequencesAndEverything() throws {
        let realm = try directory.realm()
        try realm.write {
            for age in 0..<10 { realm.add(Dog(value: ["d\(age)", age])) }
            realm.add(Person(value: ["id": 1]))
        }
        try realm.write { realm.delete(realm.objects(Dog.self).filter("age < 3")) }
        #expect(realm.objects(Dog.self).count == 7)
        try realm.write { realm.delete(Array(realm.objects(Dog.self).filter("age >= 8"))) }
        #expect(realm.objects(Dog.self).count == 5)
        try realm.write { realm.delete(realm.objects(Dog.self)) }
        #expect(realm.objects(Dog.self).isEmpty)
        try realm.write { realm.deleteAll() }
        #expect(realm.objects(Person.self).isEmpty)
        try realm.write { realm.add(Dog(value: ["again", 1])) }
        #expect(realm.objects(Dog.self).count == 1)
    }

    @Test func deletingWhileIteratingWalksTheSnapshot() throws {
        let realm = try directory.realm()
        try realm.write { for age in 0..<20 { realm.add(Dog(value: ["d\(age)", age])) } }
        let dogs = realm.objects(Dog.self)
        var visited = 0
        try realm.write {
            for dog in dogs {
                visited += 1
                realm.delete(dog)
            }
        }
        #expect(visited == 20)
        #expect(dogs.isEmpty)
    }

    @Test func objectKeysAreNeverReused() throws {
        let realm = try directory.realm()
        let first = Dog(value: ["first", 1])
        try realm.write { realm.add(first) }
        try realm.write { realm.delete(first) }
        realm.beginWrite()
        let cancelled = realm.create(Dog.self, value: ["cancelled", 2])
        realm.cancelWrite()
        let second = Dog(value: ["second", 3])
        try realm.write { realm.add(second) }
        #expect(first.isInvalidated && cancelled.isInvalidated)
        #expect(!second.isInvalidated)
        #expect(realm.objects(Dog.self).count == 1)
    }

    @Test(.plainFilesOnly("it reads index records, which encryption hashes")) func secondaryIndexesFollowInsertsUpdatesAndDeletes() throws {
        let realm = try directory.realm()
        let items = (0..<50).map { Indexed(value: ["tag": "t\($0 % 5)", "rank": $0, "when": ($0 % 2 == 0 ? Date(timeIntervalSince1970: Double($0)) : nil) as Any]) }
        try realm.write { realm.add(items) }
        #expect(try indexEntries(realm, Indexed.self, column: "tag").count == 50)
        try realm.write {
            items[0].tag = "changed"
            items[1].rank = 1000
            realm.delete(items[2])
        }
        let tags = try indexEntries(realm, Indexed.self, column: "tag")
        #expect(tags.count == 49)
        #expect(tags.filter { $0 == .string("changed") }.count == 1)
        #expect(tags.filter { $0 == .string("t0") }.count == 9)
        let ranks = try indexEntries(realm, Indexed.self, column: "rank")
        #expect(ranks.contains(.int(1000)) && !ranks.contains(.int(1)) && !ranks.contains(.int(2)))
        #expect(ranks.count == 49)
        let dates = try indexEntries(realm, Indexed.self, column: "when")
        #expect(dates.filter { $0 == .null }.count == 25)
    }

    @Test func primaryKeysOfEveryTypeFindTheirObject() throws {
        let realm = try directory.realm()
        let uuid = UUID(), objectId = ObjectId.generate()
        try realm.write {
            realm.add(StringKeyed(value: ["key": "ключ", "value": 1]))
            realm.add(UUIDKeyed(value: ["key": uuid, "value": 2]))
            realm.add(ObjectIdKeyed(value: ["key": objectId, "value": 3]))
            realm.add(OptionalIntKeyed(value: ["value": 4]))
            realm.add(OptionalIntKeyed(value: ["key": -5, "value": 5]))
            realm.add(Person(value: ["id": Int.min]))
        }
        #expect(realm.object(ofType: StringKeyed.self, forPrimaryKey: "ключ")?.value == 1)
        #expect(realm.object(ofType: StringKeyed.self, forPrimaryKey: "other") == nil)
        #expect(realm.object(ofType: UUIDKeyed.self, forPrimaryKey: uuid)?.value == 2)
        #expect(realm.object(ofType: ObjectIdKeyed.self, forPrimaryKey: objectId)?.value == 3)
        #expect(realm.object(ofType: OptionalIntKeyed.self, forPrimaryKey: Optional<Int>.none)?.value == 4)
        #expect(realm.object(ofType: OptionalIntKeyed.self, forPrimaryKey: -5)?.value == 5)
        #expect(realm.object(ofType: Person.self, forPrimaryKey: Int.min) != nil)
        #expect(realm.object(ofType: Person.self, forPrimaryKey: 0) == nil)
        try realm.write { realm.delete(realm.object(ofType: StringKeyed.self, forPrimaryKey: "ключ")!) }
        #expect(realm.object(ofType: StringKeyed.self, forPrimaryKey: "ключ") == nil)
        try realm.write { realm.add(StringKeyed(value: ["key": "ключ", "value": 9])) }
        #expect(realm.object(ofType: StringKeyed.self, forPrimaryKey: "ключ")?.value == 9)
    }

    @Test func passingTheMaximumFileSizeThrowsLimitExceededAndLosesNothing() throws {
        var configuration = directory.configuration()
        configuration.maximumFileSize = 1 << 20
        let realm = try Realm(configuration: configuration)
        try realm.write { for id in 0..<10 { realm.add(Person(value: ["id": id])) } }
        let blob = Data(repeating: 7, count: 64 * 1024)
        expectError(.limitExceeded) {
            try realm.write { for id in 10..<100 { realm.add(Person(value: ["id": id, "picture": blob])) } }
        }
        #expect(!realm.isInWriteTransaction)
        #expect(realm.objects(Person.self).count == 10)
        try realm.write { realm.add(Person(value: ["id": 10])) }
        #expect(realm.objects(Person.self).count == 11)
    }

    @Test func writesSurviveReopening() throws {
        let configuration = directory.configuration()
        do {
            let realm = try Realm(configuration: configuration)
            try realm.write {
                for id in 0..<500 { realm.add(Person(value: ["id": id, "name": "p\(id)"])) }
            }
        }
        #expect(!Internals.isOpen(configuration))
        let realm = try Realm(configuration: configuration)
        #expect(realm.objects(Person.self).count == 500)
        #expect(realm.object(ofType: Person.self, forPrimaryKey: 499)?.name == "p499")
    }

    /// Rows read and rewritten in key order go through a kept cursor; deletes and inserts in
    /// between move pages under it. Every row must come out as a plain model says.
    @Test func rewritingRowsInKeyOrderAmongDeletesAndInsertsKeepsEveryRow() throws {
        let realm = try directory.realm()
        var model: [Int: (age: Int, pictureSize: Int)] = [:]
        try realm.write {
            for id in 0..<3_000 {
                realm.add(Person(value: ["id": id, "name": "p\(id)", "age": id, "picture": Data(count: id % 50)]))
                model[id] = (id, id % 50)
            }
        }
        try realm.write {
            for id in 0..<3_000 {
                guard let person = realm.object(ofType: Person.self, forPrimaryKey: id) else { continue }
                person.age = (person.age ?? 0) + 1                 // a fixed-width rewrite
                model[id]!.age += 1
                if id % 7 == 0 {
                    person.picture = Data(count: 300 + id % 90)    // the row changes size
                    model[id]!.pictureSize = 300 + id % 90
                }
                if id % 11 == 0, let next = realm.object(ofType: Person.self, forPrimaryKey: id + 1) {
                    realm.delete(next)
                    model[id + 1] = nil
                }
                if id % 13 == 0 {
                    realm.add(Person(value: ["id": 10_000 + id, "name": "n\(id)", "age": -id, "picture": Data(count: 5)]))
                    model[10_000 + id] = (-id, 5)
                }
            }
        }
        #expect(realm.objects(Person.self).count == model.count)
        for person in realm.objects(Person.self) {
            let expected = model[person.id]
            #expect(person.age == expected?.age, "age of \(person.id)")
            #expect(person.picture?.count == expected?.pictureSize, "picture of \(person.id)")
        }
    }
}

@Suite struct RowCacheTests {
    @Test func aRowChangedByAnyWritePathIsReadAgain() throws {
        let directory = TestDirectory()
        let realm = try directory.realm()
        let dog = Dog(value: ["name": "Rex", "age": 1])
        try realm.write { realm.add(dog) }
        realm.beginWrite()
        #expect(dog.age == 1)  // the row is now cached
        // A write straight through the transaction, past every Burrow setter.
        try realm.internals.overwriteRow(of: dog, setting: "age", to: .int(7))
        #expect(dog.age == 7)
        realm.cancelWrite()
        #expect(dog.age == 1)
    }
}

@Suite struct CatalogDraftTests {
    @Test func aClassAddedByAWriteIsPublishedOnlyAtCommit() throws {
        let directory = TestDirectory()
        let realm = try directory.realm()
        let configuration = directory.configuration()
        let published = { realm.internals.publishedTable("Dog") != nil }
        realm.beginWrite()
        realm.add(Dog(value: ["name": "Rex"]))
        // The writer sees its own class; the catalog every other realm reads does not have it.
        #expect(realm.objects(Dog.self).count == 1 && realm.fileSchema["Dog"] != nil)
        #expect(!published())
        onAnotherThread {
            let other = try! Realm(configuration: configuration)
            #expect(other.fileSchema["Dog"] == nil && other.objects(Dog.self).isEmpty)
        }
        realm.cancelWrite()
        #expect(!published() && realm.fileSchema["Dog"] == nil && realm.objects(Dog.self).isEmpty)
        try realm.write { realm.add(Dog(value: ["name": "Max"])) }
        #expect(published())
        onAnotherThread {
            let other = try! Realm(configuration: configuration)
            #expect(other.objects(Dog.self).map(\.name) == ["Max"])
        }
    }

    @Test func theBacklinkIndexAddedByACancelledWriteIsForgotten() throws {
        let directory = TestDirectory()
        let realm = try directory.realm()
        realm.beginWrite()
        realm.add(Puppy(value: ["name": "Rex", "owner": Owner(value: ["id": 1])]))
        #expect(realm.internals.publishedLinks == nil)
        realm.cancelWrite()
        #expect(realm.internals.publishedLinks == nil)
        try realm.write { realm.add(Puppy(value: ["name": "Max", "owner": Owner(value: ["id": 2])])) }
        #expect(realm.internals.publishedLinks != nil)
        try realm.write { realm.delete(realm.object(ofType: Owner.self, forPrimaryKey: 2)!) }
        #expect(realm.objects(Puppy.self).first?.owner == nil)
    }
}
