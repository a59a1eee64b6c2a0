import Burrow
import Foundation

// The classes of `burrow demo`'s sample file: every kind of property, a link, a list of links,
// a set, a map, an embedded object, backlinks, a mixed value and a class without a primary key.

final class Person: Object {
    @Persisted(primaryKey: true) var id: Int
    @Persisted(indexed: true) var name: String
    @Persisted var email: String?
    @Persisted var born: Date
    @Persisted var height: Double?
    @Persisted var balance: Decimal128
    @Persisted var token: UUID
    @Persisted var photo: Data?
    @Persisted var address: Address?
    @Persisted var dogs: List<Dog>
    @Persisted var bestFriend: Person?
    @Persisted var nicknames: MutableSet<String>
    @Persisted var scores: Map<String, Int>
}

final class Dog: Object {
    @Persisted(primaryKey: true) var id: ObjectId
    @Persisted(indexed: true) var name: String
    @Persisted var breed: String?
    @Persisted var age: Int
    @Persisted var weight: Float
    @Persisted var vaccinated: Bool
    @Persisted var tags: List<String>
    @Persisted var extra: AnyRealmValue
    @Persisted(originProperty: "dogs") var owners: LinkingObjects<Person>
}

final class Address: EmbeddedObject {
    @Persisted var street: String
    @Persisted var city: String
    @Persisted var postcode: String?
}

final class Visit: Object {
    @Persisted var dog: Dog?
    @Persisted var at: Date
    @Persisted var note: String
}
