import LMDB
@_spi(Reflection) import Swift

/// One `@Persisted` field of a model class: where it sits in an instance and how to reach it,
/// with what its wrapper describes of it (``PersistedFieldDescription``: `field.kind`,
/// `field.valueOffset`, `field.linkedType`, …).
@dynamicMemberLookup
struct FieldInfo {
    /// The property name (the field name without the wrapper's leading underscore).
    let name: String
    /// The name the file records for it (``Object/propertiesMapping()``).
    let columnName: String
    /// Byte offset of the wrapper inside an instance, or of the reference to its box.
    let offset: Int
    /// For a field held in a box (``RealmProperty``): the wrapper's offset inside the box; 0
    /// for a wrapper inside the instance.
    let boxOffset: Int
    /// Typed operations on the wrapper.
    let accessor: any PersistedField.Type
    /// What the wrapper describes, with the class's declared primary key and indexes applied.
    let description: PersistedFieldDescription

    @inline(__always)
    subscript<Value>(dynamicMember member: KeyPath<PersistedFieldDescription, Value>) -> Value {
        description[keyPath: member]
    }

    /// Whether the property is computed rather than stored (`LinkingObjects`).
    var isComputed: Bool { description.collection == .linkingObjects }

    var property: Property {
        let field = description
        // An AnyRealmValue holds `.none` rather than nil: RealmSwift's schema calls it required.
        return Property(name: name, type: isComputed ? .linkingObjects : field.kind.propertyType,
                        isOptional: field.isOptional && !isComputed && field.kind != .mixed,
                        isIndexed: field.isIndexed || field.isPrimaryKey, isPrimary: field.isPrimaryKey,
                        objectClassName: field.linkedType.map(ClassInfo.storedName(of:)),
                        isArray: field.collection == .list, isSet: field.collection == .set, isMap: field.collection == .map,
                        linkOriginPropertyName: field.originProperty, columnName: columnName)
    }
}

/// The schema of a model class, discovered once per type by reflection and cached.
///
/// Discovery walks the stored fields of the class and its superclasses (declaration order,
/// superclass first) and keeps the `@Persisted` ones; plain and computed properties are not
/// stored.
final class ClassInfo: @unchecked Sendable {
    let type: ObjectBase.Type
    /// The unqualified class name, under which the class is stored.
    let className: String
    let fields: [FieldInfo]
    let fieldIndex: [String: Int]
    let primaryKeyField: Int?
    let objectSchema: ObjectSchema
    /// Whether the class is an ``EmbeddedObject``.
    let isEmbedded: Bool
    /// For a class known only from a file (read through ``DynamicObject``s), its stored form;
    /// such a class has no fields: its objects read their rows by property name.
    let dynamicStoredClass: StoredClass?
    var isDynamic: Bool { dynamicStoredClass != nil }

    private static let cache = Locked<[ObjectIdentifier: ClassInfo]>([:])
    /// Classes read by name, by stored form: realms of files with the same form share one, so
    /// that its bound classes and accessors are shared too.
    private static let dynamicInfos = Locked<[StoredClass: ClassInfo]>([:])
    /// Where each field lives in the rows of a stored form of the class.
    private let columnMaps = Locked<[StoredClass: [Int]]>([:])
    private let keyPathNames = KeyPathNameCache()

    /// The class `storedClass` read by name (``DynamicObject``s), one per stored form.
    static func dynamic(_ storedClass: StoredClass) -> ClassInfo {
        dynamicInfos.withLock { infos in
            if let known = infos[storedClass] { return known }
            let info = ClassInfo(dynamic: storedClass)
            infos[storedClass] = info
            return info
        }
    }

    /// Where each field lives in the rows of `storedClass`, or how it differs from the class.
    func columns(in storedClass: StoredClass) -> Result<[Int], SchemaDifferences> {
        if let known = columnMaps.withLock({ $0[storedClass] }) { return .success(known) }
        let differences = storedClass.differences(from: self)
        guard differences.isEmpty else { return .failure(SchemaDifferences(lines: differences)) }
        let stored = storedClass.properties
        let map = fields.indices.map { index in
            fields[index].isComputed ? LinkingObjectsColumn.column(ofField: index)
                                     : stored.firstIndex { $0.storedName == fields[index].columnName }!
        }
        columnMaps.withLock { $0[storedClass] = map }
        return .success(map)
    }

