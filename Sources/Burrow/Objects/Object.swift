import Foundation

/// A class whose `@Persisted` properties are stored in a realm.
///
/// ```swift
/// final class Dog: Object {
///     @Persisted var name = ""
///     @Persisted var age = 0
/// }
/// let dog = Dog(value: ["name": "Rex", "age": 1])
/// try realm.write { realm.add(dog) }
/// dog.realm === realm        // true: the same instance is now managed
/// ```
///
/// An unmanaged object is a plain Swift object. Once added, its getters read the realm's
/// current version and its setters write, which is allowed only inside a write transaction.
/// A managed object belongs to its realm's thread.
open class Object: ObjectBase, RealmCollectionValue, Hashable, CustomStringConvertible {
    /// Creates an unmanaged object with the declared defaults.
    public required init() {
        super.init()
    }

    /// Creates an unmanaged object from `value`: a dictionary of property names to values, an
    /// array of values in property order, or another object with the same property names.
    /// Properties the value does not mention keep their defaults.
    ///
    /// Traps on a value of the wrong type or an unknown property name.
    public convenience init(value: Any) {
        self.init()
        ObjectValueReader(info: ClassInfo.of(Swift.type(of: self))).apply(value, to: self, isNew: true)
    }

    /// Decodes an unmanaged object from a keyed container of its stored properties, as
    /// ``encode(to:)`` writes it: links as nested objects, lists and sets as arrays, maps as
    /// dictionaries. A missing key or `null` keeps the property's default.
    ///
    /// ```swift
    /// let dog = try JSONDecoder().decode(Dog.self, from: Data(#"{"name": "Rex", "age": 3}"#.utf8))
    /// ```
    /// - Throws: `DecodingError` for a value of the wrong type, or a property whose type is not
    ///   `Decodable` (an enum that is not `Codable`).
    public required convenience init(from decoder: any Decoder) throws {
        self.init()
        try ObjectDecoding.decode(self, from: decoder)
    }

    /// The realm managing this object, or `nil` while unmanaged.
    public var realm: Realm? { management.map { Realm(core: $0.realm) } }

    /// Whether the object was deleted, or its realm's write that created it was cancelled.
    public var isInvalidated: Bool {
        guard let management else { return false }
        management.realm.verifyThread()
        if !management.realm.isFrozen, management.realm.invalidated(since: cachedRowGeneration) { return true }
        return !management.realm.contains(management.key, in: management.bound.layout)
    }

    /// Whether the object is a frozen snapshot (``freeze()``).
    public var isFrozen: Bool { belongsToFrozenRealm }

    /// The schema of the object's class.
    public var objectSchema: ObjectSchema { ClassInfo.of(Swift.type(of: self)).objectSchema }

    /// Reads or writes a property by name: the dynamic accessor.
    ///
    /// ```swift
    /// dog["age"] = 3
    /// let name = dog["name"] as? String
    /// ```
    /// An `AnyRealmValue` property reads as the value it holds (`nil` for `.none`), as in
    /// RealmSwift. Traps on an unknown name or a value of the wrong type.
    public subscript(key: String) -> Any? {
        get {
            let info = ClassInfo.of(Swift.type(of: self))
            let index = info.field(named: key)
            let field = info.fields[index]
            let value = if let management {
                field.accessor.read(from: self, column: management.bound.fieldColumns[index])
            } else {
                field.accessor.read(at: info.pointer(to: index, in: self) + field.valueOffset)
            }
            if field.kind == .mixed, field.collection == nil, let mixed = value as? AnyRealmValue { return mixed.heldValue }
            return value
        }
        set {
            let info = ClassInfo.of(Swift.type(of: self))
            ObjectValueReader(info: info).set(newValue as Any, field: info.field(named: key), on: self)
        }
    }

    /// The value of property `key`: the dynamic accessor, as key-value coding reads it.
    ///
    /// ```swift
    /// dog.value(forKey: "name") as? String
    /// ```
    /// Traps on an unknown name.
    public func value(forKey key: String) -> Any? {
        self[key]
    }

    /// The value of a key path through to-one links (`owner.name`); `nil` where a link is.
    public func value(forKeyPath keyPath: String) -> Any? {
        let names = keyPath.split(separator: ".", maxSplits: 1).map(String.init)
        guard names.count == 2 else { return self[keyPath] }
        guard let next = self[names[0]] else { return nil }
        guard let object = next as? Object else {
            burrowPreconditionFailure("Key path '\(keyPath)' goes through '\(names[0])', which is not a link.")
        }
        return object.value(forKeyPath: names[1])
    }

