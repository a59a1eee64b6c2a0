/// The index checks of lists and results, with RealmSwift's messages: "Cannot pass a negative
/// value for 'index'." and "Index 3 is out of bounds (must be less than 3)."
enum IndexBounds {
    /// Traps unless `0 <= index < count` (`<= count` when `endAllowed`, for inserting).
    @inline(__always)
    static func check(_ index: Int, count: Int, endAllowed: Bool = false, name: String = "index") {
        if index < 0 || index > count || (index == count && !endAllowed) {
            fail(index, count: count, endAllowed: endAllowed, name: name)
        }
    }

    @inline(never)
    private static func fail(_ index: Int, count: Int, endAllowed: Bool, name: String) -> Never {
        if index < 0 { burrowPreconditionFailure("Cannot pass a negative value for '\(name)'.") }
        burrowPreconditionFailure("Index \(index) is out of bounds (must be less than \(endAllowed ? "or equal to " : "")\(count)).")
    }
}
