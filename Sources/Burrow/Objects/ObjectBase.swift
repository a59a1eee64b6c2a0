import Foundation
import LMDB

/// The root of every stored class: it holds the state of an object's link to its realm.
///
/// Declare models as subclasses of ``Object``; `ObjectBase` is public only so that
/// configurations can name model types (`objectTypes: [ObjectBase.Type]`).
open class ObjectBase {
    // These are read on every property access and only ever assigned whole: they skip the
    // runtime's exclusivity check.
    /// Where a managed object's data lives; `nil` while unmanaged.
    @exclusivity(unchecked) final var management: Management? {
        didSet {
            managingRealm = management.map { Unmanaged.passUnretained($0.realm) }
            managingLayout = management.map { Unmanaged.passUnretained($0.bound.layout) }
        }
    }
    /// `management`'s realm, unretained: the property reads of a row already cached borrow the
    /// realm through it rather than copying `management`, whose copy retains and releases the
    /// realm and the class, four atomic operations on every read. `management` keeps the realm.
    @exclusivity(unchecked) private final var managingRealm: Unmanaged<RealmCore>?
    /// `management`'s table, unretained, for the row lookup of a read, as `managingRealm`.
    @exclusivity(unchecked) private final var managingLayout: Unmanaged<TableLayout>?
    /// The row as last read, valid while `cachedRowGeneration` is the realm's generation.
    @exclusivity(unchecked) final var cachedRow: UnsafeRawBufferPointer?
    @exclusivity(unchecked) final var cachedRowGeneration: UInt64 = 0
    /// The lists, sets and maps handed out for a managed object's properties: each property
    /// hands out one, which reads the realm's current version itself. The first is kept inline
    /// (most objects use one collection at a time), the others by column.
    @exclusivity(unchecked) final var firstCollection: (column: Int, collection: AnyObject)?
    @exclusivity(unchecked) final var otherCollections: [Int: AnyObject] = [:]
    /// Set only on the probes that learn which property a key path reads, when they are made;
    /// read by every property access, inlined into model code, so it skips the check too.
    @usableFromInline @exclusivity(unchecked) final var keyPathRecorder: KeyPathRecorder?

    /// The link of a managed object to its row, kept inline: managing an object allocates
    /// nothing.
    struct Management {
        let realm: RealmCore
        let bound: BoundClass
        let key: ObjectKey
    }

    /// Creates an unmanaged object whose properties hold their declared defaults.
    public required init() {}

    // What a model class says of its own schema, as RealmSwift's class methods do: here, so
    // that code holding `[ObjectBase.Type]` (a configuration's `objectTypes`) can ask, and in
    // the class body, so that subclasses can override them.

    /// The name under which the class is stored: its unqualified Swift name.
    open class func className() -> String { ClassInfo.storedName(of: self) }

    /// The property that is the class's primary key, for models that name it here rather
    /// than with `@Persisted(primaryKey: true)`.
    ///
    /// ```swift
    /// override class func primaryKey() -> String? { "code" }
    /// ```
    open class func primaryKey() -> String? { nil }

    /// Properties to index, besides those declared `@Persisted(indexed: true)`.
    ///
    /// ```swift
    /// override class func indexedProperties() -> [String] { ["name"] }
    /// ```
    open class func indexedProperties() -> [String] { [] }

    /// `@Persisted` properties that are not stored: they keep their value in the object only,
    /// managed or not.
    ///
    /// ```swift
    /// override class func ignoredProperties() -> [String] { ["scratch"] }
    /// ```
    open class func ignoredProperties() -> [String] { [] }

    /// Names the file records for properties (``Property/columnName``), by property name.
    /// Code, queries and the schema's ``Property/name`` keep the property names.
    ///
    /// ```swift
    /// override class func propertiesMapping() -> [String: String] { ["firstName": "first_name"] }
    /// ```
    open class func propertiesMapping() -> [String: String] { [:] }

