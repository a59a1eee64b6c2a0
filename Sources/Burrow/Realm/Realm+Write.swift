import Foundation
import LMDB

extension Realm {
    /// Whether the realm is inside a write transaction.
    public var isInWriteTransaction: Bool {
        core.verifyThread()
        return core.writeState != nil
    }

    /// Runs `block` in a write transaction and commits it; returns what the block returns.
    ///
    /// ```swift
    /// try realm.write { realm.add(dog) }
    /// let count = try realm.write { realm.objects(Dog.self).count }
    /// ```
    /// If the block throws, the transaction is cancelled and the error rethrown. A write never
    /// suspends: it begins and commits on the calling thread. The observations of `tokens` are
    /// not told of this write (``commitWrite(withoutNotifying:)``).
    /// - Throws: what `block` throws, ``Realm/Error`` `primaryKeyExists` or `invalidValue` when
    ///   the block's data broke a constraint (nothing is committed), or ``Realm/Error`` from the
    ///   commit (`outOfDiskSpace`, …);
    ///   `addressSpaceExhausted` before the block runs when another process grew the file past
    ///   this process's map and other snapshots of this process keep it from growing (see
    ///   ``refresh()``).
    @discardableResult
    public func write<Result>(withoutNotifying tokens: [NotificationToken] = [], _ block: () throws -> Result) throws -> Result {
        verifyCanBeginWrite()
        try core.beginWrite()
        return try completeWrite(block, silencing: tokens)
    }

    /// Runs `block` in the open write and commits it, or cancels it when the block throws.
    func completeWrite<Result>(_ block: () throws -> Result, silencing tokens: [NotificationToken] = []) throws -> Result {
        let result = try runInWrite(block)
        if core.writeState != nil { try commitWrite(withoutNotifying: tokens) }
        return result
    }

    /// Runs `block` in the open write; when it throws, the write (if still open) is cancelled
    /// and the error rethrown.
    func runInWrite<Result>(_ block: () throws -> Result) rethrows -> Result {
        do {
            return try block()
        } catch {
            if core.writeState != nil { cancelWrite() }
            throw error
        }
    }

    /// Begins a write transaction, waiting for writers in other threads and processes.
    ///
    /// The realm moves to the latest version first. Writers of this process get their turn in
    /// the order they asked. Traps inside a write or on a read-only realm.
    /// Traps when another process migrated the file since this one opened it: the realm
    /// cannot read the file's new layout (``write(_:)`` throws instead).
    public func beginWrite() {
        verifyCanBeginWrite()
        do {
            try core.beginWrite()
        } catch {
            burrowPreconditionFailure(Realm.Error.message(of: error))
        }
    }

    private func verifyCanBeginWrite() {
        core.verifyThread()
        burrowPrecondition(!core.isFrozen, TrapMessage.frozenWrite)
        burrowPrecondition(!configuration.readOnly, TrapMessage.readOnlyWrite)
        burrowPrecondition(core.writeState == nil, TrapMessage.alreadyInWrite)
        // Observers learn of what others committed before the write builds on it.
        if core.hasObservers { core.refresh() }
    }

    /// Commits the write transaction: its changes become durable and visible to others.
    ///
    /// ```swift
    /// realm.beginWrite()
    /// dog.age += 1
    /// try realm.commitWrite(withoutNotifying: [tableToken])   // the table already shows it
    /// ```
    /// The realm's observations are then told of the write, except those of `silenced`, which
    /// take the new version in without a notification.
    /// - Throws: ``Realm/Error``: `limitExceeded` when the write would take the file past
    ///   `maximumFileSize` or make it keep more than `maximumNumberOfActiveVersions` versions,
    ///   `outOfDiskSpace` when the disk is full,
    ///   `fileAccess`; the transaction is then cancelled.
    public func commitWrite(withoutNotifying silenced: [NotificationToken] = []) throws {
        core.verifyThread()
        try core.commitWrite(silencing: silenced)
    }

    /// Cancels the write transaction: every change in it is undone, and objects it added are
    /// invalidated.
    public func cancelWrite() {
        core.verifyThread()
        core.cancelWrite()
    }

    // MARK: Adding

