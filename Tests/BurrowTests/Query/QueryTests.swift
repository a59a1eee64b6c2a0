import Burrow
import Foundation
import Testing

@Suite struct QueryTests {
    let directory = TestDirectory()

    private func seeded() throws -> Realm {
        let realm = try directory.realm()
        try realm.write {
            for (index, name) in ["Rex", "rover", "Fido", "Äpfel", "Bella"].enumerated() {
                realm.add(Person(value: ["id": index, "name": name, "age": index < 3 ? index * 10 : nil,
                                         "birthdate": Date(timeIntervalSince1970: Double(index) * 1000),
                                         "mood": index % 2 == 0 ? "calm" : "excited"]))
            }
        }
        return realm
    }

    private func ids(_ results: Results<Person>) -> [Int] { results.map(\.id) }

    @Test func comparesNumbers() throws {
        let people = try seeded().objects(Person.self)
        #expect(ids(people.filter("id < 2")) == [0, 1])
        #expect(ids(people.filter("id <= 2")) == [0, 1, 2])
        #expect(ids(people.filter("id > 3")) == [4])
        #expect(ids(people.filter("id >= 3")) == [3, 4])
        #expect(ids(people.filter("id == 2")) == [2])
        #expect(ids(people.filter("id = 2")) == [2])
        #expect(ids(people.filter("id != 2")) == [0, 1, 3, 4])
        #expect(ids(people.filter("id <> 2")) == [0, 1, 3, 4])
        #expect(ids(people.filter("id < 1.5")) == [0, 1])
        #expect(ids(people.filter("2 > id")) == [0, 1])
        #expect(ids(people.filter("id > -1")) == [0, 1, 2, 3, 4])
    }

    @Test func handlesNil() throws {
        let people = try seeded().objects(Person.self)
        #expect(ids(people.filter("age == nil")) == [3, 4])
        #expect(ids(people.filter("age != NULL")) == [0, 1, 2])
        #expect(ids(people.filter("age > 5")) == [1, 2])
        #expect(ids(people.filter("age != 10")) == [0, 2, 3, 4])
        #expect(ids(people.filter("nickname == nil")).count == 5)
    }

    @Test func comparesStrings() throws {
        let people = try seeded().objects(Person.self)
        #expect(ids(people.filter("name == 'Rex'")) == [0])
        #expect(ids(people.filter("name == \"rover\"")) == [1])
        #expect(ids(people.filter("name BEGINSWITH 'R'")) == [0])
        #expect(ids(people.filter("name BEGINSWITH[c] 'r'")) == [0, 1])
        #expect(ids(people.filter("name ENDSWITH 'o'")) == [2])
        #expect(ids(people.filter("name CONTAINS 'el'")) == [3, 4])
        #expect(ids(people.filter("name CONTAINS[c] 'E'")) == [0, 1, 3, 4])
        #expect(ids(people.filter("name BEGINSWITH[cd] 'a'")) == [3])
        #expect(ids(people.filter("name < 'C'")) == [4])
        #expect(ids(people.filter("name == %@", "Fido")) == [2])
        #expect(ids(people.filter("name == 'it\\'s'")).isEmpty)
    }

    @Test func combinesWithAndOrNot() throws {
        let people = try seeded().objects(Person.self)
        #expect(ids(people.filter("id > 0 AND id < 3")) == [1, 2])
        #expect(ids(people.filter("id == 0 || id == 4")) == [0, 4])
        #expect(ids(people.filter("NOT id == 0")) == [1, 2, 3, 4])
        #expect(ids(people.filter("!(id < 3) && (name == 'Bella' OR name == 'Rex')")) == [4])
        #expect(ids(people.filter("id > 0 and id < 3 or id == 4")) == [1, 2, 4])
        #expect(ids(people.filter("id > 0").filter("id < 2")) == [1])
    }

