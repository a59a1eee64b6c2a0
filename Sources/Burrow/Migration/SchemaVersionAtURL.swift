import Foundation

/// The schema version stored in the file at `fileURL`, under RealmSwift's name for
/// ``Realm/schemaVersion(at:encryptionKey:)``: no migration runs and no schema is checked.
///
/// ```swift
/// if try schemaVersionAtURL(url) < 3 { print("an older file") }
/// ```
/// - Parameter encryptionKey: the file's key, for an encrypted file.
/// - Throws: ``Realm/Error``: `invalidDatabase` (no file there, as RealmSwift says: "has not
///   been initialized"; not a Burrow file; a wrong, missing or unexpected key), `fileAccess`
///   (a folder or a device, not a file).
public func schemaVersionAtURL(_ fileURL: URL, encryptionKey: Data? = nil) throws -> UInt64 {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: fileURL.path, isDirectory: &isFolder) else {
        throw Realm.Error(.invalidDatabase, "Realm at path '\(fileURL.path)' has not been initialized.", fileURL: fileURL)
    }
    let attributes = try? FileManager.default.attributesOfItem(atPath: fileURL.path)
    guard !isFolder.boolValue, attributes?[.type] as? FileAttributeType == .typeRegular else {
        throw Realm.Error(.fileAccess, "Unable to open a realm at path '\(fileURL.path)': not a regular file.", fileURL: fileURL)
    }
    return try Realm.schemaVersion(at: fileURL, encryptionKey: encryptionKey)
}
