import Burrow
import Foundation

final class Dog: Object {
    @Persisted var name = ""
    @Persisted var age = 0
}

enum Mood: String, PersistableEnum { case calm, excited }
enum Level: Int, PersistableEnum { case low = 1, high = 9 }

final class Person: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted(indexed: true) var name = ""
    @Persisted var birthdate = Date(timeIntervalSince1970: 1)
    @Persisted var picture: Data?
    @Persisted var nickname: String?
    @Persisted var age: Int?
    @Persisted var mood: Mood = .calm
    var scratch = 0
    var fullName: String { "\(name)!" }
}

/// Every stored scalar type, required and optional.
final class AllTypes: Object {
    @Persisted var bool = false
    @Persisted var int = 0
    @Persisted var int8: Int8 = 0
    @Persisted var int16: Int16 = 0
    @Persisted var int32: Int32 = 0
    @Persisted var int64: Int64 = 0
    @Persisted var float: Float = 0
    @Persisted var double = 0.0
    @Persisted var string = ""
    @Persisted var data = Data()
    @Persisted var date = Date(timeIntervalSince1970: 0)
    @Persisted var uuid = UUID(uuidString: "00000000-0000-0000-0000-000000000000")!
    @Persisted var objectId = ObjectId()
    @Persisted var decimal = Decimal(0)
    @Persisted var mood = Mood.calm
    @Persisted var level = Level.low
    @Persisted var optBool: Bool?
    @Persisted var optInt: Int?
    @Persisted var optInt8: Int8?
    @Persisted var optInt16: Int16?
    @Persisted var optInt32: Int32?
    @Persisted var optInt64: Int64?
    @Persisted var optFloat: Float?
    @Persisted var optDouble: Double?
    @Persisted var optString: String?
    @Persisted var optData: Data?
    @Persisted var optDate: Date?
    @Persisted var optUUID: UUID?
    @Persisted var optObjectId: ObjectId?
    @Persisted var optDecimal: Decimal?
    @Persisted var optMood: Mood?
}

final class StringKeyed: Object {
    @Persisted(primaryKey: true) var key = ""
    @Persisted var value = 0
}

final class UUIDKeyed: Object {
    @Persisted(primaryKey: true) var key = UUID()
    @Persisted var value = 0
}

final class ObjectIdKeyed: Object {
    @Persisted(primaryKey: true) var key = ObjectId.generate()
    @Persisted var value = 0
}

/// The most common Realm model: a primary key declared without a value.
final class Note: Object {
    @Persisted(primaryKey: true) var _id: ObjectId
    @Persisted var text = ""
}

final class OptionalIntKeyed: Object {
    @Persisted(primaryKey: true) var key: Int?
    @Persisted var value = 0
}

final class Indexed: Object {
    @Persisted(indexed: true) var tag = ""
    @Persisted(indexed: true) var rank = 0
    @Persisted(indexed: true) var when: Date?
    @Persisted var note = ""
}

/// Two versions of one model, stored under the same name "Pet".
enum V1 {
    final class Pet: Object {
        @Persisted var name = ""
    }
}

enum V2 {
    final class Pet: Object {
        @Persisted var name = ""
        @Persisted var legs = 4
    }
}

/// A subclass: inherited persisted properties come first.
class Animal: Object {
    @Persisted var species = ""
}

final class Cat: Animal {
    @Persisted var lives = 9
}

/// Linked models: owners with partners (a cycle is possible), and dogs with owners.
final class Owner: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var partner: Owner?
    @Persisted(originProperty: "owner") var puppies: LinkingObjects<Puppy>
}

final class Puppy: Object {
    @Persisted var name = ""
    @Persisted var age = 0
    @Persisted var owner: Owner?
    @Persisted(originProperty: "dogs") var kennels: LinkingObjects<Kennel>
}

/// Lists of objects and of values.
final class Kennel: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var dogs: List<Puppy>
    @Persisted var tags: List<String>
    @Persisted var scores: List<Int?>
}

/// Embedded objects, to-one and in a list.
final class Address: EmbeddedObject {
    @Persisted var street = ""
    @Persisted var city = ""
    @Persisted var geo: Geo?
}

final class Geo: EmbeddedObject {
    @Persisted var latitude = 0.0
}

final class Contact: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var address: Address?
    @Persisted var previous: List<Address>
}

/// Sets of objects and of values.
final class Club: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var members: MutableSet<Owner>
    @Persisted var languages: MutableSet<String>
}

/// Maps of values and of objects.
final class Ledger: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var scores: Map<String, Int>
    @Persisted var pets: Map<String, Puppy?>
}

/// A mixed value.
final class Setting: Object {
    @Persisted(primaryKey: true) var name = ""
    @Persisted var value: AnyRealmValue
}

final class Trail: Object {
    @Persisted var name = ""
    @Persisted var stops: List<Geo>
}

/// A list of objects that hold mixed values, for subqueries into them.
final class Shelf: Object {
    @Persisted var settings: List<Setting>
}

final class Bag: Object {
    @Persisted var items: List<AnyRealmValue>
    @Persisted var tags: MutableSet<AnyRealmValue>
    @Persisted var slots: Map<String, AnyRealmValue>
}

/// Objects that link to their own class, for long key paths and nested subqueries.
final class Friend: Object {
    @Persisted var name = ""
    @Persisted var score = Decimal(0)
    @Persisted var best: Friend?
    @Persisted var friends: List<Friend>
}

