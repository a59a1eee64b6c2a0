/// An object read and written by property name, for code that knows a class only from the
/// file's schema: the old and new objects of a migration.
///
/// ```swift
/// migration.enumerateObjects(ofType: "Person") { oldObject, newObject in
///     let first = oldObject!["firstName"] as! String
///     newObject!["fullName"] = first + " " + (oldObject!["lastName"] as! String)
/// }
/// ```
/// A link reads as a `DynamicObject` of the linked class (or `nil`); a list or set reads as an
/// array of its elements and a map as a dictionary, and each is written the same way. An
/// `AnyRealmValue` property reads as an ``AnyRealmValue``. Other properties read as their Swift
/// values, integers of every width as `Int`. An unknown name or a value of the wrong type traps.
@dynamicMemberLookup
public final class DynamicObject: Object {
    /// Where the object's values live; `nil` for one made with `init()`, which holds nothing.
    let store: (any DynamicObjectStore)?
    let storedClassName: String
    let objectKey: ObjectKey

    /// An object of no class: every use of it traps. Dynamic objects come from a migration.
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

    private var liveStore: any DynamicObjectStore {
        guard let store else { preconditionFailure("A DynamicObject made with init() has no class and holds no values.") }
        return store
    }

    /// Reads or writes the property `key`; see ``DynamicObject``.
    public override subscript(key: String) -> Any? {
        get { liveStore.value(of: key, in: self) }
        set { liveStore.setValue(newValue, of: key, in: self) }
    }

    /// Reads or writes a property by member syntax: `person.name` is `person["name"]`.
    public subscript(dynamicMember member: String) -> Any? {
        get { self[member] }
        set { self[member] = newValue }
    }

    /// Whether `object` is a dynamic object of the same row, read through the same store.
    public override func isSameObject(as object: Object?) -> Bool {
        guard let other = object as? DynamicObject else { return false }
        return other === self || (store != nil && other.store === store && other.storedClassName == storedClassName
            && other.objectKey == objectKey)
    }

    public override func hash(into hasher: inout Hasher) {
        hasher.combine(storedClassName)
        hasher.combine(objectKey.rawValue)
    }

    /// The schema of the object's class as the file stores it.
    public override var objectSchema: ObjectSchema { liveStore.objectSchema(of: storedClassName) }

    public override var description: String {
        guard let store else { return "DynamicObject {}" }
        let names = store.objectSchema(of: storedClassName).properties.map(\.name)
        let fields = names.map { name -> String in
            let value = store.value(of: name, in: self)
            if let object = value as? DynamicObject { return "\t\(name) = \(object.storedClassName) \(object.objectKey.rawValue);" }
            return "\t\(name) = \(value.map { "\($0)" } ?? "nil");"
        }
        return "\(storedClassName) {\n\(fields.joined(separator: "\n"))\n}"
    }
}

/// Where ``DynamicObject``s read and write their values.
protocol DynamicObjectStore: AnyObject {
    func value(of property: String, in object: DynamicObject) -> Any?
    func setValue(_ value: Any?, of property: String, in object: DynamicObject)
    func objectSchema(of className: String) -> ObjectSchema
}
