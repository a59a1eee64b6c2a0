import Burrow
import Foundation

/// What the `#Predicate` form of the indexed-equality step costs before Burrow sees it:
/// Foundation building the step's 10,000 `Predicate` values (`#Predicate { $0.name == name }`
/// captures `name` and builds its expression tree on every call) and releasing them. The form
/// cannot cost less than the string form plus this, whatever its translation does.
enum PredicateFloor {
    /// The best time of `rounds` runs of building (and dropping) the step's predicates.
    static func measure(rounds: Int) -> Double {
        var best = Double.infinity
        for _ in 0..<max(rounds, 1) {
            let (seconds, built) = Stopwatch.measure {
                var built = 0
                for query in 0..<Workload.indexQueries {
                    let name = Workload.queryName(query)
                    let predicate = #Predicate<Item> { $0.name == name }
                    // Kept until here and read, so that the build is not optimised away.
                    built += withExtendedLifetime(predicate) { name.utf8.count > 0 ? 1 : 0 }
                }
                return built
            }
            precondition(built == Workload.indexQueries, "The predicate floor built \(built) predicates.")
            best = min(best, seconds)
        }
        return best
    }

    /// A line saying what the floor is beside the two forms' times of the step.
    static func summary(floor: Double, string: Double?, predicate: Double?) -> String {
        guard let string, let predicate, string > 0 else { return "#Predicate floor: \(String(format: "%.4f", floor)) s" }
        let translation = predicate - string - floor
        return String(format: "Indexed equality with #Predicate: Foundation's own building of the %d predicates takes %.4f s "
                      + "(%.2fx of the string form's step on its own), so the form cannot go below %.2fx; Burrow's translation "
                      + "and binding beyond the string form's parse cost %.4f s (%.2fx).",
                      Workload.indexQueries, floor, floor / string, (string + floor) / string, translation, translation / string)
    }
}
