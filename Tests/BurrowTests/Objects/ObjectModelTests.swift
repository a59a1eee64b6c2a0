import Burrow
import Foundation
import Testing

@Suite struct ObjectModelTests {
    let directory = TestDirectory()

    @Test func discoversPersistedPropertiesInDeclarationOrder() {
        let schema = Person().objectSchema
        #expect(schema.className == "Person")
        #expect(schema.properties.map(\.name) == ["id", "name", "birthdate", "picture", "nickname", "age", "mood"])
        #expect(schema.primaryKeyProperty?.name == "id")
        #expect(schema["id"]?.isPrimary == true)
        #expect(schema["name"]?.isIndexed == true)
        #expect(schema["name"]?.type == .string)
        #expect(schema["picture"]?.type == .data)
        #expect(schema["picture"]?.isOptional == true)
        #expect(schema["age"]?.type == .int)
        #expect(schema["mood"]?.type == .string)
        #expect(schema["scratch"] == nil)
        #expect(schema["fullName"] == nil)
        #expect(schema.objectClass == Person.self)
    }

    @Test func aClassNoModelDeclaresIsADynamicObjectsClass() throws {
        let realm = try Realm(configuration: directory.configuration(objectTypes: [Person.self]))
        #expect(realm.schema["Person"]?.objectClass == Person.self)
        #expect(ObjectSchema(className: "NoModelDeclaresThis", properties: []).objectClass == DynamicObject.self)
    }

    @Test func mapsEveryScalarTypeToItsPropertyType() {
        let schema = AllTypes().objectSchema
        let expected: [String: PropertyType] = [
            "bool": .bool, "int": .int, "int8": .int, "int16": .int, "int32": .int, "int64": .int,
            "float": .float, "double": .double, "string": .string, "data": .data, "date": .date,
            "uuid": .UUID, "objectId": .objectId, "decimal": .decimal128, "mood": .string, "level": .int,
        ]
        for (name, type) in expected {
            #expect(schema[name]?.type == type, "\(name)")
            #expect(schema[name]?.isOptional == false, "\(name)")
            let optionalName = "opt" + name.prefix(1).uppercased() + name.dropFirst()
            if let optional = schema[optionalName] {
                #expect(optional.type == type && optional.isOptional, "\(optionalName)")
            }
        }
        #expect(schema["optUUID"]?.type == .UUID)
        #expect(schema.properties.count == 31)
    }

    @Test func storesClassesUnderTheirUnqualifiedName() {
        #expect(V1.Pet.className() == "Pet")
        #expect(V2.Pet().objectSchema.className == "Pet")
    }

    @Test func inheritedPropertiesComeFirst() {
        #expect(Cat().objectSchema.properties.map(\.name) == ["species", "lives"])
    }

    @Test func unmanagedObjectsKeepDefaultsAndValues() {
        let person = Person()
        #expect(person.id == 0 && person.name == "" && person.nickname == nil && person.mood == .calm)
        #expect(person.birthdate == Date(timeIntervalSince1970: 1))
        person.nickname = "JJ"
        person.mood = .excited
        #expect(person.nickname == "JJ" && person.mood == .excited)
        #expect(person.realm == nil)
        #expect(!person.isInvalidated)
    }

    @Test func initialisesFromADictionary() {
        let person = Person(value: ["id": 7, "name": "Ann", "nickname": "A", "mood": "excited", "age": Optional<Int>.none as Any])
        #expect(person.id == 7 && person.name == "Ann" && person.nickname == "A" && person.mood == .excited)
        #expect(person.age == nil)
    }

    @Test func initialisesFromAnArrayInPropertyOrder() {
        let dog = Dog(value: ["Rex", 3])
        #expect(dog.name == "Rex" && dog.age == 3)
        let partial = Dog(value: ["Fido"])
        #expect(partial.name == "Fido" && partial.age == 0)
    }

    @Test func initialisesFromAnotherObject() {
        let original = Dog(value: ["Rex", 3])
        let copy = Dog(value: original)
        #expect(copy.name == "Rex" && copy.age == 3 && copy !== original)
    }

    @Test func convertsNumericInputToTheDeclaredType() {
        let all = AllTypes(value: ["int8": 5, "float": 1.5, "double": 2, "optInt32": 9, "decimal": "1.25", "level": 9])
        #expect(all.int8 == 5 && all.float == 1.5 && all.double == 2 && all.optInt32 == 9)
        #expect(all.decimal == Decimal(string: "1.25"))
        #expect(all.level == .high)
    }

    @Test func dynamicSubscriptReadsAndWrites() throws {
        let dog = Dog()
        dog["name"] = "Rex"
        dog["age"] = 4
        #expect(dog["name"] as? String == "Rex")
        #expect(dog["age"] as? Int == 4)
        let realm = try directory.realm()
        try realm.write { realm.add(dog) }
        try realm.write { dog["age"] = 5 }
        #expect(dog.age == 5)
        #expect(dog["age"] as? Int == 5)
        let person = Person()
        #expect(person["nickname"] == nil)
    }

