@_spi(Reflection) import Swift
import Burrow
import Foundation
import Testing

/// What property access relies on beyond Swift's documented behaviour (see `FieldOffsetCache`):
/// if a toolchain changes any of it, these fail before any object reads a wrong field.
@Suite struct ReflectionContractTests {
    private func persistedFieldNames(of type: AnyClass) -> [String] {
        var names: [String] = []
        _ = _forEachField(of: type, options: _EachFieldOptions(rawValue: 1 << 0)) { name, _, fieldType, _ in
            if Internals.isPersistedField(fieldType) { names.append(String(cString: name)) }
            return true
        }
        return names
    }

    @Test func forEachFieldNamesWrappersByTheirStorageAndPutsSuperclassesFirst() {
        #expect(persistedFieldNames(of: Dog.self) == ["_name", "_age"])
        #expect(persistedFieldNames(of: Cat.self) == ["_species", "_lives"])
        #expect(Internals.fieldNames(of: Cat.self) == ["species", "lives"])
    }

    @Test func reportedOffsetsAreWhereTheValuesAre() {
        // Values set through the public properties are read back through the offsets alone.
        let cat = Cat()
        cat.species = "tabby"
        cat.lives = 7
        #expect(Internals.unmanagedValue(of: "species", in: cat) == .string("tabby"))
        #expect(Internals.unmanagedValue(of: "lives", in: cat) == .int(7))
        let all = AllTypes()
        all.int16 = -3
        all.string = "é🐶"
        all.optDouble = 2.5
        #expect(Internals.unmanagedValue(of: "int16", in: all) == .int(-3))
        #expect(Internals.unmanagedValue(of: "string", in: all) == .string("é🐶"))
        #expect(Internals.unmanagedValue(of: "optDouble", in: all) == .double(2.5))
    }

    @Test func aKeyPathLiteralIsOneObjectForTheProcess() {
        // Swift instantiates a non-generic key path once per literal and keeps it: the offset
        // cache names wrappers by these addresses.
        let addresses = (0..<3).map { _ in ObjectIdentifier(\Cat.lives as AnyKeyPath) }
        #expect(Set(addresses).count == 1)
    }

    @Test func anImmortalObjectIgnoresRetainsAndReleases() {
        final class Counted {}
        let mortal = Counted()
        let immortal = Counted()
        Internals.immortalize(immortal)
        let mortalBefore = _getRetainCount(mortal)
        let immortalBefore = _getRetainCount(immortal)
        _ = Unmanaged.passUnretained(mortal).retain()
        _ = Unmanaged.passUnretained(immortal).retain()
        #expect(_getRetainCount(mortal) == mortalBefore + 1)
        #expect(_getRetainCount(immortal) == immortalBefore)
        Unmanaged.passUnretained(mortal).release()
        Unmanaged.passUnretained(immortal).release()
        Unmanaged.passUnretained(immortal).release()
        #expect(_getRetainCount(mortal) == mortalBefore)
        #expect(_getRetainCount(immortal) == immortalBefore)
    }

    @Test func propertiesReadTheirOwnFieldsOnEveryModel() throws {
        let directory = TestDirectory()
        let realm = try directory.realm()
        let cat = Cat()
        cat.species = "tabby"
        cat.lives = 3
        try realm.write { realm.add(cat) }
        // Managed reads go through the learnt offsets (checked against the projection in debug).
        #expect(cat.species == "tabby" && cat.lives == 3)
        try realm.write { cat.lives = 8 }
        #expect(realm.objects(Cat.self).first?.lives == 8)
    }
}
