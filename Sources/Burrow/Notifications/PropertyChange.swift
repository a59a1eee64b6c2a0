/// One changed property of an observed object.
///
/// ```swift
/// case .change(_, let properties):
///     for property in properties { print(property.name, property.oldValue ?? "nil", property.newValue ?? "nil") }
/// ```
/// Values are read as `object[name]` reads them; for a list, set or map `oldValue` is `nil`
/// and `newValue` is the live collection.
public struct PropertyChange {
    /// The name of the property.
    public let name: String
    /// Its value before the change, when known: `nil` for a change the observing realm made
    /// itself (as in RealmSwift, old values come with other threads' and processes' writes).
    public let oldValue: Any?
    /// Its value after the change.
    public let newValue: Any?
}
