import Burrow
import Foundation
import Testing

/// `burrow set` and `burrow delete`: the objects that match change in one transaction, only
/// with `--yes` when nobody can be asked, and a value that does not fit changes nothing.
@Suite(.enabled(if: BuildDirectory.product("burrow") != nil, "the burrow tool was not built beside the tests (run swift build --build-tests)"),
       .plainFilesOnly("the tool is run without BURROW_ENCRYPTION_KEY"))
struct ChangeToolTests {
    let directory = TestDirectory()

    private func demo() throws -> String {
        let path = directory.file("demo.realm").path
        #expect(try BurrowToolRun(["demo", path, "--people", "40"]).status == 0)
        return path
    }

    /// The file as it is now: a realm this thread still holds reads an older version until
    /// it refreshes.
    private func open(_ path: String) throws -> Realm {
        let realm = try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: path), readOnly: true, objectTypes: []))
        realm.refresh()
        return realm
    }

    @Test func setChangesEveryMatchInOneTransaction() throws {
        let path = try demo()
        let young = try open(path).dynamicObjects("Dog").filter("age < 3").count
        #expect(young > 0)
        let run = try BurrowToolRun(["set", path, "Dog", "age < 3", "name=Pup ✓", "tags=[\"small\"]", "breed=null", "--yes"])
        #expect(run.status == 0 && run.output.hasSuffix("changed \(young) Dog \(young == 1 ? "object" : "objects")\n"), "\(run.errors)")
        let dogs = try open(path).dynamicObjects("Dog").filter("age < 3")
        #expect(dogs.allSatisfy { $0["name"] as? String == "Pup ✓" && $0["breed"] == nil && ($0["tags"] as? List<String>).map(Array.init) == ["small"] })

        let linked = try BurrowToolRun(["set", path, "Person", "id == 1", "bestFriend=7", "address={\"street\":\"Elm\",\"city\":\"Oslo\"}", "--yes"])
        #expect(linked.status == 0, "\(linked.errors)")
        let person = try #require(try open(path).dynamicObject(ofType: "Person", forPrimaryKey: 1))
        #expect((person["bestFriend"] as? DynamicObject)?["id"] as? Int == 7 && (person["address"] as? DynamicObject)?["city"] as? String == "Oslo")
        #expect(try BurrowToolRun(["verify", path]).status == 0)
    }

    @Test func nothingChangesWithoutYesOrWithAValueThatDoesNotFit() throws {
        let path = try demo()
        let before = try BurrowToolRun(["export", path]).output
        let cases: [([String], String)] = [
            (["set", path, "Dog", "age < 3", "name=X"], "standard input is not a terminal to ask; give --yes"),
            (["delete", path, "Dog", "age < 3"], "standard input is not a terminal to ask; give --yes"),
            (["set", path, "Dog", "age < 3", "age=old", "--yes"], "age: expected a whole number, found \"old\""),
            (["set", path, "Dog", "age < 3", "colour=red", "--yes"], "Dog has no property 'colour'"),
            (["set", path, "Dog", "TRUEPREDICATE", "id=000000000000000000000001", "--yes"], "id is Dog's primary key, which cannot change"),
            (["set", path, "Person", "id == 1", "bestFriend=99999", "--yes"], "no Person has primary key 99999"),
            (["set", path, "Dog", "age <", "name=X", "--yes"], "Invalid query"),
            (["delete", path, "Address", "TRUEPREDICATE", "--yes"], "Address is embedded"),
        ]
        for (arguments, message) in cases {
            let run = try BurrowToolRun(arguments)
            #expect(run.status == 2 && run.errors.contains(message), "\(arguments): \(run.status) \(run.errors)")
        }
        #expect(try BurrowToolRun(["export", path]).output == before)
    }

    @Test func deleteRemovesTheMatchesAndClearsLinksToThem() throws {
        let path = try demo()
        let none = try BurrowToolRun(["delete", path, "Dog", "age > 100", "--yes"])
        #expect(none.status == 0 && none.output == "no Dog matches; nothing to delete\n")
        let old = try open(path).dynamicObjects("Dog").filter("age >= 10").count
        let run = try BurrowToolRun(["delete", path, "Dog", "age >= 10", "--yes"])
        #expect(run.status == 0 && run.output.hasSuffix("deleted \(old) Dog \(old == 1 ? "object" : "objects")\n"), "\(run.errors)")
        let realm = try open(path)
        #expect(realm.dynamicObjects("Dog").filter("age >= 10").isEmpty && realm.dynamicObjects("Dog").count == 60 - old)
        #expect(try BurrowToolRun(["verify", path]).status == 0)
    }
}
