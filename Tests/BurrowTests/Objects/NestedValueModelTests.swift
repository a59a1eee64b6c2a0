import Burrow
import Foundation
import Testing

/// Random values and random edits of nested `AnyRealmValue` collections, checked against plain
/// Swift arrays and dictionaries doing the same.
@Suite struct NestedValueModelTests {
    let directory = TestDirectory()

    /// A small deterministic generator, so that a failure repeats.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    private static let keys = ["a", "b", "é", "e\u{301}", "日本", "", "long key \(String(repeating: "x", count: 40))"]

    private static func scalar(_ random: inout Generator) -> AnyRealmValue {
        switch random.next(7) {
        case 0: .none
        case 1: .int(random.next(1000) - 500)
        case 2: .bool(random.next(2) == 0)
        case 3: .double(Double(random.next(1000)) / 8)
        case 4: .string(keys[random.next(keys.count)])
        case 5: .data(Data(repeating: UInt8(random.next(256)), count: random.next(20)))
        default: .date(Date(timeIntervalSinceReferenceDate: Double(random.next(100_000))))
        }
    }

    private static func value(_ random: inout Generator, depth: Int) -> AnyRealmValue {
        guard depth < 4 else { return scalar(&random) }
        switch random.next(4) {
        case 0: return .fromArray((0..<random.next(5)).map { _ in value(&random, depth: depth + 1) })
        case 1:
            var entries: [String: AnyRealmValue] = [:]
            for _ in 0..<random.next(5) { entries[keys[random.next(keys.count)]] = value(&random, depth: depth + 1) }
            return .fromDictionary(entries)
        default: return scalar(&random)
        }
    }

    @Test func randomValuesRoundTrip() throws {
        let realm = try directory.realm()
        var random = Generator(state: 7)
        let values = (0..<300).map { _ in Self.value(&random, depth: 0) }
        try realm.write {
            for (index, value) in values.enumerated() { realm.add(Setting(value: ["name": "s\(index)", "value": value])) }
        }
        for (index, value) in values.enumerated() {
            #expect(realm.object(ofType: Setting.self, forPrimaryKey: "s\(index)")?.value == value, "value \(index)")
        }
    }

    @Test func randomEditsOfANestedListMatchAnArray() throws {
        let realm = try directory.realm()
        let setting = Setting(value: ["name": "s", "value": AnyRealmValue.fromArray([])])
        try realm.write { realm.add(setting) }
        let list = try #require(setting.value.listValue)
        var model: [AnyRealmValue] = []
        var random = Generator(state: 11)
        for step in 0..<250 {
            try realm.write {
                let element = Self.value(&random, depth: 2)
                switch (random.next(6), model.count) {
                case (0, _), (_, 0):
                    list.append(element)
                    model.append(element)
                case (1, let count):
                    let index = random.next(count + 1)
                    list.insert(element, at: index)
                    model.insert(element, at: index)
                case (2, let count):
                    let index = random.next(count)
                    list.remove(at: index)
                    model.remove(at: index)
                case (3, let count):
                    let from = random.next(count), to = random.next(count)
                    list.move(from: from, to: to)
                    model.insert(model.remove(at: from), at: to)
                case (4, let count):
                    let first = random.next(count), second = random.next(count)
                    list.swapAt(first, second)
                    model.swapAt(first, second)
                case (_, let count):
                    let index = random.next(count)
                    list[index] = element
                    model[index] = element
                }
            }
            #expect(Array(list) == model, "after step \(step)")
        }
    }

