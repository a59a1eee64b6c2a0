import Foundation

/// The schema version stored in the file at `fileURL`, under RealmSwift's name for
/// ``Realm/schemaVersion(at:encryptionKey:)``: no migration runs and no schema is checked.
///
/// ```swift
/// if try schemaVersionAtURL(url) < 3 { print("an older file") }
/// ```
/// - Parameter encryptionKey: the file's key, for an encrypted file.
/// - Throws: ``Realm/Error``: `fileNotFound`, `invalidDatabase` (not a Burrow file, or a wrong,
///   missing or unexpected key).
public func schemaVersionAtURL(_ fileURL: URL, encryptionKey: Data? = nil) throws -> UInt64 {
    try Realm.schemaVersion(at: fileURL, encryptionKey: encryptionKey)
}
