/// The digests (``ServerSchema/keyDigest(_:)``) of the primary keys of the objects a file
/// holds, class by class: which object, if any, a change the change log shows without its key
/// (``ServerStore/HiddenChange``) concerns.
///
/// A class's digests are read from the file the first time such a change of it arrives, then
/// kept up to date with each object that arrives from the server or uploads to it (an object
/// made here is on the server only once uploaded). An entry of an object gone since names
/// nothing.
struct HeldKeyDigests {
    private var primaryKeys: [String: [String: JSONValue]] = [:]

    /// Records that the file holds the object `primaryKey` (wire form) of `className`.
    mutating func note(_ className: String, _ primaryKey: JSONValue) {
        guard primaryKeys[className] != nil else { return }
        primaryKeys[className]![ServerSchema.keyDigest(primaryKey)] = primaryKey
    }

    /// The primary key (wire form) of the object of `className` whose key's digest is `digest`,
    /// when the file may hold it; `keys` reads every key of the class from the file, once.
    mutating func primaryKey(of className: String, digest: String, keys: (String) throws -> [JSONValue]) rethrows -> JSONValue? {
        if primaryKeys[className] == nil {
            let held = try keys(className)
            primaryKeys[className] = Dictionary(held.map { (ServerSchema.keyDigest($0), $0) }, uniquingKeysWith: { first, _ in first })
        }
        return primaryKeys[className]![digest]
    }
}