    @Test func randomEditsOfANestedDictionaryMatchADictionary() throws {
        let realm = try directory.realm()
        let setting = Setting(value: ["name": "s", "value": AnyRealmValue.fromDictionary([:])])
        try realm.write { realm.add(setting) }
        let map = try #require(setting.value.dictionaryValue)
        var model: [[UInt8]: (key: String, value: AnyRealmValue)] = [:]  // by key bytes, as stored
        var random = Generator(state: 13)
        for step in 0..<300 {
            let key = Self.keys[random.next(Self.keys.count)]
            try realm.write {
                if random.next(4) == 0 {
                    map.removeObject(for: key)
                    model[Array(key.utf8)] = nil
                } else {
                    let element = Self.value(&random, depth: 2)
                    map[key] = element
                    model[Array(key.utf8)] = (key, element)
                }
            }
            let expected = model.keys.sorted { $0.lexicographicallyPrecedes($1) }.map { model[$0]! }
            #expect(map.keys.map { Array($0.utf8) } == expected.map { Array($0.key.utf8) }, "keys after step \(step)")
            #expect(map.values == expected.map(\.value), "values after step \(step)")
        }
    }

    /// `value` after `dog` is deleted: gone from lists, `nil` in dictionaries.
    private static func removing(_ dog: Dog, from value: AnyRealmValue) -> AnyRealmValue? {
        switch value {
        case .object(let object) where object.isSameObject(as: dog): return nil
        case .list(let list): return .fromArray(list.compactMap { removing(dog, from: $0) })
        case .dictionary(let map):
            var entries: [String: AnyRealmValue] = [:]
            for (key, element) in zip(map.keys, map.values) { entries[key] = removing(dog, from: element) ?? AnyRealmValue.none }
            return .fromDictionary(entries)
        default: return value
        }
    }

    @Test func randomEditsAndDeletionsOfAListOfAnyRealmValueMatchAnArray() throws {
        let realm = try directory.realm()
        let bag = Bag()
        var dogs = (0..<6).map { Dog(value: ["name": "dog \($0)"]) }
        try realm.write {
            realm.add(bag)
            for dog in dogs { realm.add(dog) }
        }
        var model: [AnyRealmValue] = []
        var random = Generator(state: 17)
        func element() -> AnyRealmValue {
            // Dictionary keys stay ASCII here: unmanaged maps merge canonically equal keys.
            switch random.next(5) {
            case 0 where !dogs.isEmpty: return .object(dogs[random.next(dogs.count)])
            case 1 where !dogs.isEmpty: return .fromArray([.int(random.next(9)), .object(dogs[random.next(dogs.count)])])
            case 2 where !dogs.isEmpty: return .fromDictionary(["pet": .object(dogs[random.next(dogs.count)]), "n": .int(random.next(9))])
            default: return .int(random.next(100))
            }
        }
        for step in 0..<150 {
            try realm.write {
                switch (random.next(5), model.count) {
                case (0, _) where !dogs.isEmpty && step % 10 == 9:
                    let dog = dogs.remove(at: random.next(dogs.count))
                    model = model.compactMap { Self.removing(dog, from: $0) }
                    realm.delete(dog)
                case (1, let count) where count > 0:
                    let index = random.next(count)
                    bag.items.remove(at: index)
                    model.remove(at: index)
                case (2, let count) where count > 0:
                    let index = random.next(count), value = element()
                    bag.items[index] = value
                    model[index] = value
                default:
                    let index = random.next(model.count + 1), value = element()
                    bag.items.insert(value, at: index)
                    model.insert(value, at: index)
                }
            }
            #expect(Array(bag.items) == model, "after step \(step)")
        }
        // Every remaining link is whole: deleting the rest of the dogs empties the nested values.
        try realm.write { for dog in dogs { realm.delete(dog) } }
        for dog in dogs { model = model.compactMap { Self.removing(dog, from: $0) } }
        #expect(Array(bag.items) == model)
        #expect(realm.objects(Dog.self).isEmpty)
    }

    /// One step of a path into a nested value: an index of a list, or a key of a dictionary.
    enum PathStep {
        case index(Int)
        case key(String)
    }

