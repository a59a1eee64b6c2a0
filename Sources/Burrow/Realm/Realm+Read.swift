extension Realm {
    /// Whether the realm holds no objects at all, of any class.
    ///
    /// ```swift
    /// if realm.isEmpty { seedDemoData(realm) }
    /// ```
    public var isEmpty: Bool {
        core.verifyThread()
        let txn = core.transaction
        do {
            return try core.catalog.layouts.values.allSatisfy { try $0.count(in: txn) == 0 }
        } catch {
            burrowPreconditionFailure(TrapMessage.cannotRead(core.coordinator.path, error))
        }
    }

    /// Every object of `type`, as live, lazy ``Results``.
    ///
    /// ```swift
    /// let dogs = realm.objects(Dog.self)
    /// dogs.count            // O(1) for a whole class
    /// ```
    public func objects<Element: Object>(_ type: Element.Type) -> Results<Element> {
        core.verifyThread()
        core.verifyManaged(type)
        burrowPrecondition(!ClassInfo.isEmbedded(type), "Embedded object '\(type)' cannot be queried directly: query its owners instead.")
        return Results(core: ResultsCore(realm: core, info: core.info(type), query: ResultsQuery()))
    }

    /// Projections of every object of the projected class, as live, lazy ``Results``.
    ///
    /// ```swift
    /// let views = realm.objects(PersonView.self).sorted(byKeyPath: "firstName")
    /// ```
    /// Queries and sorts name the projected class's stored properties.
    public func objects<Root: Object, Element: Projection<Root>>(_ type: Element.Type) -> Results<Element> {
        Results(core: objects(Root.self).core)
    }

    /// The object of `type` whose primary key is `key`, or `nil`.
    ///
    /// ```swift
    /// let jane = realm.object(ofType: Person.self, forPrimaryKey: 1)
    /// ```
    /// Traps when the class has no primary key or `key` is of the wrong type.
    public func object<Element: Object, KeyType>(ofType type: Element.Type, forPrimaryKey key: KeyType) -> Element? {
        core.verifyThread()
        core.verifyManaged(type)
        let info = core.info(type)
        guard let field = info.primaryKeyField else {
            burrowPreconditionFailure("'\(info.className)' does not have a primary key")
        }
        return object(ofType: type, primaryKeyValue: ObjectValueReader(info: info).convert(key as Any, field: field))
    }

    /// The object of `type` whose primary key is `key`, or `nil`; the fast form for keys of a
    /// stored type.
    public func object<Element: Object, KeyType: _Persistable>(ofType type: Element.Type, forPrimaryKey key: KeyType) -> Element? {
        core.verifyThread()
        core.verifyManaged(type)
        // The common case, a class the file has and a key of its kind, reads only this realm's
        // own bound class.
        if let bound = core.bound(type), let primaryKey = bound.primaryKey,
           let value = Self.storedKey(key, kind: primaryKey.kind, isOptional: primaryKey.isOptional) {
            return object(ofType: type, primaryKeyValue: value, in: bound)
        }
        let info = core.info(type)
        guard let field = info.primaryKeyField else {
            burrowPreconditionFailure("'\(info.className)' does not have a primary key")
        }
        if let value = Self.storedKey(key, kind: info.fields[field].kind, isOptional: info.fields[field].isOptional) {
            return object(ofType: type, primaryKeyValue: value)
        }
        return object(ofType: type, primaryKeyValue: ObjectValueReader(info: info).convert(key as Any, field: field))
    }

    /// `key` as the stored value of a primary key of `kind`, when it is one as it stands;
    /// `nil` when it needs the general conversion (which also traps for a wrong type).
    @inline(__always)
    private static func storedKey(_ key: some _Persistable, kind: _StorageKind, isOptional: Bool) -> _PersistedValue? {
        guard let value = PredicateCompiler.converted(key._persistedValue, to: kind),
              value.isNull ? isOptional : ValueComparator.sameKind(value, kind) else { return nil }
        return value
    }

    /// The object of `type` whose primary key has the storage value `value`, or `nil`.
    func object<Element: Object>(ofType type: Element.Type, primaryKeyValue value: _PersistedValue) -> Element? {
        guard let bound = core.bound(core.info(type)) else { return nil }
        return object(ofType: type, primaryKeyValue: value, in: bound)
    }

    /// The object of `type`, bound as `bound`, whose primary key has the storage value `value`.
    func object<Element: Object>(ofType type: Element.Type, primaryKeyValue value: _PersistedValue,
                                 in bound: BoundClass) -> Element? {
        let found: (key: ObjectKey, row: UnsafeRawBufferPointer)?
        do {
            found = try bound.find(primaryKey: value, in: core.transaction)
            // Not found: unless the entries where it would be are damaged (LMDB checks no keys).
            if found == nil { try bound.layout.verifyAbsence(ofPrimaryKey: value, in: core.transaction) }
        } catch {
            burrowPreconditionFailure(TrapMessage.cannotRead(core.coordinator.path, error))
        }
        guard let found else { return nil }
        // The bound class is `type` itself (`DynamicObject` for a class read by name), so the
        // accessor is an `Element`. (Not `found.map`: a generic map here costs a closure and
        // runtime metadata on every read.)
        return unsafeDowncast(core.makeObject(bound, key: found.key, row: found.row), to: Element.self)
    }
}