    @Test func everyScalarRoundTripsThroughTheRealm() throws {
        let realm = try directory.realm()
        let date = Date(timeIntervalSince1970: 1_234_567_890.123456)
        let uuid = UUID()
        let objectId = ObjectId.generate()
        let all = AllTypes()
        all.bool = true; all.int = .min; all.int8 = -8; all.int16 = .max; all.int32 = -32; all.int64 = .max
        all.float = 3.25; all.double = -.infinity; all.string = "héllo 🐶 \u{0}"; all.data = Data([0, 1, 255])
        all.date = date; all.uuid = uuid; all.objectId = objectId; all.decimal = Decimal(string: "-12345678901234567890.125")!
        all.mood = .excited; all.level = .high
        all.optBool = false; all.optInt = 0; all.optInt8 = 1; all.optInt16 = 2; all.optInt32 = 3; all.optInt64 = 4
        all.optFloat = 0.5; all.optDouble = .nan; all.optString = ""; all.optData = Data(); all.optDate = date
        all.optUUID = uuid; all.optObjectId = objectId; all.optDecimal = 1; all.optMood = .calm
        try realm.write { realm.add(all) }

        let stored = try #require(realm.objects(AllTypes.self).first)
        #expect(stored !== all)
        #expect(stored.bool && stored.int == .min && stored.int8 == -8 && stored.int16 == .max && stored.int32 == -32)
        #expect(stored.int64 == .max && stored.float == 3.25 && stored.double == -.infinity)
        #expect(stored.string == "héllo 🐶 \u{0}" && stored.data == Data([0, 1, 255]))
        #expect(stored.date == date && stored.uuid == uuid && stored.objectId == objectId)
        #expect(stored.decimal == Decimal(string: "-12345678901234567890.125")!)
        #expect(stored.mood == .excited && stored.level == .high)
        #expect(stored.optBool == false && stored.optInt == 0 && stored.optInt8 == 1 && stored.optInt16 == 2)
        #expect(stored.optInt32 == 3 && stored.optInt64 == 4 && stored.optFloat == 0.5 && stored.optDouble!.isNaN)
        #expect(stored.optString == "" && stored.optData == Data() && stored.optDate == date)
        #expect(stored.optUUID == uuid && stored.optObjectId == objectId && stored.optDecimal == 1 && stored.optMood == .calm)

        try realm.write {
            stored.optBool = nil; stored.optInt = nil; stored.optString = nil; stored.optData = nil
            stored.optDate = nil; stored.optUUID = nil; stored.optMood = nil; stored.optDecimal = nil
        }
        #expect(stored.optBool == nil && stored.optInt == nil && stored.optString == nil && stored.optData == nil)
        #expect(stored.optDate == nil && stored.optUUID == nil && stored.optMood == nil && stored.optDecimal == nil)
        #expect(all.optString == nil)
    }

    @Test func hugeValuesRoundTrip() throws {
        let realm = try directory.realm()
        let bigString = String(repeating: "🦫 burrow ", count: 100_000)
        let bigData = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0) })
        try realm.write { realm.create(AllTypes.self, value: ["string": bigString, "data": bigData]) }
        let stored = try #require(realm.objects(AllTypes.self).first)
        #expect(stored.string == bigString)
        #expect(stored.data == bigData)
    }

    @Test func describesItselfAsRealmSwiftDoes() {
        let dog = Dog(value: ["Rex", 3])
        #expect(dog.description == "Dog {\n\tname = Rex;\n\tage = 3;\n}")
        let stamp = Stamp()
        stamp.at = Date(timeIntervalSince1970: 1)
        #expect(stamp.description.contains("\tat = 1970-01-01 00:00:01 +0000;"))
        let bag = Bag()
        bag.items.append(objectsIn: [.none, .bool(true), .data(Data("abcde".utf8))])
        #expect(bag.description.contains("\t[0] (null),\n\t\t[1] 1,\n\t\t[2] <61626364 65>\n"))
    }

    @Test func objectIdParsesAndOrders() throws {
        let id = try ObjectId(string: "6401f0b0c1d2e3f405060708")
        #expect(id.stringValue == "6401f0b0c1d2e3f405060708")
        #expect(id.timestamp == Date(timeIntervalSince1970: 0x6401f0b0))
        expectError(.fail) { try ObjectId(string: "xyz") }
        let first = ObjectId.generate(), second = ObjectId.generate()
        #expect(first != second)
        #expect(first < second || first.timestamp < second.timestamp || first.byteArray[9...] != second.byteArray[9...])
    }
}
