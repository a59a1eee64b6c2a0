/// An object that lives inside another: it has no primary key, cannot be added or queried on
/// its own, and is deleted with its owner.
///
/// ```swift
/// final class Address: EmbeddedObject {
///     @Persisted var street = ""
///     @Persisted var city = ""
/// }
/// final class Contact: Object {
///     @Persisted var address: Address?          // to-one
///     @Persisted var previous: List<Address>    // to-many
/// }
/// try realm.write { contact.address = Address(value: ["street": "Main St"]) }
/// ```
///
/// Assigning a new embedded object to a property deletes the one it replaces; removing one from
/// a list deletes it. An embedded object has exactly one owner: giving it a second traps.
open class EmbeddedObject: Object {
    /// Creates an unmanaged embedded object with the declared defaults.
    public required init() {
        super.init()
    }
}
