extension Object {
    /// The list of objects in property `name`, as dynamic objects: for code that reads classes
    /// by name, on any managed object as on a ``DynamicObject``.
    ///
    /// ```swift
    /// let dogs = person.dynamicList("dogs")
    /// dogs.filter("age > 2").count
    /// ```
    /// Traps unless `name` is a list of objects, and for an unmanaged object.
    public func dynamicList(_ name: String) -> List<DynamicObject> {
        dynamicAccessor(reading: name).objectCollection(name, .list, as: "List") as! List<DynamicObject>
    }

    /// The set of objects in property `name`, as dynamic objects.
    ///
    /// ```swift
    /// let friends = person.dynamicMutableSet("friends")
    /// ```
    /// Traps unless `name` is a set of objects, and for an unmanaged object.
    public func dynamicMutableSet(_ name: String) -> MutableSet<DynamicObject> {
        dynamicAccessor(reading: name).objectCollection(name, .set, as: "MutableSet") as! MutableSet<DynamicObject>
    }

    /// The map of objects in property `name`, as dynamic objects.
    ///
    /// ```swift
    /// let pets = person.dynamicMap("petsByName")
    /// pets["Rex"]??["age"]
    /// ```
    /// Traps unless `name` is a map of objects, and for an unmanaged object.
    public func dynamicMap(_ name: String) -> Map<String, DynamicObject?> {
        dynamicAccessor(reading: name).objectCollection(name, .map, as: "Map") as! Map<String, DynamicObject?>
    }

    /// This object read by class name: itself when it is one, else the same stored object.
    private func dynamicAccessor(reading name: String) -> DynamicObject {
        if let dynamic = self as? DynamicObject { return dynamic }
        guard let management else { burrowPreconditionFailure("The collection '\(name)' can only be read dynamically from an object of a realm.") }
        management.realm.verifyThread()
        guard let dynamic = management.realm.dynamicObject(management.key, of: management.bound.layout.className) else {
            burrowPreconditionFailure(TrapMessage.objectInvalidated)
        }
        return dynamic
    }
}

extension AnyRealmValue {
    /// The object the value holds, read by class name, or `nil` when it holds no object.
    ///
    /// ```swift
    /// let owner = pet.anyCol.dynamicObject?["name"]
    /// ```
    public var dynamicObject: DynamicObject? {
        guard case .object(let object) = self else { return nil }
        if let dynamic = object as? DynamicObject { return dynamic }
        guard let management = object.management else { return nil }
        return management.realm.dynamicObject(management.key, of: management.bound.layout.className)
    }
}

extension DynamicObject {
    /// The value of property `key`, as `self[key]` reads it: Objective-C's name for a read by a
    /// name the class does not declare, which RealmSwift's dynamic objects answer.
    ///
    /// ```swift
    /// dog.value(forUndefinedKey: "age") as? Int
    /// ```
    public func value(forUndefinedKey key: String) -> Any? { self[key] }

    /// Sets property `key`, as `self[key] = value` does (inside a write).
    public func setValue(_ value: Any?, forUndefinedKey key: String) { self[key] = value }
}