    /// Sets property `key` to `value` (inside a write when managed); traps on an unknown name
    /// or a value of the wrong type.
    public func setValue(_ value: Any?, forKey key: String) {
        self[key] = value
    }

    /// Sets the property at the end of a key path through to-one links (`owner.name`), as
    /// key-value coding does: nothing happens where a link on the way is `nil`.
    ///
    /// ```swift
    /// try realm.write { dog.setValue("Ann", forKeyPath: "owner.name") }
    /// ```
    public func setValue(_ value: Any?, forKeyPath keyPath: String) {
        let names = keyPath.split(separator: ".", maxSplits: 1).map(String.init)
        guard names.count == 2 else { return setValue(value, forKey: keyPath) }
        guard let next = self[names[0]] else { return }
        guard let object = next as? Object else {
            burrowPreconditionFailure("Key path '\(keyPath)' goes through '\(names[0])', which is not a link.")
        }
        object.setValue(value, forKeyPath: names[1])
    }

    /// Whether `object` is this same stored object (the same row of the same realm file), even
    /// through another accessor. Unmanaged objects are only the same as themselves.
    public func isSameObject(as object: Object?) -> Bool {
        guard let object else { return false }
        if object === self { return true }
        guard let mine = management, let theirs = object.management else { return false }
        return mine.realm.coordinator === theirs.realm.coordinator
            && mine.bound.layout.classID == theirs.bound.layout.classID
            && mine.key == theirs.key
    }

    /// Whether two accessors are equal, as RealmSwift compares objects: an object of a class
    /// with a primary key, or of a frozen realm, equals every accessor of the same stored object
    /// read through the same realm instance (``isSameObject(as:)``); any other object equals
    /// only itself, since nothing but the instance identifies it for as long as it lives
    /// (RealmSwift's rule, which its hash needs).
    /// Use ``isSameObject(as:)`` to compare any two by what they store.
    ///
    /// ```swift
    /// realm.objects(Dog.self).first == realm.object(ofType: Dog.self, forPrimaryKey: 1)
    /// ```
    public static func == (lhs: Object, rhs: Object) -> Bool {
        if lhs === rhs { return true }
        // Of one realm instance, as RealmSwift compares: a frozen object is not its live row.
        guard lhs.isEqualAsStoredObject, let realm = lhs.management?.realm, rhs.management?.realm === realm else { return false }
        return lhs.isSameObject(as: rhs)
    }

    /// Whether ``==`` compares the object by its row: a managed object whose class has a
    /// primary key, or whose realm is frozen.
    private var isEqualAsStoredObject: Bool {
        guard let management else { return false }
        return management.bound.layout.primaryKeyColumn != nil || management.realm.isFrozen
    }

    /// Whether `object` equals this object, as ``==`` compares them, for code written against
    /// `NSObject`'s method.
    ///
    /// ```swift
    /// dog.isEqual(realm.objects(Dog.self).first)
    /// ```
    open func isEqual(_ object: Any?) -> Bool {
        guard let object = object as? Object else { return false }
        return self == object
    }

    /// Hashes what ``==`` compares: the stored object for an object compared by its row, the
    /// instance otherwise. Adding an unmanaged object with a primary key to a realm changes its
    /// hash, as in RealmSwift: do not keep such an object in a set or dictionary across `add`.
    public func hash(into hasher: inout Hasher) {
        guard isEqualAsStoredObject, let management else {
            hasher.combine(ObjectIdentifier(self))
            return
        }
        hasher.combine(ObjectIdentifier(management.realm.coordinator))
        hasher.combine(management.bound.layout.classID)
        hasher.combine(management.key.rawValue)
    }

    /// `ClassName {` then `property = value;` a line each (linking objects left out), then `}`,
    /// as RealmSwift describes
    /// objects (values as ``DescriptionText`` writes them). Objects and collections inside it are
    /// described to ``DescriptionDepth/maximum`` levels, then as `<Maximum depth exceeded>`:
    /// links may form cycles.
    open var description: String {
        if management != nil && isInvalidated { return "[invalid object]" }
        let info = ClassInfo.of(Swift.type(of: self))
        let body = DescriptionDepth.nested {
            // Linking objects are not stored: RealmSwift leaves them out.
            info.fields.filter { !$0.isComputed }.map { field in
                "\t\(field.name) = \(DescriptionText.of(self[field.name]).replacingOccurrences(of: "\n", with: "\n\t"));"
            }.joined(separator: "\n")
        }
        return "\(info.className) {\n\(body)\n}"
    }
}