    @Test func bindsArgumentsOfEveryKind() throws {
        let people = try seeded().objects(Person.self)
        #expect(ids(people.filter("id == %@ OR name == %@", 3, "Rex")) == [0, 3])
        #expect(ids(people.filter("%K == %@", "name", "Bella")) == [4])
        #expect(ids(people.filter("birthdate > %@", Date(timeIntervalSince1970: 2500))) == [3, 4])
        #expect(ids(people.filter("mood == %@", Mood.excited)) == [1, 3])
        #expect(ids(people.filter("age == %@", Optional<Int>.none as Any)) == [3, 4])
        #expect(ids(people.filter("id == %1@", 5, 2)) == [2])
        // NSPredicate's printf-style placeholders take one argument each.
        #expect(ids(people.filter("id == %d OR id == %ld", 1, Int64(4))) == [1, 4])
        #expect(ids(people.filter("id == %lld AND name != %@", 2, "x")) == [2])
        // An AnyRealmValue argument is compared as the value it holds.
        #expect(ids(people.filter("name == %@ OR id == %@", AnyRealmValue.string("Rex"), AnyRealmValue.int(3))) == [0, 3])
    }

    @Test func comparesTwoProperties() throws {
        let realm = try directory.realm()
        try realm.write {
            realm.add(AllTypes(value: ["int": 5, "double": 5.0, "optInt": 4]))
            realm.add(AllTypes(value: ["int": 1, "double": 2.5, "optInt": 1]))
        }
        let all = realm.objects(AllTypes.self)
        #expect(all.filter("int == double").count == 1)
        #expect(all.filter("int < double").count == 1)
        #expect(all.filter("optInt == int").count == 1)
    }

    @Test func filtersEveryScalarKind() throws {
        let realm = try directory.realm()
        let uuid = UUID(), objectId = ObjectId.generate()
        try realm.write {
            realm.add(AllTypes(value: ["bool": true, "uuid": uuid, "objectId": objectId, "float": 1.5, "decimal": 2,
                                       "data": Data([1, 2, 3]), "int8": -3, "optString": "x"]))
            realm.add(AllTypes())
        }
        let all = realm.objects(AllTypes.self)
        #expect(all.filter("bool == true").count == 1)
        #expect(all.filter("bool == false").count == 1)
        #expect(all.filter("uuid == %@", uuid).count == 1)
        #expect(all.filter("objectId == %@", objectId).count == 1)
        #expect(all.filter("float > 1").count == 1)
        #expect(all.filter("decimal >= 2").count == 1)
        #expect(all.filter("data == %@", Data([1, 2, 3])).count == 1)
        #expect(all.filter("int8 < 0").count == 1)
        #expect(all.filter("optString == nil").count == 1)
        #expect(all.filter("optString BEGINSWITH 'x'").count == 1)
    }

    @Test func reportsMistakesWithPositionAndReason() throws {
        let realm = try directory.realm()
        func message(_ query: String, _ args: Any...) -> String {
            do {
                let predicate = try QueryPredicate(format: query, argumentArray: args)
                try realm.objects(Dog.self).validate(predicate)
                return "no error"
            } catch let error as Realm.Error {
                #expect(error.code == .invalidQuery)
                return error.message
            } catch {
                return "unexpected \(error)"
            }
        }
        #expect(message("agee < 2").contains("unknown property 'agee' on Dog; did you mean 'age'?"))
        #expect(message("age BEGINSWITH 'a'").contains("'BEGINSWITH' needs a string, 'age' is Int"))
        #expect(message("age < 'x'").contains("'age' is Int, it cannot be compared with 'x'"))
        #expect(message("age <").contains("position 5"))
        #expect(message("age < 2 AND").contains("end of query"))
        #expect(message("(age < 2").contains("expected ')'"))
        #expect(message("name == 'open").contains("unterminated string"))
        #expect(message("age < %@").contains("missing argument"))
        #expect(message("age # 2").contains("unexpected character '#'"))
        #expect(message("name ==[x] 'a'").contains("'c', 'd' or 'cd'"))
        #expect(message("age < 2") == "no error")
    }
}
