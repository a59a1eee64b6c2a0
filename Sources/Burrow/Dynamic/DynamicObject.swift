/// An object read and written by property name, for code that knows a class only from the
/// file's schema: the objects of ``Realm/dynamicObjects(_:)``, and the old and new objects of
/// a migration.
///
/// ```swift
/// for dog in realm.dynamicObjects("Dog").filter("age > 2") {
///     print(dog["name"] as! String, dog.age as! Int)
/// }
/// try realm.write { realm.dynamicObjects("Dog").first!["age"] = 4 }
/// ```
/// Read from a realm, a link reads as a `DynamicObject` of the linked class (or `nil`); a list
/// reads as a `List<DynamicObject>` for objects or a typed list (`List<Int>`, `List<String?>`…)
/// for values, a set as a `MutableSet` and a map as a `Map<String, …>`, all live. In a
/// migration, lists and sets read as arrays of their elements and maps as dictionaries.
/// Collections are written from an array (a dictionary for a map) or another collection;
/// links from a dynamic or model object of the linked class, or the values of a new one. An
/// `AnyRealmValue` property reads as the value it holds (`nil` for `.none`), as RealmSwift's
/// dynamic accessors read it, and is written from an ``AnyRealmValue`` or a value that fits
/// one. Other properties read as their
/// Swift values, integers of every width as `Int`. An unknown name or a value of the wrong
/// type traps.
@dynamicMemberLookup
public final class DynamicObject: Object {
    /// Where the object's values live; `nil` for one made with `init()`, which holds nothing.
    let store: (any DynamicObjectStore)?
    let storedClassName: String
    let objectKey: ObjectKey

    /// An object of no class: every use of it traps. Dynamic objects come from a realm
    /// (``Realm/dynamicObjects(_:)``, ``Realm/dynamicCreate(_:value:update:)``) or a migration.
    public required init() {
        store = nil
        storedClassName = ""
        objectKey = ObjectKey(0)
        super.init()
    }

    init(store: any DynamicObjectStore, className: String, key: ObjectKey) {
        self.store = store
        storedClassName = className
        objectKey = key
        super.init()
    }

    /// The store of a migration's object; traps for an object made with `init()`.
    private var migrationStore: any DynamicObjectStore {
        guard let store else { burrowPreconditionFailure("A DynamicObject made with init() has no class and holds no values.") }
        return store
    }

    /// Reads or writes the property `key`; see ``DynamicObject``.
    public override subscript(key: String) -> Any? {
        get {
            if let management { return managedValue(named: key, management) }
            let value = migrationStore.value(of: key, in: self)
            // An AnyRealmValue reads as the value it holds, as a managed one does.
            if let mixed = value as? AnyRealmValue { return mixed.heldValue }
            return value
        }
        set {
            if let management { return setManagedValue(newValue, named: key, management) }
            migrationStore.setValue(newValue, of: key, in: self)
        }
    }

    /// Reads or writes a property by member syntax: `person.name` is `person["name"]`.
    public subscript(dynamicMember member: String) -> Any? {
        get { self[member] }
        set { self[member] = newValue }
    }

    /// Whether `object` is a dynamic object of the same row, read through the same store.
    public override func isSameObject(as object: Object?) -> Bool {
        if management != nil { return super.isSameObject(as: object) }
        guard let other = object as? DynamicObject else { return false }
        return other === self || (store != nil && other.store === store && other.storedClassName == storedClassName
            && other.objectKey == objectKey)
    }

    public override func hash(into hasher: inout Hasher) {
        if management != nil { return super.hash(into: &hasher) }
        hasher.combine(storedClassName)
        hasher.combine(objectKey.rawValue)
    }

    /// The schema of the object's class as the file stores it.
    public override var objectSchema: ObjectSchema {
        if let management {
            management.realm.verifyThread()
            return management.bound.layout.storedClass.objectSchema
        }
        return migrationStore.objectSchema(of: storedClassName)
    }

    /// The name of the object's class in the file.
    var className: String { management?.bound.layout.className ?? storedClassName }

    /// The key of the object's row.
    var key: ObjectKey { management?.key ?? objectKey }

    /// `ClassName { property = value; ... }`, links as their class and object key.
    public override var description: String {
        guard store != nil || management != nil else { return "DynamicObject {}" }
        if isInvalidated { return "[invalid object]" }
        let fields = objectSchema.properties.map { property -> String in
            let value = self[property.name]
            if let object = value as? DynamicObject { return "\t\(property.name) = \(object.className) \(object.key.rawValue);" }
            let isCollection = property.isArray || property.isSet || property.isMap
            if isCollection, !(value is [Any]), !(value is [String: Any]), let items = value as? any Collection {
                return "\t\(property.name) = \(type(of: items)) (\(items.count) elements);"
            }
            return "\t\(property.name) = \(value.map { "\($0)" } ?? "nil");"
        }
        return "\(className) {\n\(fields.joined(separator: "\n"))\n}"
    }
}

/// Where ``DynamicObject``s read and write their values.
protocol DynamicObjectStore: AnyObject {
    func value(of property: String, in object: DynamicObject) -> Any?
    func setValue(_ value: Any?, of property: String, in object: DynamicObject)
    func objectSchema(of className: String) -> ObjectSchema
}
