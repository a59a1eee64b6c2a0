import LMDB

/// To-one links: reading a link's target, and setting a link (adding an unmanaged target). The
/// backlink index that keeps links whole is the ``TableWriter``'s.
extension RealmCore {
    /// A managed accessor for the object at `key`, whose row may already be known.
    func makeObject(_ bound: BoundClass, key: ObjectKey, row: UnsafeRawBufferPointer? = nil) -> ObjectBase {
        let object = bound.info.type.init()
        object.becomeManaged(by: self, bound: bound, key: key)
        // The generation the object was made in, row or not: a row that cannot be found in
        // the same generation was never deleted, the file is damaged.
        object.cachedRow = row
        object.cachedRowGeneration = generation
        return object
    }

    /// The object an `AnyRealmValue` links to, by class id and key: an accessor of its model
    /// class, or a ``DynamicObject`` when this process has no model class of that name.
    func mixedLinkTarget(classID: UInt32, key: ObjectKey) -> Object? {
        guard let layout = catalog.layouts.values.first(where: { $0.classID == classID }) else { return nil }
        guard let type = ClassInfo.type(named: layout.className) else { return dynamicObject(key, of: layout.className) }
        return linkTarget(key, of: type) as? Object
    }

    /// An accessor for the object `key` of class `type`, or `nil` when it does not exist.
    func linkTarget(_ key: ObjectKey, of type: ObjectBase.Type) -> ObjectBase? {
        bound(info(type)).flatMap { existingObject(key, in: $0) }
    }

    /// The target of a link read from the file, described by `link` ("'Dog.owner' of object 7").
    ///
    /// Deleting an object clears every link to it, so a link to no object is damage: it is
    /// reported as such, naming the file, the link and the object it names, never read as `nil`.
    func storedLinkTarget(_ key: ObjectKey, of type: ObjectBase.Type, describing link: @autoclosure () -> String) -> ObjectBase {
        guard let object = linkTarget(key, of: type) else {
            burrowPreconditionFailure("The file is damaged: \(link()) links to object \(key.rawValue) of '\(ClassInfo.storedName(of: type))', "
                                      + "which cannot be found in '\(coordinator.path)'.")
        }
        return object
    }

    /// An accessor for the object `key` of `bound`'s class, or `nil` when it does not exist.
    func existingObject(_ key: ObjectKey, in bound: BoundClass) -> ObjectBase? {
        let row: UnsafeRawBufferPointer?
        do {
            row = try bound.layout.row(key, in: transaction)
        } catch {
            burrowPreconditionFailure("Cannot read '\(coordinator.path)': \(error)")
        }
        return row.map { makeObject(bound, key: key, row: $0) }
    }

    /// Points the link in `column` of `object` at `target` (adding it when unmanaged) or clears it.
    func setLink(_ target: ObjectBase?, on object: ObjectBase, column: Int) {
        verifyThread()
        guard let write = writeState, let management = object.management else {
            refuseModificationOutsideWrite(of: object)
        }
        var value = _PersistedValue.null
        if let target, let held = target.management, held.realm === self, held.bound.layout.isEmbedded,
           RowReader(object.currentRow()).value(column, kind: .link) == .link(held.key.rawValue) {
            return  // the embedded object the link holds already, set again: no change, as in RealmSwift
        }
        if let target {
            guard perform(in: write, {
                value = .link(try managedKey(of: target, update: write.nestedUpdatePolicy, in: write).rawValue)
            }) else { return }
        }
        update(object, key: management.key, layout: management.bound.layout, column: column, to: value)
    }
}
