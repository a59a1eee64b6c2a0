import Burrow
import Foundation
import Testing

/// README's relationships example, compiled and run as written there (with class names of its
/// own, since classes are known by their unqualified names).
@Suite struct ReadmeSnippetTests {
    final class ReadmeDog: Object {
        @Persisted var name = ""
        @Persisted var owner: ReadmePerson?
    }
    final class ReadmePerson: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var dogs: List<ReadmeDog>
        @Persisted var languages: MutableSet<String>
        @Persisted var favorites: Map<String, ReadmeDog?>
        @Persisted var profile: AnyRealmValue
        @Persisted var address: ReadmeAddress?
        @Persisted(originProperty: "owner") var pets: LinkingObjects<ReadmeDog>
    }
    final class ReadmeAddress: EmbeddedObject { @Persisted var city = "" }

    @Test func theRelationshipsExampleRuns() throws {
        let directory = TestDirectory()
        let realm = try Realm(configuration: directory.configuration(objectTypes: [ReadmeDog.self, ReadmePerson.self, ReadmeAddress.self]))
        let person = ReadmePerson(value: ["id": 1, "favorites": ["walks": ["name": "Rex"]], "address": ["city": "Oslo"]])
        try realm.write { realm.add(person) }
        try realm.write {
            person.dogs.append(ReadmeDog(value: ["name": "Rex"]))
            person.dogs.append(ReadmeDog(value: ["name": "Roo", "owner": person]))
            person.profile = .fromDictionary(["tags": .fromArray([.string("new")])])
            person.profile.dictionaryValue?["tags"]?.listValue?.append(.string("active"))
        }
        #expect(person.profile.dictionaryValue?["tags"]?.listValue.map(Array.init) == [.string("new"), .string("active")])
        #expect(person.dogs.filter("name BEGINSWITH 'R'").sorted(byKeyPath: "name").map(\.name) == ["Rex", "Roo"])
        #expect(person.favorites.where { $0.name.starts(with: "R") }.map { $0?.name } == ["Rex"])
        #expect(realm.objects(ReadmePerson.self).filter("ANY dogs.name == 'Rex' AND dogs.@count > 1").count == 1)
        #expect(realm.objects(ReadmePerson.self).where { $0.dogs.name.starts(with: "R").count >= 2 && $0.favorites["walks"].name == "Rex" }.count == 1)
        #expect(realm.objects(ReadmeDog.self).filter("owner.address.city == 'Oslo'").map(\.name) == ["Roo"])
        #expect(person.pets.map(\.name) == ["Roo"])
    }
}
