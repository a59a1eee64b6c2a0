import Burrow
import Foundation
import Testing

@Suite struct ReadTests {
    let directory = TestDirectory()

    @Test func resultsAreLiveAndLazy() throws {
        let realm = try directory.realm()
        let puppies = realm.objects(Dog.self).filter("age < 2")
        #expect(puppies.count == 0)
        try realm.write { realm.add(Dog(value: ["Rex", 1])) }
        #expect(puppies.count == 1)
        try realm.write { realm.add(Dog(value: ["Old", 9])) }
        #expect(puppies.count == 1)
        #expect(realm.objects(Dog.self).count == 2)
    }

    @Test func resultsAreARandomAccessCollection() throws {
        let realm = try directory.realm()
        let dogs = realm.objects(Dog.self)
        #expect(dogs.isEmpty && dogs.first == nil && dogs.last == nil)
        try realm.write { for age in 0..<10 { realm.add(Dog(value: ["d\(age)", age])) } }
        #expect(dogs.first?.name == "d0")
        #expect(dogs.last?.name == "d9")
        #expect(dogs[3].age == 3)
        #expect(dogs.map(\.age) == Array(0..<10))
        #expect(Array(dogs[2..<5]).map(\.age) == [2, 3, 4])
        #expect(dogs.reversed().first?.age == 9)
        let filtered = dogs.filter("age >= 5")
        #expect(filtered.first?.age == 5 && filtered.last?.age == 9 && filtered.count == 5)
        #expect(dogs.realm == realm)
    }

    @Test func twoAccessorsOfOneObjectSeeEachOthersWrites() throws {
        let realm = try directory.realm()
        try realm.write { realm.add(Person(value: ["id": 1, "name": "Ann"])) }
        let a = try #require(realm.object(ofType: Person.self, forPrimaryKey: 1))
        let b = try #require(realm.objects(Person.self).first)
        #expect(a !== b)
        #expect(a.isSameObject(as: b))
        try realm.write { a.name = "Anne" }
        #expect(b.name == "Anne")
        try realm.write { b.nickname = "A" }
        #expect(a.nickname == "A")
        #expect(!a.isSameObject(as: Person()))
    }

    @Test func otherThreadsSeeCommitsOnlyAfterRefresh() throws {
        let configuration = directory.configuration()
        let realm = try Realm(configuration: configuration)
        try realm.write { realm.add(Dog(value: ["Rex", 1])) }
        let dogs = realm.objects(Dog.self)
        let rex = try #require(dogs.first)
        #expect(dogs.count == 1)
        onAnotherThread {
            let background = try! Realm(configuration: configuration)
            let theDog = background.objects(Dog.self).filter("age == 1").first!
            try! background.write {
                theDog.age = 3
                background.add(Dog(value: ["Fido", 5]))
            }
        }
        #expect(rex.age == 1)
        #expect(dogs.count == 1)
        #expect(realm.refresh())
        #expect(rex.age == 3)
        #expect(dogs.count == 2)
        #expect(!realm.refresh())
    }

    @Test func aWriteStartsFromTheLatestVersion() throws {
        let configuration = directory.configuration()
        let realm = try Realm(configuration: configuration)
        try realm.write { realm.add(Person(value: ["id": 1])) }
        onAnotherThread {
            let background = try! Realm(configuration: configuration)
            try! background.write { background.add(Person(value: ["id": 2])) }
        }
        #expect(realm.objects(Person.self).count == 1)
        realm.beginWrite()
        #expect(realm.objects(Person.self).count == 2)
        realm.cancelWrite()
    }

    @Test func unicodeAndEmptyStringsAreKeptByteForByte() throws {
        let realm = try directory.realm()
        let names = ["", "é", "e\u{301}", "🐕‍🦺", "日本語", "a\u{0}b"]
        try realm.write { for name in names { realm.add(Dog(value: [name, 0])) } }
        #expect(realm.objects(Dog.self).map(\.name) == names)
        #expect(realm.objects(Dog.self).filter("name == %@", "é").count == 1)
        #expect(realm.objects(Dog.self).filter("name == ''").count == 1)
    }

    @Test func concurrentWritersFromManyThreadsAllLand() throws {
        let configuration = directory.configuration()
        let group = DispatchGroup()
        for thread in 0..<4 {
            group.enter()
            Thread {
                do {
                    let realm = try! Realm(configuration: configuration)
                    for index in 0..<50 {
                        try! realm.write { realm.add(Person(value: ["id": thread * 1000 + index])) }
                    }
                }
                group.leave()
            }.start()
        }
        group.wait()
        let realm = try Realm(configuration: configuration)
        #expect(realm.objects(Person.self).count == 200)
    }

    @Test func countOfAWholeClassReadsTheHeader() throws {
        let realm = try directory.realm()
        try realm.write { for id in 0..<1000 { realm.add(Person(value: ["id": id])) } }
        let people = realm.objects(Person.self)
        #expect(people.count == 1000)
        #expect(people.filter("TRUEPREDICATE").count == 1000)
        #expect(people.filter("FALSEPREDICATE").isEmpty)
    }
}
