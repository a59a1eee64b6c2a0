import Foundation
import LMDB

extension LocalReplica {
    /// The classes whose objects the file downloaded; `nil` when the file never recorded them.
    func heldClasses() throws -> Set<String>? {
        let bytes = try read { journal, txn in try journal?.value(.held, in: txn) }
        guard let bytes else { return nil }
        guard let names = (try? JSONValue(parsing: String(decoding: bytes, as: UTF8.self)))?.arrayValue?.compactMap(\.stringValue) else {
            throw StorageError.damaged("the sync record of the classes held does not read")
        }
        return Set(names)
    }

    /// Records `classes` as those whose objects the file downloaded.
    func setHeldClasses(_ classes: Set<String>) throws {
        try journaledWrite { journal, txn in
            try journal.set(.held, to: Array(JSONValue.array(classes.sorted().map(JSONValue.string)).text.utf8), in: txn)
        }
    }

    /// Removes the objects of `classes` from the file, in a write that is not uploaded, but
    /// for those with changes still to upload: no longer subscribed to, they are not the
    /// file's to keep.
    func removeObjects(of classes: Set<String>) throws {
        try journaledWrite { journal, txn in
            for className in classes.sorted() {
                guard let layout = realm.core.catalog.layouts[className], let column = layout.primaryKeyColumn,
                      realm.schema[className] != nil else { continue }
                let property = layout.storedClass.properties[column]
                var removed: [DynamicObject] = []
                for object in realm.dynamicObjects(className) {
                    guard let key = object[property.name] ?? Optional(NSNull()) else { continue }
                    let storedKey = StoredValueConversion.scalar(key, for: property, of: className)
                    guard try journal.pendingObject(classID: layout.classID, primaryKey: storedKey, in: txn) == nil else { continue }
                    try journal.removeShadows(classID: layout.classID, primaryKey: storedKey, in: txn)
                    removed.append(object)
                }
                for object in removed { realm.delete(object) }
            }
        }
    }
}