    /// The cached schema of `type`, discovering it on first use.
    static func of(_ type: ObjectBase.Type) -> ClassInfo {
        burrowPrecondition(type != DynamicObject.self,
                           "DynamicObject has no schema of its own: read a class by name with realm.dynamicObjects(\"ClassName\").")
        if let known = cache.withLock({ $0[ObjectIdentifier(type)] }) { return known }
        let discovered = ClassInfo(discovering: type)
        return cache.withLock { entries in
            if let raced = entries[ObjectIdentifier(type)] { return raced }
            entries[ObjectIdentifier(type)] = discovered
            return discovered
        }
    }

    private init(discovering type: ObjectBase.Type) {
        self.type = type
        className = Self.storedName(of: type)
        // Property access trusts that each stored property's key path is one immortal object,
        // which holds only for non-generic classes (see FieldOffsetCache).
        burrowPrecondition(!String(reflecting: type).contains("<"),
                           "Generic model classes are not supported: '\(String(reflecting: type))' must not be generic.")
        isEmbedded = Self.isEmbedded(type)
        dynamicStoredClass = nil
        let probe = type.init()
        let base = UnsafeRawPointer(Unmanaged.passUnretained(probe).toOpaque())
        let declaredKey = type.primaryKey()
        let indexedNames = Set(type.indexedProperties())
        let ignoredNames = Set(type.ignoredProperties())
        let columnNames = type.propertiesMapping()
        var fields: [FieldInfo] = []
        var plainNames: [String] = []
        _ = _forEachField(of: type, options: _EachFieldOptions(rawValue: 1 << 0)) { rawName, offset, fieldType, _ in
            let box = fieldType as? any PersistedBox.Type
            let fieldName = String(cString: rawName)
            guard let accessor = box?.persistedField ?? fieldType as? any PersistedField.Type else {
                plainNames.append(fieldName)
                return true
            }
            let name = fieldName.hasPrefix("_") ? String(fieldName.dropFirst()) : fieldName
            if ignoredNames.contains(name) { return true }
            let boxOffset = box?.storageOffset ?? 0
            let wrapper = boxOffset == 0 ? base + offset : (base + offset).load(as: UnsafeRawPointer.self) + boxOffset
            let description = accessor.describe(at: wrapper)
            var declared = description
            declared.isIndexed = declared.isIndexed || indexedNames.contains(name)
            declared.isPrimaryKey = declared.isPrimaryKey || name == declaredKey
            fields.append(FieldInfo(name: name, columnName: columnNames[name] ?? name, offset: offset, boxOffset: boxOffset,
                                    accessor: accessor, description: declared))
            return true
        }
        withExtendedLifetime(probe) {}
        Self.refuseLegacyDeclarations(of: className, persisted: fields.count, plain: plainNames, ignored: ignoredNames)
        for (role, names) in [("Primary key", declaredKey.map { [$0] } ?? []), ("Indexed", Array(indexedNames))] {
            for name in names where !fields.contains(where: { $0.name == name }) {
                burrowPreconditionFailure("\(role) property '\(name)' does not exist on object '\(className)'")
            }
        }
        self.fields = fields
        linkFields = fields.indices.filter { fields[$0].kind == .link && fields[$0].collection == nil }
        collectionFields = fields.indices.filter { [.list, .set, .map].contains(fields[$0].collection) }
        mixedFields = fields.indices.filter { fields[$0].kind == .mixed && fields[$0].collection == nil }
        storedFields = fields.indices.filter { !fields[$0].isComputed }
        fieldIndex = Dictionary(uniqueKeysWithValues: fields.enumerated().map { ($1.name, $0) })
        let primaryKeys = fields.indices.filter { fields[$0].isPrimaryKey }
        burrowPrecondition(primaryKeys.count <= 1,
                           "Class '\(className)' declares more than one primary key: \(primaryKeys.map { fields[$0].name }).")
        primaryKeyField = primaryKeys.first
        objectSchema = ObjectSchema(className: className, properties: fields.filter { !$0.isComputed }.map(\.property),
                                    computedProperties: fields.filter(\.isComputed).map(\.property), isEmbedded: isEmbedded)
        for field in fields { Self.validate(field, of: className) }
        burrowPrecondition(!isEmbedded || primaryKeyField == nil, "Embedded object '\(className)' cannot have a primary key.")
    }

