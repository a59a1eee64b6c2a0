/// A failure storage met in what it was given: damage in bytes read from the file (a length,
/// offset, count or value that no write of Burrow's produces), or a key that cannot open it.
///
/// Nothing read from a file is trusted. Paths that can throw report both as
/// ``Realm/Error/Code/invalidDatabase``; reads behind non-throwing API (a property getter)
/// trap with the same message, never returning a made-up value.
struct StorageError: Error, CustomStringConvertible {
    /// What kind of failure it is.
    enum Kind {
        /// Bytes of the file no write of Burrow's produces.
        case damaged
        /// An encryption key that cannot be one (its length).
        case invalidKey
    }

    let kind: Kind
    let description: String

    /// Damage described by `what` ("row of object 7 of 'Dog' is 3 bytes long").
    static func damaged(_ what: String) -> StorageError {
        StorageError(kind: .damaged, description: "The file is damaged: \(what).")
    }

    /// A key refused for the reason `message` gives.
    static func invalidKey(_ message: String) -> StorageError {
        StorageError(kind: .invalidKey, description: message)
    }

    /// Stops a non-throwing read that met damage.
    static func trap(_ error: StorageError) -> Never {
        burrowPreconditionFailure(error.description)
    }
}
