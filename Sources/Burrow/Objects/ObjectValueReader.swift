import Foundation

/// Tells an `Optional` inside an `Any` apart from a value.
protocol OptionalValue {
    var isNil: Bool { get }
    /// The wrapped value, `nil` for none.
    var wrappedAny: Any? { get }
}

extension Optional: OptionalValue {
    var isNil: Bool { self == nil }
    var wrappedAny: Any? { self.map { $0 as Any } }
}

/// Applies loosely typed input (dictionaries, arrays, other objects) to an object's
/// properties, for `Object(value:)`, `create(_:value:update:)` and dynamic subscripts.
struct ObjectValueReader {
    let info: ClassInfo
    /// For `create(_:value:)`: the realm the values go to. Objects they hold that are
    /// unmanaged, embedded in another owner, or managed by another realm are copied, as
    /// RealmSwift's `create` copies them, instead of being linked (an unmanaged one stays
    /// unmanaged).
    let copyingInto: RealmCore?
    /// For `create`: the write a value that does not fit fails (it then throws from `write`),
    /// since the data is wrong, not the program. Without it such a value traps.
    let failingWrite: WriteState?
    /// The copies one `create` made, by the object copied: an object met twice (or in a
    /// cycle) is copied once. Only a reader that copies has them (a setter or a primary-key
    /// lookup makes none).
    let copies: CopiedObjects?

    /// A reader of values for `info`'s class; with `copyingInto`, one `create`'s, sharing
    /// `copies` with the readers of the objects it copies (new ones when `nil`).
    init(info: ClassInfo, copyingInto: RealmCore? = nil, failingWrite: WriteState? = nil, copies: CopiedObjects? = nil) {
        self.info = info
        self.copyingInto = copyingInto
        self.failingWrite = failingWrite
        self.copies = copies ?? (copyingInto == nil ? nil : CopiedObjects())
    }

    /// The copies of one `create`, shared by the readers of the objects it copies. Each
    /// original is kept with its copy: an accessor made while reading a collection could
    /// otherwise be freed and its address taken by the next one.
    final class CopiedObjects {
        private var byOriginal: [ObjectIdentifier: (original: ObjectBase, copy: ObjectBase)] = [:]

        subscript(original: ObjectBase) -> ObjectBase? {
            get { byOriginal[ObjectIdentifier(original)]?.copy }
            set { byOriginal[ObjectIdentifier(original)] = newValue.map { (original, $0) } }
        }
    }

    /// Sets the stored properties `value` mentions, as RealmSwift does: a dictionary's keys
    /// that name none (or name linking objects) are ignored, and an array lists the stored
    /// properties in order. With `isNew`, an array must not be longer than that list; without
    /// it (an update of a stored object), the primary key is left as it is.
    func apply(_ value: Any, to object: ObjectBase, isNew: Bool) {
        switch value {
        case let dictionary as [String: Any]:
            for index in info.storedFields where isNew || index != info.primaryKeyField {
                guard let propertyValue = dictionary[info.fields[index].name] else { continue }
                set(propertyValue, field: index, on: object)
            }
        case let array as [Any]:
            guard array.count <= info.storedFields.count else {
                return refuse("Invalid array input: \(array.count) values for \(info.storedFields.count) properties of '\(info.className)'.")
            }
            for (position, propertyValue) in array.enumerated() where isNew || info.storedFields[position] != info.primaryKeyField {
                set(propertyValue, field: info.storedFields[position], on: object)
            }
        case let other as Object:
            for index in info.storedFields where isNew || index != info.primaryKeyField {
                let name = info.fields[index].name
                guard other.objectSchema[name] != nil else { continue }
                set(other[name] as Any, field: index, on: object)
            }
        default:
            refuse("Invalid value '\(value)' to initialize an object of type '\(info.className)': expected a dictionary, an array or an object.")
        }
    }

    /// The primary key named in `value`, if it names one.
    func primaryKey(in value: Any) -> _PersistedValue? {
        guard let index = info.primaryKeyField else { return nil }
        let field = info.fields[index]
        let raw: Any? = switch value {
        case let dictionary as [String: Any]: dictionary[field.name]
        case let array as [Any]: info.storedFields.firstIndex(of: index).flatMap { $0 < array.count ? array[$0] : nil }
        case let other as Object: other.objectSchema[field.name] == nil ? nil : other[field.name] as Any
        default: nil
        }
        return raw.flatMap { converted($0, field: index) }
    }

