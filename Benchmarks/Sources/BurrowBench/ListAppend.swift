import Burrow
import Foundation

/// An owner of one list, for the list-append measurement.
final class Shelf: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var items: List<Int>
}

/// Measures what appending one element costs on a list of 100,000 elements against an empty
/// list: the cost should not grow with the list.
enum ListAppend {
    static let longLength = 100_000
    static let appends = 1_000

    /// Seconds per append to a long list and to an empty list (best of `rounds`).
    static func measure(in directory: URL, rounds: Int) throws -> (long: Double, empty: Double) {
        let configuration = Realm.Configuration(fileURL: directory.appendingPathComponent("lists.realm"))
        try Realm.deleteFiles(for: configuration)
        defer { _ = try? Realm.deleteFiles(for: configuration) }
        var best = (long: Double.infinity, empty: Double.infinity)
        do {
            let realm = try Realm(configuration: configuration)
            try realm.write {
                let shelf = Shelf(value: ["id": 0])
                realm.add(shelf)
                for value in 0..<longLength { shelf.items.append(value) }
            }
            let long = realm.object(ofType: Shelf.self, forPrimaryKey: 0)!
            for round in 1...rounds {
                // Each append goes through the property, as user code writes it.
                let longSeconds = try Stopwatch.measure {
                    try realm.write { for value in 0..<appends { long.items.append(value) } }
                }.seconds
                let shelves = try realm.write {
                    (1...appends).map { realm.create(Shelf.self, value: ["id": round * appends + $0]) }
                }
                let emptySeconds = try Stopwatch.measure {
                    try realm.write { for (value, shelf) in shelves.enumerated() { shelf.items.append(value) } }
                }.seconds
                best = (min(best.long, longSeconds / Double(appends)), min(best.empty, emptySeconds / Double(appends)))
            }
        }
        return best
    }
}