    /// The stored form of the class, for a class the file has no table for yet: what a table
    /// made for it would hold (a class read by name is what the file described).
    var storedClassBeforeTable: StoredClass { dynamicStoredClass ?? StoredClass(id: 0, info: self) }

    /// The class `storedClass` of a file, read and written through ``DynamicObject``s.
    init(dynamic storedClass: StoredClass) {
        type = DynamicObject.self
        className = storedClass.name
        isEmbedded = storedClass.isEmbedded == true
        dynamicStoredClass = storedClass
        fields = []
        fieldIndex = [:]
        primaryKeyField = nil
        objectSchema = storedClass.objectSchema
        linkFields = []
        collectionFields = []
        mixedFields = []
        storedFields = []
    }

    /// Traps for a model whose stored properties are all plain ones (RealmSwift's legacy
    /// `@objc dynamic var` declarations): none would be stored, and every value written to
    /// such an object would be lost without a word.
    private static func refuseLegacyDeclarations(of className: String, persisted: Int, plain: [String], ignored: Set<String>) {
        let declared = legacyDeclarations(persisted: persisted, plain: plain, ignored: ignored)
        guard !declared.isEmpty else { return }
        burrowPreconditionFailure("Class '\(className)' has stored properties (\(declared.joined(separator: ", "))) but none is @Persisted: "
                                  + "Burrow stores only @Persisted properties, and RealmSwift's legacy declarations ('@objc dynamic var', "
                                  + "and collections declared with 'let', as 'let dogs = List<Dog>()') are not supported. Declare them as "
                                  + "'@Persisted var \(declared[0]) = …', or list them in ignoredProperties().")
    }

    /// The plain stored properties a model declares when none is `@Persisted` (RealmSwift's
    /// legacy declarations), leaving out Burrow's own fields and `ignored`; empty otherwise.
    private static func legacyDeclarations(persisted: Int, plain: [String], ignored: Set<String>) -> [String] {
        guard persisted == 0 else { return [] }
        return plain.filter { !baseFieldNames.contains($0) && !ignored.contains($0) }
    }

    /// Whether `type` is a model ``refuseLegacyDeclarations(of:persisted:plain:ignored:)``
    /// refuses, told from its fields' types alone: the default schema leaves such classes out,
    /// so that they trap only where they are used.
    static func hasOnlyLegacyDeclarations(_ type: ObjectBase.Type) -> Bool {
        var persisted = 0
        var plain: [String] = []
        _ = _forEachField(of: type, options: _EachFieldOptions(rawValue: 1 << 0)) { rawName, _, fieldType, _ in
            if fieldType is any PersistedBox.Type || fieldType is any PersistedField.Type {
                persisted += 1
            } else {
                plain.append(String(cString: rawName))
            }
            return true
        }
        return !legacyDeclarations(persisted: persisted, plain: plain, ignored: Set(type.ignoredProperties())).isEmpty
    }

    /// The stored fields every model class inherits from Burrow's own base classes.
    private static let baseFieldNames: Set<String> = {
        var names: Set<String> = []
        for base in [Object.self, EmbeddedObject.self] as [AnyClass] {
            _ = _forEachField(of: base, options: _EachFieldOptions(rawValue: 1 << 0)) { rawName, _, _, _ in
                names.insert(String(cString: rawName))
                return true
            }
        }
        return names
    }()

    /// Whether `type` descends from ``EmbeddedObject``.
    static func isEmbedded(_ type: ObjectBase.Type) -> Bool {
        var current: AnyClass? = type
        while let candidate = current {
            if candidate == EmbeddedObject.self { return true }
            current = _getSuperclass(candidate)
        }
        return false
    }

