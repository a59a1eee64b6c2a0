import LMDB

extension Realm {
    /// The objects of class `className` in the order of their object keys (for a class whose
    /// primary key is an integer, the order of the keys), from the first whose raw object key
    /// is at least `start`, handed to `body` one at a time as each row is read, until `body`
    /// returns `false`: one seek in the class's rows, then the rows that follow.
    ///
    /// `burrow recover` reads a damaged file this way: a seek past a damaged page of rows never
    /// reads that page, so the objects after it are still found, and every object before it
    /// has been handed over when the damage is met.
    ///
    /// ```swift
    /// try realm.forEachDynamicObject("Item", fromObjectKey: 0) { item in
    ///     print(item)
    ///     return true
    /// }
    /// ```
    ///
    /// - Throws: ``Realm/Error`` for damage LMDB reports while reading (it may also stop the
    ///   process on damage it does not check). Traps for a class the
    ///   file does not have, or an embedded class.
    package func forEachDynamicObject(_ className: String, fromObjectKey start: UInt64, _ body: (DynamicObject) -> Bool) throws {
        core.verifyThread()
        let bound = core.verifiedDynamicBound(named: className)
        burrowPrecondition(!bound.layout.isEmbedded, "Embedded object '\(className)' cannot be queried directly: query its owners instead.")
        do {
            let cursor = try core.transaction.openCursor(bound.layout.rows)
            var entry = try ObjectKey(start).withBytes { try cursor.seek(atLeast: $0) }
            while let (key, row) = entry {
                let object = core.makeObject(bound, key: try ObjectKey(checking: key, in: className), row: row) as? DynamicObject
                if let object, !body(object) { return }
                entry = try cursor.next()
            }
        } catch {
            throw Realm.Error(translating: error, path: core.coordinator.path, operation: .read)
        }
    }
}

extension DynamicObject {
    /// The object's raw object key: what ``Realm/forEachDynamicObject(_:fromObjectKey:_:)``
    /// starts from. Traps for an object that is not managed.
    package var rawObjectKey: UInt64 {
        guard let management else { burrowPreconditionFailure(TrapMessage.objectInvalidated) }
        return management.key.rawValue
    }
}
