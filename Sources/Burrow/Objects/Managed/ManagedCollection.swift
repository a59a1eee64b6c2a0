import LMDB

/// What a managed list or set knows of where it lives: its owner's key and class, the
/// property's column and collection database, and the kind of its elements.
///
/// The owner hands out one collection per property and keeps it (``ObjectBase/managedCollection(column:make:)``),
/// so the collection holds the owner's key rather than the owner, and counts its own use of
/// the realm: held alone, it keeps the realm open as the owner would.
class ManagedCollection {
    let realm: RealmCore
    /// Held alone, a collection keeps its realm open as its owner would.
    private let use: RealmUse
    /// The owner's object key.
    let ownerKey: ObjectKey
    let layout: TableLayout
    /// The owner's class, to find the owner in another version (freezing, thawing, handing over).
    let ownerInfo: ClassInfo
    let column: Int
    let database: Database
    let kind: _StorageKind
    /// The element class of a collection of objects.
    let targetType: ObjectBase.Type?

    required init(owner: ObjectBase, column: Int, targetType: ObjectBase.Type?) {
        guard let management = owner.management, let database = management.bound.layout.collectionDatabase(of: column) else {
            burrowPreconditionFailure(TrapMessage.objectInvalidated)
        }
        ownerKey = management.key
        realm = management.realm
        use = RealmUse(management.realm)
        layout = management.bound.layout
        ownerInfo = management.bound.info
        self.column = column
        self.database = database
        kind = layout.kinds[column]
        self.targetType = targetType
        // The owner's generation: a collection read from an object invalidated since is as
        // invalidated as its owner.
        createdGeneration = min(management.realm.generation, owner.cachedRowGeneration)
    }

    /// The realm generation the collection's owner was read in: a collection of an object read
    /// before ``Realm/invalidate()`` stays invalidated, as its owner does.
    private let createdGeneration: UInt64

    /// The generation in which the owner was last seen to exist (0: never), so that reading and
    /// then writing a collection looks the owner up once.
    private var ownerSeenGeneration: UInt64 = 0

    /// Whether the owner was deleted, or the realm invalidated since.
    var isInvalidated: Bool {
        realm.verifyThread()
        if realm.invalidated(since: createdGeneration) { return true }
        return realm.exclusively {
            let generation = realm.generation
            if ownerSeenGeneration == generation { return false }
            guard realm.contains(ownerKey, in: layout) else { return true }
            ownerSeenGeneration = generation
            return false
        }
    }

    /// Records that the owner exists in the current generation: a write to this collection
    /// moves the generation but cannot delete its owner.
    func noteOwnerSeen() {
        ownerSeenGeneration = realm.generation
    }

    /// The same property of the same owner read through `core` (a frozen or a live realm of the
    /// same file), or `nil` when the owner does not exist there.
    func moved(to core: RealmCore) -> Self? {
        guard let bound = core.bound(ownerInfo), core.contains(ownerKey, in: bound.layout) else { return nil }
        return Self(owner: core.makeObject(bound, key: ownerKey), column: column, targetType: targetType)
    }

    /// Traps unless the owner still exists.
    func verifyOwner() {
        burrowPrecondition(!isInvalidated, TrapMessage.objectInvalidated)
    }

    /// `cache`'s value when it was read in the realm's current generation; otherwise `read`'s,
    /// which the cache then keeps. Callers hold ``RealmCore/exclusively(_:)`` around the whole
    /// call, since `cache` is accessed from the moment it is passed.
    func current<Value>(_ cache: inout GenerationCache<Value>, read: (Transaction) throws -> Value) -> Value {
        realm.verifyThread()
        if cache.generation == realm.generation { return cache.value }
        verifyOwner()
        do {
            cache.value = try read(realm.transaction)
        } catch {
            readFailed(error)
        }
        cache.generation = realm.generation
        return cache.value
    }

    /// Traps for an error reading the collection's elements; an element that fails its
    /// authentication check or its checksum is named as damage.
    func readFailed(_ error: any Error) -> Never {
        if case LMDBError.sealBroken = error {
            burrowPreconditionFailure("The file is damaged: an element of '\(layout.className).\(layout.storedClass.properties[column].name)' "
                                      + "of object \(ownerKey.rawValue) \(TableLayout.brokenSealReason(encrypted: layout.cipher != nil)).")
        }
        burrowPreconditionFailure(TrapMessage.cannotRead(realm.coordinator.path, error))
    }

