@testable import Burrow
import Foundation
import Testing

/// Values over the inline key length share a key when their prefix and 64-bit hash agree. These
/// two strings do (found by a collision search on FNV-1a): every lookup through such a key
/// must tell them apart by the stored value.
@Suite struct LongKeyCollisionTests {
    static let first = String(repeating: "k", count: 200) + "ullX1avLiZC"
    static let second = String(repeating: "k", count: 200) + "Vgq399RD8ME"

    @Test func theTwoValuesReallyShareAKey() {
        #expect(Self.first != Self.second)
        #expect(IndexKeyEncoder.key(for: .string(Self.first)) == IndexKeyEncoder.key(for: .string(Self.second)))
    }

    /// A realm holding one object under each of the two keys, with values 1 and 2.
    private func realmWithBothKeys(_ directory: TestDirectory) throws -> Realm {
        let realm = try directory.realm()
        try realm.write {
            realm.add(StringKeyed(value: ["key": Self.first, "value": 1]))
            realm.add(StringKeyed(value: ["key": Self.second, "value": 2]))
        }
        return realm
    }

    @Test func collidingPrimaryKeysAreTwoObjects() throws {
        let directory = TestDirectory()
        let realm = try realmWithBothKeys(directory)
        #expect(realm.objects(StringKeyed.self).count == 2)
        #expect(realm.object(ofType: StringKeyed.self, forPrimaryKey: Self.first)?.value == 1)
        #expect(realm.object(ofType: StringKeyed.self, forPrimaryKey: Self.second)?.value == 2)
        #expect(realm.objects(StringKeyed.self).filter("key == %@", Self.second).map(\.value) == [2])
        #expect(realm.objects(StringKeyed.self).filter("key IN %@", [Self.first, Self.second]).map(\.value).sorted() == [1, 2])
    }

    @Test func anUpsertOfOneLeavesTheOtherAlone() throws {
        let directory = TestDirectory()
        let realm = try directory.realm()
        try realm.write {
            realm.add(StringKeyed(value: ["key": Self.first, "value": 1]))
            realm.add(StringKeyed(value: ["key": Self.second, "value": 2]), update: .all)
            realm.add(StringKeyed(value: ["key": Self.second, "value": 3]), update: .modified)
        }
        #expect(realm.object(ofType: StringKeyed.self, forPrimaryKey: Self.first)?.value == 1)
        #expect(realm.object(ofType: StringKeyed.self, forPrimaryKey: Self.second)?.value == 3)
        #expect(realm.objects(StringKeyed.self).count == 2)
    }

    @Test func deletingOneKeepsTheOtherFindable() throws {
        let directory = TestDirectory()
        let realm = try realmWithBothKeys(directory)
        try realm.write { realm.delete(realm.object(ofType: StringKeyed.self, forPrimaryKey: Self.first)!) }
        #expect(realm.object(ofType: StringKeyed.self, forPrimaryKey: Self.first) == nil)
        #expect(realm.object(ofType: StringKeyed.self, forPrimaryKey: Self.second)?.value == 2)
        // The freed key can be taken again, and another thread's realm finds both.
        try realm.write { realm.add(StringKeyed(value: ["key": Self.first, "value": 4])) }
        #expect(realm.object(ofType: StringKeyed.self, forPrimaryKey: Self.first)?.value == 4)
        let configuration = directory.configuration()
        onAnotherThread {
            let other = try! Realm(configuration: configuration)
            #expect(other.object(ofType: StringKeyed.self, forPrimaryKey: LongKeyCollisionTests.first)?.value == 4)
            #expect(other.object(ofType: StringKeyed.self, forPrimaryKey: LongKeyCollisionTests.second)?.value == 2)
        }
    }

    @Test func aDuplicateOfALongKeyIsStillRefused() throws {
        let directory = TestDirectory()
        let realm = try directory.realm()
        let error = try #require(throws: Realm.Error.self) {
            try realm.write {
                realm.add(StringKeyed(value: ["key": LongKeyCollisionTests.first]))
                realm.add(StringKeyed(value: ["key": LongKeyCollisionTests.first]))
            }
        }
        #expect(error.code == .primaryKeyExists && error.message.contains("existing primary key value"))
        #expect(realm.isEmpty)
    }

    @Test func collidingSetElementsAreTwoElements() throws {
        let directory = TestDirectory()
        let realm = try directory.realm()
        let club = Club(value: ["id": 1])
        try realm.write {
            realm.add(club)
            club.languages.insert(Self.first)
            club.languages.insert(Self.second)
            club.languages.insert(Self.second)
        }
        #expect(club.languages.count == 2)
        #expect(club.languages.contains(Self.first) && club.languages.contains(Self.second))
        try realm.write { club.languages.remove(Self.first) }
        #expect(Array(club.languages) == [Self.second])
        #expect(!club.languages.contains(Self.first))
        try realm.write { club.languages.insert(Self.first) }
        #expect(Set(club.languages) == [Self.first, Self.second])
    }

    @Test func collidingMapKeysAreTwoEntries() throws {
        let directory = TestDirectory()
        let realm = try directory.realm()
        let ledger = Ledger(value: ["id": 1])
        try realm.write {
            realm.add(ledger)
            ledger.scores[Self.first] = 1
            ledger.scores[Self.second] = 2
        }
        #expect(ledger.scores.count == 2)
        #expect(ledger.scores[Self.first] == 1 && ledger.scores[Self.second] == 2)
        #expect(realm.objects(Ledger.self).filter("scores['\(Self.second)'] == 2").count == 1)
        #expect(realm.objects(Ledger.self).filter("scores['\(Self.first)'] == 2").count == 0)
        try realm.write {
            ledger.scores[Self.second] = 3
            ledger.scores.removeObject(for: Self.first)
        }
        #expect(ledger.scores.count == 1 && ledger.scores[Self.first] == nil && ledger.scores[Self.second] == 3)
        try realm.write { ledger.scores[Self.first] = 4 }
        #expect(Set(ledger.scores.keys) == [Self.first, Self.second])
    }

    @Test func aMapOfObjectsUnderCollidingKeysLosesOnlyTheDeletedOne() throws {
        let directory = TestDirectory()
        let realm = try directory.realm()
        let ledger = Ledger(value: ["id": 1])
        try realm.write {
            realm.add(ledger)
            ledger.pets[Self.first] = Puppy(value: ["name": "Rex"])
            ledger.pets[Self.second] = Puppy(value: ["name": "Max"])
        }
        try realm.write { realm.delete(realm.objects(Puppy.self).filter("name == 'Rex'")) }
        #expect(ledger.pets.count == 2)
        // The deleted one's entry keeps its key with nil; the other still holds its object.
        #expect(ledger.pets.keys.contains(Self.first))
        #expect(ledger.pets[Self.first]?.flatMap { $0 } == nil)
        #expect(ledger.pets[Self.second]??.name == "Max")
    }
}