    /// Whether the class is left out of the default schema (a configuration without
    /// `objectTypes`), as RealmSwift's class method of the same name says: for classes that exist
    /// for tests or as bases of others, never stored themselves.
    ///
    /// ```swift
    /// override class func _realmIgnoreClass() -> Bool { true }
    /// ```
    open class func _realmIgnoreClass() -> Bool { false }

    /// The schema of the class, as RealmSwift's class method reads it.
    ///
    /// ```swift
    /// Dog.sharedSchema()?.properties.map(\.name)
    /// ```
    open class func sharedSchema() -> ObjectSchema? { ClassInfo.of(self).objectSchema }

    deinit {
        managingRealm?._withUnsafeGuaranteedRef { $0.removeUse() }
    }

    /// The row of a managed object in the realm's current version. Traps when the object is
    /// unmanaged, used from the wrong thread or was deleted.
    final func currentRow() -> UnsafeRawBufferPointer {
        guard let managingRealm else { burrowPreconditionFailure(TrapMessage.objectInvalidated) }
        return managingRealm._withUnsafeGuaranteedRef { realm in
            realm.verifyThread()
            return realm.exclusively { cachedRow(in: realm) }
        }
    }

    /// The row from the cache, or read into it.
    @inline(__always)
    private final func cachedRow(in realm: RealmCore) -> UnsafeRawBufferPointer {
        if cachedRowGeneration == realm.generation, let row = cachedRow { return row }
        if realm.invalidated(since: cachedRowGeneration) { burrowPreconditionFailure(TrapMessage.objectInvalidated) }
        // The table and key are borrowed, not copied out of `management` (which retains).
        guard let managingLayout, let key = management?.key else { burrowPreconditionFailure(TrapMessage.objectInvalidated) }
        let row: UnsafeRawBufferPointer?
        do {
            row = try managingLayout._withUnsafeGuaranteedRef { try $0.row(key, in: realm.transaction) }
        } catch {
            burrowPreconditionFailure("Cannot read object of type '\(managingLayout.takeUnretainedValue().className)' from '\(realm.coordinator.path)': \(error)")
        }
        guard let row else {
            // Rare: `management` is copied only here.
            guard let management else { burrowPreconditionFailure(TrapMessage.objectInvalidated) }
            // Listed in this version (by a table scan, an index or a collection) and gone in the
            // same version: no write removed it, LMDB's pages disagree with themselves.
            if cachedRowGeneration == realm.generation {
                burrowPreconditionFailure("The file is damaged: object \(management.key.rawValue) of '\(management.bound.info.className)' was listed "
                                          + "but its row cannot be found in '\(realm.coordinator.path)'.")
            }
            burrowPreconditionFailure(TrapMessage.objectInvalidated)
        }
        cachedRow = row
        cachedRowGeneration = realm.generation
        return row
    }

    /// Reads column `column` of a managed object.
    @usableFromInline
    final func managedValue(column: Int, kind: _StorageKind) -> _PersistedValue {
        RowReader(rowCachedInThisGeneration() ?? currentRow()).value(column, kind: kind)
    }

    /// The cached row, when it is the row of the realm's current generation and may be read on
    /// this thread without a lock; `nil` sends the read through ``currentRow()``.
    @inline(__always)
    private final func rowCachedInThisGeneration() -> UnsafeRawBufferPointer? {
        guard let managingRealm, let row = cachedRow else { return nil }
        return managingRealm._withUnsafeGuaranteedRef { realm in
            guard realm.frozenLock == nil, cachedRowGeneration == realm.generation else { return nil }
            realm.verifyThread()
            return row
        }
    }

    /// Writes column `column` of a managed object (inside a write transaction).
    @usableFromInline
    final func setManagedValue(_ value: _PersistedValue, column: Int) {
        // The realm and table are borrowed, not copied out of `management` (which retains).
        guard let managingRealm, let managingLayout, let key = management?.key else {
            burrowPreconditionFailure(TrapMessage.objectInvalidated)
        }
        managingRealm._withUnsafeGuaranteedRef { realm in
            managingLayout._withUnsafeGuaranteedRef { layout in realm.update(self, key: key, layout: layout, column: column, to: value) }
        }
    }

