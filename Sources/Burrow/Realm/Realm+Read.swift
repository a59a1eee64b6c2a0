extension Realm {
    /// Every object of `type`, as live, lazy ``Results``.
    ///
    /// ```swift
    /// let dogs = realm.objects(Dog.self)
    /// dogs.count            // O(1) for a whole class
    /// ```
    public func objects<Element: Object>(_ type: Element.Type) -> Results<Element> {
        core.verifyThread()
        return Results(core: ResultsCore(realm: core, info: ClassInfo.of(type), predicate: nil))
    }

    /// The object of `type` whose primary key is `key`, or `nil`.
    ///
    /// ```swift
    /// let jane = realm.object(ofType: Person.self, forPrimaryKey: 1)
    /// ```
    /// Traps when the class has no primary key or `key` is of the wrong type.
    public func object<Element: Object, KeyType>(ofType type: Element.Type, forPrimaryKey key: KeyType) -> Element? {
        core.verifyThread()
        let info = ClassInfo.of(type)
        guard let field = info.primaryKeyField else {
            preconditionFailure("'\(info.className)' does not have a primary key")
        }
        let value = ObjectValueReader(info: info).convert(key as Any, field: field)
        return object(ofType: type, primaryKeyValue: value)
    }

    /// The object of `type` whose primary key has the storage value `value`, or `nil`.
    func object<Element: Object>(ofType type: Element.Type, primaryKeyValue value: _PersistedValue) -> Element? {
        guard let bound = core.coordinator.bound(ClassInfo.of(type)) else { return nil }
        let key: ObjectKey?
        do {
            key = try bound.layout.objectKey(forPrimaryKey: value, in: core.transaction)
        } catch {
            preconditionFailure("Cannot read '\(core.coordinator.path)': \(error)")
        }
        return key.map { core.makeObject(bound, key: $0) as! Element }
    }
}

extension RealmCore {
    /// A managed accessor for the object at `key`.
    func makeObject(_ bound: BoundClass, key: ObjectKey) -> ObjectBase {
        let object = bound.info.type.init()
        object.becomeManaged(by: self, bound: bound, key: key)
        return object
    }
}