    /// What `steps` reach in `value`, as a query reads it: `nil` where a step does not fit.
    private static func member(of value: AnyRealmValue, along steps: [PathStep]) -> AnyRealmValue? {
        var value = value
        for step in steps {
            switch (step, value) {
            case (.index(let index), .list(let list)) where index < list.count: value = list[index]
            case (.key(let key), .dictionary(let map)):
                guard let found = zip(map.keys, map.values).first(where: { $0.0.utf8.elementsEqual(key.utf8) }) else { return nil }
                value = found.1
            default: return nil
            }
        }
        return value
    }

    @Test func randomPathQueriesMatchAWalkOfTheValues() throws {
        let realm = try directory.realm()
        var random = Generator(state: 23)
        let values = (0..<120).map { _ in Self.value(&random, depth: 1) }
        try realm.write {
            for (index, value) in values.enumerated() { realm.add(Setting(value: ["name": "\(index)", "value": value])) }
        }
        let settings = realm.objects(Setting.self)
        for _ in 0..<60 {
            var steps: [PathStep] = []
            for _ in 0..<(1 + random.next(3)) {
                steps.append(random.next(2) == 0 ? .index(random.next(3)) : .key(["a", "b", "日本"][random.next(3)]))
            }
            let path = steps.map { step -> String in
                switch step {
                case .index(let index): "[\(index)]"
                case .key(let key): "['\(key)']"
                }
            }.joined()
            let number = random.next(1000) - 500
            let found = settings.filter("value\(path) == nil OR value\(path) < \(number)").map(\.name)
            let expected = values.indices.filter { index in
                guard let held = Self.member(of: values[index], along: steps), held != .none else { return true }
                switch held {
                case .int(let int): return int < number
                case .double(let double): return double < Double(number)
                default: return false
                }
            }.map(String.init)
            #expect(Set(found) == Set(expected), "value\(path) against \(number)")
        }
        for size in 0..<5 {
            let found = settings.filter("value.@size == \(size)").map(\.name)
            let expected = values.indices.filter { index in
                switch values[index] {
                case .list(let list): list.count == size
                case .dictionary(let map): map.count == size
                default: false
                }
            }.map(String.init)
            #expect(Set(found) == Set(expected), "@size == \(size)")
        }
    }

    @Test func randomEditsAndDeletionsOfAMapAndASetOfAnyRealmValueMatchAModel() throws {
        let realm = try directory.realm()
        let bag = Bag()
        var dogs = (0..<5).map { Dog(value: ["name": "dog \($0)"]) }
        try realm.write {
            realm.add(bag)
            for dog in dogs { realm.add(dog) }
        }
        var slots: [String: AnyRealmValue] = [:], tags: [AnyRealmValue] = []
        var random = Generator(state: 29)
        for step in 0..<150 {
            try realm.write {
                let key = ["a", "b", "c", "d"][random.next(4)]
                let value: AnyRealmValue = dogs.isEmpty || random.next(2) == 0 ? .int(random.next(5)) : .object(dogs[random.next(dogs.count)])
                switch random.next(6) {
                case 0 where !dogs.isEmpty && step % 7 == 6:
                    let dog = dogs.remove(at: random.next(dogs.count))
                    slots = slots.mapValues { Self.removing(dog, from: $0) ?? .none }
                    tags.removeAll { $0 == .object(dog) }
                    realm.delete(dog)
                case 1:
                    bag.slots.removeObject(for: key)
                    slots[key] = nil
                case 2:
                    bag.tags.insert(value)
                    if !tags.contains(value) { tags.append(value) }
                case 3:
                    bag.tags.remove(value)
                    tags.removeAll { $0 == value }
                default:
                    bag.slots[key] = .fromArray([value, .int(1)])
                    slots[key] = .fromArray([value, .int(1)])
                }
            }
            #expect(bag.slots.keys == slots.keys.sorted(), "keys after step \(step)")
            for (key, value) in slots { #expect(bag.slots[key] == value, "slot \(key) after step \(step)") }
            #expect(bag.tags.count == tags.count && tags.allSatisfy { bag.tags.contains($0) }, "tags after step \(step)")
        }
    }
}