    /// The target of the to-one link in `column` of a managed object, or `nil`.
    @usableFromInline
    final func linkedObject(column: Int, of type: ObjectBase.Type) -> ObjectBase? {
        guard case .link(let key) = managedValue(column: column, kind: .link), let management else { return nil }
        return management.realm.storedLinkTarget(ObjectKey(key), of: type, describing:
            "'\(management.bound.info.className).\(management.bound.layout.storedClass.properties[column].name)' of object \(management.key.rawValue)")
    }

    /// Points the to-one link in `column` of a managed object at `target` (adding an unmanaged
    /// target to the realm), or clears it.
    @usableFromInline
    final func setLinkedObject(_ target: ObjectBase?, column: Int) {
        guard let management else {
            burrowPreconditionFailure(TrapMessage.objectInvalidated)
        }
        management.realm.setLink(target, on: self, column: column)
    }

    /// The collection of the property in `column`, made by `make` on first use and kept, so
    /// that `person.dogs[i]` in a loop does not reload the list on every access.
    @inline(__always)
    final func managedCollection<Collection: AnyObject>(column: Int, make: () -> Collection) -> Collection {
        guard let realm = management?.realm else { return cachedCollection(column: column, make: make) }
        return realm.exclusively { cachedCollection(column: column, make: make) }
    }

    @inline(__always)
    private final func cachedCollection<Collection: AnyObject>(column: Int, make: () -> Collection) -> Collection {
        if let first = firstCollection {
            if first.column == column { return unsafeDowncast(first.collection, to: Collection.self) }
            if let cached = otherCollections[column] { return unsafeDowncast(cached, to: Collection.self) }
            let made = make()
            otherCollections[column] = made
            return made
        }
        let made = make()
        firstCollection = (column, made)
        return made
    }

    /// Makes `collection` the one the property in `column` hands out.
    final func adoptCollection(_ collection: AnyObject, column: Int) {
        if firstCollection == nil || firstCollection?.column == column {
            firstCollection = (column, collection)
        } else {
            otherCollections[column] = collection
        }
    }

    /// Points every `@Persisted` field at its column: the object is now managed.
    final func becomeManaged(by realm: RealmCore, bound: BoundClass, key: ObjectKey) {
        // A managed object keeps its realm open. Accessors are made for every object read, so
        // the use is counted here directly rather than through a `RealmUse` field, which would
        // add a field and its destruction to every accessor.
        realm.addUse()
        management?.realm.removeUse()
        management = Management(realm: realm, bound: bound, key: key)
        // The generation it became managed in, which ``RealmCore/invalidate()`` compares.
        cachedRow = nil
        cachedRowGeneration = realm.generation
        // The column words of the fields inside the object, stored straight (the first word of
        // each wrapper, as ClassInfo.manage stores it); boxed fields through their boxes.
        let base = UnsafeMutableRawPointer(Unmanaged.passUnretained(self).toOpaque())
        bound.inlineColumnWords.withUnsafeBufferPointer { words in
            for word in words { (base + word.offset).storeBytes(of: word.column, as: Int.self) }
        }
        let info = bound.info
        for index in bound.boxedFields { info.manage(index, column: bound.fieldColumns[index], in: self) }
        // A managed link reads its row; dropping the unmanaged target breaks reference cycles
        // between objects that were added together.
        for index in info.linkFields {
            let field = info.fields[index]
            field.accessor.setLinkedObject(nil, at: info.pointer(to: index, in: self) + field.valueOffset)
        }
        for index in info.collectionFields {
            let field = info.fields[index]
            field.accessor.manageCollection(at: info.pointer(to: index, in: self) + field.valueOffset, owner: self,
                                            column: bound.fieldColumns[index])
        }
    }
}

extension ObjectBase {
    /// The name of the object's class in the file: its stored class when managed (a
    /// ``DynamicObject`` knows it only so), its model class's stored name otherwise.
    var fileClassName: String { management?.bound.layout.className ?? ClassInfo.storedName(of: type(of: self)) }
}
