/// A problem storage found in the file or in what it was asked to store.
///
/// Nothing read from a file is trusted: bytes that no write of Burrow's produces are
/// ``Kind/damaged``. Paths that can throw report damage as ``Realm/Error/Code/invalidDatabase``;
/// reads behind non-throwing API (a property getter) trap with the same message, never
/// returning a made-up value.
struct StorageError: Error, CustomStringConvertible {
    enum Kind {
        /// A length, offset, count or value that no write produces.
        case damaged
        /// A value the format cannot store.
        case unsupported
    }

    let kind: Kind
    let description: String

    /// Damage described by `what` ("row of object 7 of 'Dog' is 3 bytes long").
    static func damaged(_ what: String) -> StorageError {
        StorageError(kind: .damaged, description: "The file is damaged: \(what).")
    }

    /// A value the format cannot store, with the whole message.
    static func unsupported(_ message: String) -> StorageError {
        StorageError(kind: .unsupported, description: message)
    }

    /// Stops a non-throwing read that met damage.
    static func trap(_ error: StorageError) -> Never {
        preconditionFailure(error.description)
    }
}
