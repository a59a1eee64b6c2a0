import Burrow
import Foundation

/// The objects of `burrow demo`, drawn from a seeded generator so that the same count gives
/// the same file contents.
struct DemoData {
    let people: Int
    private var random = SeededRandom(seed: 2026)

    init(people: Int) {
        self.people = people
    }

    private static let firstNames = ["Ana", "Ben", "Chloé", "Dmitri", "Eun-ji", "Farah", "György", "Hana", "Ines", "José", "Kofi",
                                     "Lena", "Mateo", "Nour", "Olu", "Priya", "Quinn", "Rosa", "Søren", "Tomás", "Ümit", "Wei", "Yara", "Zoë"]
    private static let lastNames = ["Abe", "Bauer", "Costa", "Dubois", "Evans", "Fischer", "García", "Hansen", "Ito", "Jensen", "Kim",
                                    "López", "Müller", "Nowak", "O'Brien", "Popescu", "Rossi", "Smith", "Tanaka", "Weiß", "李"]
    private static let dogNames = ["Rex", "Bella", "Max", "Luna", "Fido", "Kira", "Otto", "Momo", "Pip", "Nala", "Bruno", "Coco"]
    private static let breeds = ["beagle", "collie", "dachshund", "husky", "poodle", "shiba inu", "whippet"]
    private static let cities = ["Berlin", "Lisbon", "Montréal", "Nairobi", "Osaka", "São Paulo", "Tallinn"]

    /// Writes the objects in one transaction; returns how many of each.
    mutating func write(into realm: Realm) throws -> (people: Int, dogs: Int, visits: Int) {
        var dogCount = 0, visitCount = 0
        let epoch = Date(timeIntervalSince1970: 0)
        try realm.write {
            var persons: [Person] = []
            persons.reserveCapacity(people)
            for id in 0..<people {
                let person = Person()
                person.id = id
                person.name = "\(pick(Self.firstNames)) \(pick(Self.lastNames))"
                person.email = random.next(below: 5) == 0 ? nil : "person\(id)@example.com"
                person.born = epoch.addingTimeInterval(Double(random.next(below: 1_500_000_000)) + 0.25)
                person.height = random.next(below: 4) == 0 ? nil : 1.5 + Double(random.next(below: 50)) / 100
                let cents = random.next(below: 1_000_000)
                person.balance = Decimal128(stringLiteral: String(format: "%d.%02d", cents / 100, cents % 100))
                person.token = UUID(uuid: random.uuidBytes())
                person.photo = random.next(below: 10) == 0 ? Data((0..<16).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ id) }) : nil
                person.address = Address(value: ["street": "\(random.next(below: 200) + 1) Main Street", "city": pick(Self.cities),
                                                     "postcode": random.next(below: 3) == 0 ? nil : String(10_000 + id)])
                person.nicknames.insert(objectsIn: Array(["Ace", "Bee", "Cap", "Dot"].prefix(random.next(below: 3))))
                person.scores["chess"] = random.next(below: 2800)
                if id % 2 == 0 { person.scores["go"] = random.next(below: 30) }
                for _ in 0..<(id % 2 == 0 ? 1 : 2) {
                    let dog = Dog()
                    dog.id = try ObjectId(string: String(format: "%024x", dogCount + 1))
                    dog.name = pick(Self.dogNames)
                    dog.breed = random.next(below: 6) == 0 ? nil : pick(Self.breeds)
                    dog.age = random.next(below: 16)
                    dog.weight = Float(random.next(below: 400)) / 10 + 2
                    dog.vaccinated = random.next(below: 5) != 0
                    dog.tags.append(objectsIn: ["friendly", "loud", "shy", "fast"].filter { _ in random.next(below: 3) == 0 })
                    dog.extra = [AnyRealmValue.none, .int(dogCount), .string("spots"), .bool(true)][dogCount % 4]
                    person.dogs.append(dog)
                    if dogCount % 2 == 0 {
                        realm.add(Visit(value: ["dog": dog, "at": epoch.addingTimeInterval(1_700_000_000 + Double(dogCount) * 3600),
                                                    "note": dogCount % 4 == 0 ? "check-up" : "vaccination, \"booster\""]))
                        visitCount += 1
                    }
                    dogCount += 1
                }
                persons.append(person)
                realm.add(person)
            }
            for (index, person) in persons.enumerated() where index % 3 != 2 {
                person.bestFriend = persons[random.next(below: persons.count)]
            }
        }
        return (people, dogCount, visitCount)
    }

    private mutating func pick(_ names: [String]) -> String {
        names[random.next(below: names.count)]
    }
}

/// SplitMix64: a small generator whose sequence depends only on its seed.
struct SeededRandom {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`.
    mutating func next(below bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    mutating func uuidBytes() -> uuid_t {
        let high = next(), low = next()
        return withUnsafeBytes(of: (high, low)) { $0.load(as: uuid_t.self) }
    }
}