/// Decimals of both kinds, in every shape a property takes.
final class Ledger128: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var amount: Decimal128
    @Persisted var fee: Decimal128?
    @Persisted var history: List<Decimal128>
    @Persisted var distinctAmounts: MutableSet<Decimal128>
    @Persisted var byMonth: Map<String, Decimal128?>
    @Persisted var foundation = Decimal(0)
}

/// A type of one's own stored as an integer.
struct Cents: CustomPersistable, Hashable, Comparable {
    typealias PersistedType = Int
    var amount: Int
    init(_ amount: Int) { self.amount = amount }
    init(persistedValue: Int) { amount = persistedValue }
    var persistableValue: Int { amount }
    static func < (lhs: Cents, rhs: Cents) -> Bool { lhs.amount < rhs.amount }
}

/// A key of one's own stored as a string.
struct SKU: CustomPersistable, Hashable {
    typealias PersistedType = String
    var code: String
    init(persistedValue: String) { code = persistedValue }
    var persistableValue: String { code }
}

/// Foundation's URL, stored as its text; not every text is a URL.
extension URL: FailableCustomPersistable {
    public typealias PersistedType = String
    public init?(persistedValue: String) { self.init(string: persistedValue) }
    public var persistableValue: String { absoluteString }
}

final class Product: Object {
    @Persisted(primaryKey: true) var sku: SKU
    @Persisted(indexed: true) var price: Cents
    @Persisted var discount: Cents?
    @Persisted var page = URL(string: "https://example.com")!
    @Persisted var mirror: URL?
    @Persisted var priceHistory: List<Cents>
    @Persisted var sizes: MutableSet<Cents>
    @Persisted var regional: Map<String, Cents?>
}

/// A required property of a type whose default cannot be built (`URL(string: "")` is `nil`):
/// declaring it is fine, and so is making an object; reading or storing the value before one is
/// assigned traps.
final class Bookmark: Object {
    @Persisted var page: URL
    @Persisted var title = ""
}

/// The stored form of ``Grade``.
final class GradeRecord: EmbeddedObject {
    @Persisted var points = 0
}

/// A value of one's own stored as an embedded object.
struct Grade: CustomPersistable, Hashable {
    typealias PersistedType = GradeRecord
    var points: Int
    init(points: Int) { self.points = points }
    init(persistedValue: GradeRecord) { points = persistedValue.points }
    var persistableValue: GradeRecord { GradeRecord(value: [points]) }
}

final class ReportCard: Object {
    @Persisted var final: Grade
    @Persisted var midterm: Grade?
    @Persisted var quizzes: List<Grade>
    @Persisted var bySubject: Map<String, Grade>
    @Persisted var retakes: Map<String, Grade?>
}

// Models that encode and decode, as a RealmSwift model opts in.
extension Kennel: Codable {}
extension Puppy: Codable {}
extension Owner: Codable {}
extension Ledger: Codable {}
extension Setting: Codable {}
extension Bag: Codable {}
extension Friend: Codable {}
extension Contact: Codable {}
extension Address: Codable {}
extension Geo: Codable {}
extension AllTypes: Codable {}

/// Enums alone, optional and in collections.
final class Moods: Object {
    @Persisted var current = Mood.calm
    @Persisted var previous: Mood?
    @Persisted var history: List<Level>
}

/// Boxed properties, as RealmSwift's older models declare them.
final class Reading: Object {
    @Persisted(primaryKey: true) var id = 0
    let raw = RealmProperty<AnyRealmValue>()
    let celsius = RealmProperty<Double?>()
    let humidity = RealmOptional<Int>()
}
extension Reading: Codable {}

/// A model that names its primary key, indexes, ignored properties and column names in class
/// methods, as older RealmSwift models do.
final class Station: Object {
    @Persisted var code = ""
    @Persisted var name = ""
    @Persisted var scratch = 0
    @Persisted var riders: List<Int>

    override class func primaryKey() -> String? { "code" }
    override class func indexedProperties() -> [String] { ["name"] }
    override class func ignoredProperties() -> [String] { ["scratch"] }
    override class func propertiesMapping() -> [String: String] { ["name": "station_name", "riders": "daily_riders"] }
}

/// Properties declared without values: they take RealmSwift's defaults.
final class Stamp: Object {
    @Persisted var at: Date
    @Persisted var id: UUID
    @Persisted(originProperty: "owner") var puppies: LinkingObjects<Puppy>
    @Persisted var note = ""
}

/// An object whose parent holds collections of every kind, for queries through a to-one link
/// into lists, sets, maps and linking objects.
final class Tagged: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var parent: TagHolder?
}

final class TagHolder: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var tags: List<String>
    @Persisted var labels: MutableSet<String>
    @Persisted var attrs: Map<String, Int>
    @Persisted(originProperty: "parent") var tagged: LinkingObjects<Tagged>
}

/// The damage campaign's classes: integer, string and UUID primary keys, indexed strings,
/// links, lists of values and of objects, and maps.
final class CampaignOwner: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted(indexed: true) var name = ""
    @Persisted var tags: List<String>
    @Persisted var scores: Map<String, Int>
    @Persisted var pet: CampaignPet?
}

final class CampaignPet: Object {
    @Persisted(primaryKey: true) var code = ""
    @Persisted(indexed: true) var name = ""
    @Persisted var age = 0
    @Persisted var friends: List<CampaignPet>
}

final class CampaignVisit: Object {
    @Persisted(primaryKey: true) var id = UUID()
    @Persisted var owner: CampaignOwner?
    @Persisted var pets: List<CampaignPet>
    @Persisted var notes: Map<String, String>
    @Persisted var at = Date(timeIntervalSince1970: 0)
}