    /// The open write transaction; traps outside one.
    func verifyWrite() -> WriteState {
        realm.verifyThread()
        guard let write = realm.writeState else {
            // RealmSwift reports an invalidated owner first.
            burrowPrecondition(!isInvalidated, TrapMessage.objectInvalidated)
            realm.refuseModificationOutsideWrite()
        }
        return write
    }

    /// The stored form of a new element, adding an unmanaged object to the realm first.
    func storedValue(of element: any _Persistable, in write: WriteState) throws -> _PersistedValue {
        if targetType == DynamicObject.self, let object = element._linkedObject {
            // Dynamic elements carry their class at run time, not in their type.
            let name = object.fileClassName
            burrowPrecondition(name == targetClassName,
                               "Object of type '\(name)' cannot be added to '\(layout.className).\(layout.storedClass.properties[column].name)', a collection of '\(targetClassName)'.")
        }
        return try Self.storedValue(of: element, kind: kind, realm: realm, in: write,
                                    destination: layout.storedClass.properties[column].collection == .map ? .dictionary : .list)
    }

    static func storedValue(of element: any _Persistable, kind: _StorageKind, realm: RealmCore, in write: WriteState,
                            destination: RealmCore.EmbeddingDestination) throws -> _PersistedValue {
        if kind == .mixed, let mixed = element as? AnyRealmValue {
            return try realm.storedMixed(mixed, update: write.nestedUpdatePolicy, in: write)
        }
        guard kind == .link else { return element._persistedValue }
        guard let object = element._linkedObject else {
            // Only a map's values may be nil.
            if element._persistedValue.isNull { return .null }
            burrowPreconditionFailure("A collection of objects holds only objects.")
        }
        return .link(try realm.managedKey(of: object, update: write.nestedUpdatePolicy, in: write, destination: destination).rawValue)
    }

    /// The class of the collection's objects: the model class, or for ``DynamicObject``s the
    /// class the property links to, read by name.
    var targetInfo: ClassInfo? {
        guard let targetType else { return nil }
        guard targetType == DynamicObject.self else { return realm.info(targetType) }
        return realm.verifiedDynamicBound(named: targetClassName).info
    }

    /// The name of the class the property links to.
    private var targetClassName: String { layout.storedClass.properties[column].objectClassName ?? "" }

    private func linkedObject(_ key: ObjectKey, of targetType: ObjectBase.Type) -> ObjectBase? {
        guard targetType == DynamicObject.self else { return realm.linkTarget(key, of: targetType) }
        return realm.dynamicObject(key, of: targetClassName)
    }

    /// The element a stored value reads as: the target object of a link, an `AnyRealmValue`
    /// (whose nested collection is live at `slot`), or the value itself.
    func element<E: RealmCollectionValue>(from value: _PersistedValue, as type: E.Type, slot: @escaping @autoclosure () -> MixedSlot?) -> E {
        if let targetType {
            // A map's entry may be nil.
            guard case .link(let key) = value else { return E._fromLinkedObject(nil) }
            guard let target = linkedObject(ObjectKey(key), of: targetType) else {
                burrowPreconditionFailure("The file is damaged: an element of '\(layout.className).\(layout.storedClass.properties[column].name)' links to an object that does not exist.")
            }
            return E._fromLinkedObject(target)
        }
        if kind == .mixed {
            guard case .mixed(let inner) = value else { return AnyRealmValue.none as! E }
            let location = { () -> NestedLocation in
                guard let slot = slot() else { burrowPreconditionFailure("A MutableSet of AnyRealmValue cannot hold a list or dictionary.") }
                return NestedLocation(slot: slot)
            }
            return AnyRealmValue(stored: inner, realm: realm, location: location()) as! E
        }
        if E._linkedType != nil {
            burrowPreconditionFailure("'\(layout.className).\(layout.storedClass.properties[column].name)' holds \(kind) values, not objects: "
                                      + "read it with its value type, as object[\"\(layout.storedClass.properties[column].name)\"].")
        }
        return E._fromPersisted(value)
    }
}