    /// Adds an unmanaged object (the same instance becomes managed).
    ///
    /// ```swift
    /// try realm.write { realm.add(person, update: .modified) }
    /// ```
    /// Adding an object already managed by this realm does nothing. Traps outside a write and
    /// for an object of another realm. A primary key another object has, under `.error`, fails
    /// the write: nothing of it is committed and `write` (or `commitWrite`) throws
    /// ``Realm/Error/Code/primaryKeyExists``; the object stays unmanaged.
    public func add(_ object: Object, update: UpdatePolicy = .error) {
        let write = core.verifyWrite(doing: "add an object to")
        burrowPrecondition(!(object is EmbeddedObject),
                           "Cannot add embedded object '\(type(of: object))' to a Realm directly: assign it to a property of an object instead.")
        if let management = object.management {
            burrowPrecondition(management.realm === core,
                               "Object is already managed by another Realm. Use create instead to copy it into this Realm.")
            burrowPrecondition(!object.isInvalidated, "Adding a deleted or invalidated object to a Realm is not permitted.")
            return
        }
        core.verifyManaged(type(of: object))
        core.insert(object, update: update, in: write)
    }

    /// Adds every object of `objects`.
    public func add<S: Sequence>(_ objects: S, update: UpdatePolicy = .error) where S.Element: Object {
        for object in objects { add(object, update: update) }
    }

    /// Creates a managed object from `value` (a dictionary, an array in property order, or an
    /// object) and returns it.
    ///
    /// ```swift
    /// let jane = realm.create(Person.self, value: ["id": 1, "name": "Jane"])
    /// realm.create(Person.self, value: ["id": 1, "age": 28], update: .modified)  // keeps the name
    /// ```
    /// With `.modified` or `.all`, an existing object with the value's primary key gets the
    /// properties the value names; the others keep their values.
    ///
    /// A value that does not fit a property (a wrong type, a malformed list or linked object)
    /// fails the write, as does a primary key another object has under `.error`: nothing of the
    /// write is committed and `write` throws ``Realm/Error/Code/invalidValue`` or
    /// ``Realm/Error/Code/primaryKeyExists``, naming the class, the property and the value.
    @discardableResult
    public func create<T: Object>(_ type: T.Type, value: Any = [String: Any](), update: UpdatePolicy = .error) -> T {
        let write = core.verifyWrite(doing: "create an object in")
        core.verifyManaged(type)
        let info = ClassInfo.of(type)
        let reader = ObjectValueReader(info: info, copyingInto: core, failingWrite: write)
        if update != .error {
            burrowPrecondition(info.primaryKeyField != nil, "'\(info.className)' does not have a primary key and can not be updated")
            if let key = reader.primaryKey(in: value), let existing = object(ofType: type, primaryKeyValue: key) {
                write.withNestedUpdatePolicy(update) { reader.apply(value, to: existing, isNew: false) }
                return existing
            }
        }
        let object = type.init()  // the class given, which may be a subclass of `T`
        // An object given as the value is this one's original: a link back to it (a cycle of
        // unmanaged objects) leads to this object, not to a second copy.
        // (Asked of the value's type first: a dictionary's cast to a class costs more.)
        if Swift.type(of: value) is ObjectBase.Type, let original = value as? ObjectBase { reader.copies?[original] = object }
        reader.apply(value, to: object, isNew: true)
        core.insert(object, update: update, in: write)
        return object
    }

    // MARK: Deleting

    /// Deletes a managed object; the accessor becomes invalidated.
    ///
    /// Traps outside a write, for an unmanaged object or one of another realm, and for an
    /// object already deleted.
    public func delete(_ object: ObjectBase) {
        let write = core.verifyWrite(doing: "delete an object from")
        guard let management = object.management, management.realm === core else {
            burrowPreconditionFailure("Can only delete an object from the Realm it belongs to.")
        }
        core.remove(management, in: write)
    }

    /// Deletes every object of `objects`.
    public func delete<S: Sequence>(_ objects: S) where S.Element: ObjectBase {
        for object in Array(objects) { delete(object) }
    }

    /// Deletes every object in `results`.
    public func delete<Element: Object>(_ results: Results<Element>) {
        let write = core.verifyWrite(doing: "delete objects from")
        results.core.deleteAll(in: write)
    }

    /// Deletes every object of every class.
    public func deleteAll() {
        let write = core.verifyWrite(doing: "delete objects from")
        core.perform(in: write) { try write.tables.removeEverything() }
    }
}