    /// Sets field `index` of `object` from a loosely typed value; traps when it does not fit.
    func set(_ value: Any, field index: Int, on object: ObjectBase) {
        // An optional inside `Any` (a dictionary of `[String: Any?]`, another object's
        // optional property) stands for its value, or for nil.
        if StoredValueConversion.mayWrapNil(Swift.type(of: value)), let optional = value as? any OptionalValue {
            return set(optional.wrappedAny ?? NSNull(), field: index, on: object)
        }
        let field = info.fields[index]
        burrowPrecondition(!field.isComputed,
                           "LinkingObjects are read-only: change the links of the objects instead ('\(info.className).\(field.name)').")
        if field.collection == .list, let items = value as? [Any], updateEmbeddedList(items, field: index, of: object) { return }
        if field.collection != nil {
            // `nil` for a collection is an empty one, as RealmSwift reads it.
            var input: Any = value
            if value is NSNull { input = field.collection == .map ? [String: Any]() as Any : [Any]() as Any }
            // Another map (of other optionality, or managed) gives its entries.
            if field.collection == .map, let map = value as? any _UnmanagedMap { input = map.entriesByKey }
            if field.linkedType != nil, field.collection != .map, !(value is [Any]), let sequence = value as? any Sequence {
                // Another object's list or set, whose objects may need copying.
                input = Self.elements(of: sequence)
            }
            if let linkedType = field.linkedType, let items = input as? [Any] {
                input = items.map { linkedObject($0, of: linkedType, field: index) as Any }
            } else if let linkedType = field.linkedType, let entries = input as? [String: Any] {
                input = entries.mapValues { linkedObject($0, of: linkedType, field: index) as Any }
            }
            let column = object.management?.bound.fieldColumns[index]
            guard field.accessor.assign(input, to: object, column: column, at: info.pointer(to: index, in: object) + field.valueOffset) else {
                return refuse(invalidValueMessage(value, field: index))
            }
            return
        }
        if field.kind == .mixed {
            // An AnyRealmValue may hold an unmanaged object: store the value itself.
            let column = object.management?.bound.fieldColumns[index]
            guard field.accessor.assign(value, to: object, column: column, at: info.pointer(to: index, in: object) + field.valueOffset) else {
                return refuse("Invalid value '\(value)' of type '\(Swift.type(of: value))' for 'AnyRealmValue' property '\(info.className).\(field.name)'.")
            }
            return
        }
        if let linkedType = field.linkedType {
            if updateLinkedEmbeddedObject(value, field: index, of: object) { return }
            let target = linkedObject(value, of: linkedType, field: index)
            if object.management != nil {
                object.setLinkedObject(target, column: object.management!.bound.fieldColumns[index])
            } else {
                info.fields[index].accessor.setLinkedObject(target, at: info.pointer(to: index, in: object) + info.fields[index].valueOffset)
            }
            return
        }
        guard let converted = converted(value, field: index) else { return }
        if let management = object.management {
            object.setManagedValue(converted, column: management.bound.fieldColumns[index])
        } else {
            info.setUnmanagedValue(converted, index, in: object)
        }
    }

    /// The object a link field gets from `value`: an object of the linked class, `nil`, or a
    /// dictionary or array describing a new one.
    private func linkedObject(_ value: Any, of type: ObjectBase.Type, field index: Int) -> ObjectBase? {
        if value is NSNull { return nil }
        if let optional = value as? any OptionalValue, optional.isNil { return nil }
        if let object = value as? ObjectBase ?? (value as? any _Persistable)?._linkedObject, Self.isKind(object, of: type) {
            guard let realm = copyingInto else { return object }
            if let management = object.management, management.realm === realm, !management.bound.info.isEmbedded { return object }
            if let copied = copies?[object] { return copied }
            let copyType = Swift.type(of: object)
            let copy = copyType.init()
            copies?[object] = copy
            ObjectValueReader(info: ClassInfo.of(copyType), copyingInto: realm, failingWrite: failingWrite, copies: copies)
                .apply(object, to: copy, isNew: true)
            return copy
        }
        if value is [String: Any] || value is [Any] {
            let created = type.init()
            ObjectValueReader(info: ClassInfo.of(type), copyingInto: copyingInto, failingWrite: failingWrite, copies: copies)
                .apply(value, to: created, isNew: true)
            return created
        }
        refuse(invalidValueMessage(value, field: index))
        return nil
    }

    private static func elements<S: Sequence>(of sequence: S) -> [Any] { sequence.map { $0 } }

    private static func isKind(_ object: ObjectBase, of type: ObjectBase.Type) -> Bool {
        var current: AnyClass? = Swift.type(of: object)
        while let candidate = current {
            if candidate == type { return true }
            current = _getSuperclass(candidate)
        }
        return false
    }

    /// `value` in the storage form of field `index`; traps when it does not fit.
    func convert(_ value: Any, field index: Int) -> _PersistedValue {
        guard let converted = info.fields[index].accessor.convert(value) else {
            burrowPreconditionFailure(invalidValueMessage(value, field: index))
        }
        return converted
    }

    /// `value` in the storage form of field `index`, or `nil` (refused) when it does not fit.
    private func converted(_ value: Any, field index: Int) -> _PersistedValue? {
        guard let converted = info.fields[index].accessor.convert(value) else {
            refuse(invalidValueMessage(value, field: index))
            return nil
        }
        return converted
    }

    private func invalidValueMessage(_ value: Any, field index: Int) -> String {
        let field = info.fields[index]
        return "Invalid value '\(value)' of type '\(type(of: value))' for '\(field.valueType)' property '\(info.className).\(field.name)'."
    }

    /// A value that does not fit: fails the write of `create` (the first failure is the one
    /// thrown), or traps outside one.
    private func refuse(_ message: String) {
        guard let write = failingWrite else { burrowPreconditionFailure(message) }
        if write.failure == nil { write.failure = Realm.Error(.invalidValue, message) }
    }
}