    /// A model class this process has used, or that one of those links to, by stored name.
    static func type(named name: String) -> ObjectBase.Type? {
        cache.withLock { entries in
            // Answers hold until another class is discovered.
            if namedTypes.count != entries.count { namedTypes = (entries.count, [:]) }
            if let known = namedTypes.types[name] { return known }
            let found = entries.values.first { $0.className == name }?.type
                ?? entries.values.lazy.flatMap(\.fields).compactMap(\.linkedType).first { storedName(of: $0) == name }
            namedTypes.types[name] = .some(found)
            return found
        }
    }

    /// ``type(named:)``'s answers, found or not, for the classes discovered so far (guarded by
    /// `cache`'s lock).
    nonisolated(unsafe) private static var namedTypes: (count: Int, types: [String: ObjectBase.Type?]) = (0, [:])

    /// The unqualified Swift name of `type`: `V1.Pet` and `V2.Pet` are both `Pet`.
    static func storedName(of type: ObjectBase.Type) -> String {
        let full = String(describing: type)
        return full.split(separator: ".").last.map(String.init) ?? full
    }

    private static func validate(_ field: FieldInfo, of className: String) {
        let typeName = "\(field.valueType)"
        burrowPrecondition(field.linkedType != DynamicObject.self,
                           "Property '\(className).\(field.name)' of type '\(typeName)' cannot hold DynamicObjects: link to a model class.")
        if field.isPrimaryKey {
            let allowed: Set<_StorageKind> = [.int, .string, .uuid, .objectId]
            burrowPrecondition(allowed.contains(field.kind),
                               "Property '\(className).\(field.name)' of type '\(typeName)' cannot be a primary key: only integers, String, UUID and ObjectId can.")
        }
        if field.isComputed {
            burrowPrecondition(field.originProperty?.isEmpty == false,
                               "Property '\(className).\(field.name)' of type '\(typeName)' needs @Persisted(originProperty:).")
        } else if field.collection != nil {
            burrowPrecondition(!field.isPrimaryKey && !field.isIndexed,
                               "Property '\(className).\(field.name)' of type '\(typeName)' cannot be a primary key or indexed.")
            if field.collection == .map {
                burrowPrecondition(field.kind != .link || field.isOptional,
                                   "Property '\(className).\(field.name)' of type '\(typeName)' must map to optional objects, as in Map<String, Dog?>.")
            } else {
                burrowPrecondition(field.kind != .link || !field.isOptional,
                                   "Property '\(className).\(field.name)' of type '\(typeName)' cannot hold nil: lists and sets of objects are never optional.")
            }
        } else if field.kind == .link {
            burrowPrecondition(field.isOptional,
                               "Property '\(className).\(field.name)' of type '\(typeName)' must be Optional: to-one links are always optional.")
        }
        if field.isIndexed {
            // An AnyRealmValue property may be declared indexed, as in RealmSwift; its queries
            // scan (an index of one kind per key would miss `5.0` for `== 5`).
            burrowPrecondition(field.kind.isIndexable || (field.kind == .mixed && field.collection == nil),
                               "Property '\(className).\(field.name)' of type '\(typeName)' cannot be indexed: only Bool, integers, String, Date, UUID, ObjectId and AnyRealmValue can.")
        }
    }

    /// The address of field `index` of `object`: inside it, or inside its box.
    @inline(__always)
    func pointer(to index: Int, in object: ObjectBase) -> UnsafeMutableRawPointer {
        let field = UnsafeMutableRawPointer(Unmanaged.passUnretained(object).toOpaque()) + fields[index].offset
        let boxOffset = fields[index].boxOffset
        return boxOffset == 0 ? field : field.load(as: UnsafeMutableRawPointer.self) + boxOffset
    }

    /// The value an unmanaged object holds in field `index`.
    @inline(__always)
    func unmanagedValue(_ index: Int, in object: ObjectBase) -> _PersistedValue {
        fields[index].accessor.persistedValue(at: pointer(to: index, in: object) + fields[index].valueOffset)
    }

    /// Stores `value` in field `index` of an unmanaged object.
    func setUnmanagedValue(_ value: _PersistedValue, _ index: Int, in object: ObjectBase) {
        fields[index].accessor.setValue(value, at: pointer(to: index, in: object) + fields[index].valueOffset)
    }

