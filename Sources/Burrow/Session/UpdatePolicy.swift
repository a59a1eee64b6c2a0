/// What `add` and `create` do when an object with the same primary key exists.
public enum UpdatePolicy: Int, Sendable {
    /// Trap: adding a duplicate primary key is a programmer error.
    case error = 1
    /// Overwrite every property of the existing object.
    case all = 2
    /// Overwrite the properties whose values differ.
    case modified = 3
}
