/// Damage found in bytes read from the file: a length, offset, count or value that no write of
/// Burrow's produces.
///
/// Nothing read from a file is trusted. Paths that can throw report damage as
/// ``Realm/Error/Code/invalidDatabase``; reads behind non-throwing API (a property getter)
/// trap with the same message, never returning a made-up value.
struct StorageError: Error, CustomStringConvertible {
    let description: String

    /// Damage described by `what` ("row of object 7 of 'Dog' is 3 bytes long").
    static func damaged(_ what: String) -> StorageError {
        StorageError(description: "The file is damaged: \(what).")
    }

    /// Stops a non-throwing read that met damage.
    static func trap(_ error: StorageError) -> Never {
        preconditionFailure(error.description)
    }
}