    /// The fields that are to-one links.
    let linkFields: [Int]
    /// The fields that hold lists, sets or maps.
    let collectionFields: [Int]
    /// The fields that hold an `AnyRealmValue`.
    let mixedFields: [Int]
    /// The fields stored in rows (all but `LinkingObjects`).
    let storedFields: [Int]

    /// Whether field `index` of `object` is still unmanaged.
    @inline(__always)
    func isUnmanaged(_ index: Int, in object: ObjectBase) -> Bool {
        pointer(to: index, in: object).load(as: Int.self) < 0
    }

    /// Points field `index` of `object` at `column` of its row: the wrapper's first word.
    @inline(__always)
    func manage(_ index: Int, column: Int, in object: ObjectBase) {
        pointer(to: index, in: object).storeBytes(of: column, as: Int.self)
        if fields[index].boxOffset != 0 {
            let field = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()) + fields[index].offset
            (field.load(as: AnyObject.self) as! any PersistedBox).attach(to: object)
        }
    }

    /// The name of the persisted property `keyPath` reads; traps for anything else.
    func propertyName(of keyPath: AnyKeyPath) -> String {
        guard let name = persistedPropertyName(of: keyPath) else {
            burrowPreconditionFailure("Key path \(keyPath) of '\(className)' is not a @Persisted property.")
        }
        return name
    }

    /// The name of the persisted property `keyPath` reads (`"age"`), or the names along a path
    /// through links to one (`"address.city"`, and `"friends.name"` for
    /// `\.friends.projectTo.name`), or `nil` for anything else: a computed property reading
    /// several, or none.
    ///
    /// Learnt once per key path by reading it from a probe whose fields report which one
    /// was read.
    func persistedPropertyName(of keyPath: AnyKeyPath) -> String? {
        if let known = keyPathNames[keyPath] { return known }
        let recorder = KeyPathRecorder()
        let probe = self.probe(recordingInto: recorder)
        KeyPathRecorder.$active.withValue(recorder) { _ = probe[keyPath: keyPath] }
        guard let name = Self.path(recorder.accessed, from: type) else { return nil }
        keyPathNames[keyPath] = name
        return name
    }

    /// An object of the class whose fields report their reads to `recorder`.
    func probe(recordingInto recorder: KeyPathRecorder) -> ObjectBase {
        let probe = type.init()
        for index in fields.indices { manage(index, column: index, in: probe) }
        probe.keyPathRecorder = recorder
        return probe
    }

    /// The dotted names of fields read one after the other from `root`, each past the link,
    /// list or set the one before it reads; `nil` when the reads do not form such a path.
    static func path(_ accessed: [(type: ObjectBase.Type, field: Int)], from root: ObjectBase.Type) -> String? {
        guard let first = accessed.first, first.type == root else { return nil }
        var names: [String] = []
        var expected: ObjectBase.Type? = root
        for (type, field) in accessed {
            guard let reached = expected, type == reached else { return nil }
            let info = ClassInfo.of(type).fields[field]
            names.append(info.name)
            expected = info.linkedType
        }
        return names.joined(separator: ".")
    }

    /// The classes of `types` and every class their links, lists, sets, maps and linking
    /// objects reach, each once, in the order met.
    static func closure(of types: [ObjectBase.Type]) -> [ClassInfo] {
        var seen = Set<ObjectIdentifier>()
        var ordered: [ClassInfo] = []
        var pending = types
        while let type = pending.first {
            pending.removeFirst()
            guard seen.insert(ObjectIdentifier(type)).inserted else { continue }
            let info = ClassInfo.of(type)
            ordered.append(info)
            pending.append(contentsOf: info.fields.compactMap(\.linkedType))
        }
        return ordered
    }

    /// The field called `name`, or a trap naming the class and the closest property.
    func field(named name: String) -> Int {
        if let index = fieldIndex[name] { return index }
        burrowPreconditionFailure("Invalid property name '\(name)' for class '\(className)'.")
    }
}

/// How model classes differ from a stored schema, one line a difference.
struct SchemaDifferences: Error {
    let lines: [String]

    /// RealmSwift's message for a file that needs a migration.
    func message(path: String) -> String {
        "Migration is required for '\(path)' due to the following errors:\n- " + lines.joined(separator: "\n- ")
    }
}
