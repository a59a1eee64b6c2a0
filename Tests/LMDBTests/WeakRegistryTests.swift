import LMDB
import Testing

@Suite struct WeakRegistryTests {
    final class Thing {
        let name: String
        init(_ name: String) { self.name = name }
    }

    struct Refused: Error {}

    @Test func oneObjectPerKeyWhileItLives() {
        let registry = WeakRegistry<String, Thing>()
        var made = 0
        do {
            let first = registry.object(for: "a") { made += 1; return ("a", Thing("first")) }
            let again = registry.object(for: "a") { made += 1; return ("a", Thing("second")) }
            #expect(again === first)
            #expect(made == 1)
            #expect(registry.contains("a") && registry.count == 1)
        }
        // Released and forgotten, as an object's deinit does: the next open makes a new one.
        registry.remove("a") {}
        #expect(!registry.contains("a"))
        let next = registry.object(for: "a") { made += 1; return ("a", Thing("third")) }
        #expect(next.name == "third" && made == 2)
    }

    @Test func anObjectMadeWithoutAKeyIsFoundByTheKeyItReturns() {
        let registry = WeakRegistry<String, Thing>()
        let made = registry.object(for: nil) { ("b", Thing("new file")) }
        #expect(registry.object(for: "b") { ("b", Thing("other")) } === made)
    }

    @Test func aFailedMakeRegistersNothing() {
        let registry = WeakRegistry<String, Thing>()
        #expect(throws: Refused.self) { try registry.object(for: "c") { () throws(Refused) in throw Refused() } }
        #expect(!registry.contains("c"))
        #expect(registry.count == 0)
    }
}
