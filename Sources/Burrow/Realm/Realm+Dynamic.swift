/// The dynamic API: classes read and written by the names the file stores, for code that
/// knows the schema only from the file (tools, the `burrow` command, generic exporters).
extension Realm {
    /// The objects of class `typeName`, as ``DynamicObject``s: live results that filter, sort,
    /// count and aggregate as the results of a model class do.
    ///
    /// ```swift
    /// let old = realm.dynamicObjects("Dog").filter("age > %@", 10).sorted(byKeyPath: "name")
    /// for dog in old { print(dog["name"] as! String) }
    /// ```
    /// Traps when the file has no class `typeName`, or when it is an embedded class (query its
    /// owners instead).
    public func dynamicObjects(_ typeName: String) -> Results<DynamicObject> {
        core.verifyThread()
        let (info, _) = core.dynamicInfo(named: typeName)
        burrowPrecondition(!info.isEmbedded, "Embedded object '\(typeName)' cannot be queried directly: query its owners instead.")
        return Results(core: ResultsCore(realm: core, info: info, query: ResultsQuery()))
    }

    /// The object of class `typeName` whose primary key is `key`, or `nil`.
    ///
    /// ```swift
    /// let rex = realm.dynamicObject(ofType: "Dog", forPrimaryKey: 7)
    /// ```
    /// Traps when the file has no class `typeName`, the class has no primary key, or `key` is
    /// not a value of its type.
    public func dynamicObject(ofType typeName: String, forPrimaryKey key: Any) -> DynamicObject? {
        core.verifyThread()
        let (info, layout) = core.dynamicInfo(named: typeName)
        let storedClass = layout?.storedClass ?? info.storedClassBeforeTable
        guard let column = storedClass.primaryKeyColumn else { burrowPreconditionFailure("'\(typeName)' does not have a primary key") }
        let value: _PersistedValue
        do {
            value = try StoredValueConversion.scalar(key, for: storedClass.properties[column], of: typeName)
        } catch {
            burrowPreconditionFailure(error.message)
        }
        guard let bound = core.bound(info) else { return nil }
        return object(ofType: DynamicObject.self, primaryKeyValue: value, in: bound)
    }

    /// Creates an object of class `typeName` from `value`, or with `.all` or `.modified`
    /// updates the one with the same primary key, and returns it.
    ///
    /// ```swift
    /// try realm.write {
    ///     let owner = realm.dynamicCreate("Person", value: ["name": "Ann", "dogs": [["name": "Rex", "age": 3]]])
    ///     realm.dynamicCreate("Dog", value: ["id": 7, "age": 4], update: .modified)
    /// }
    /// ```
    /// `value` is a dictionary of property names to values, an array of values in property
    /// order, or an object with the same property names; links take objects of the realm or the
    /// values of new objects (created or updated as the top one is), collections take arrays
    /// (maps take dictionaries). A property `value` omits takes the model class's default when
    /// this process has a model class of that name, else `nil`; with no default, a required
    /// property must be given. An update writes only the properties `value` gives.
    ///
    /// Traps outside a write transaction, for an unknown class or an embedded class. Data that
    /// does not fit fails the whole write, as in ``create(_:value:update:)``: an existing primary
    /// key with `.error` (`primaryKeyExists`), an unknown property name, a value of the wrong
    /// type or a missing required value (`invalidValue`); `write` or `commitWrite` then throws.
    @discardableResult
    public func dynamicCreate(_ typeName: String, value: Any = [String: Any](), update: UpdatePolicy = .error) -> DynamicObject {
        let write = core.verifyWrite(doing: "create an object in")
        let (info, _) = core.dynamicInfo(named: typeName)
        burrowPrecondition(!info.isEmbedded, "Embedded objects cannot be created directly: create them through their owner's property.")
        var key: ObjectKey?
        core.perform(in: write) {
            if let model = core.pendingModelClass(named: typeName) { _ = try core.boundForWriting(model, in: write) }
            key = try core.dynamicCreate(typeName, value: value, update: update, in: write)
        }
        // A failed write keeps its error for the commit; the object is then an empty accessor.
        guard let key, let object = core.dynamicObject(key, of: typeName) else { return DynamicObject() }
        return object
    }
}
