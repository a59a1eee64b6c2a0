import Foundation

/// A dynamic object of a realm: its properties read from and written to its row by name.
extension DynamicObject {
    /// The column and stored property called `name`; traps for an unknown name.
    private func storedProperty(_ name: String, _ management: Management) -> (column: Int, property: StoredProperty) {
        let properties = management.bound.layout.storedClass.properties
        guard let column = properties.firstIndex(where: { $0.name == name }) else {
            burrowPreconditionFailure("Invalid property name '\(name)' for class '\(management.bound.layout.className)'.")
        }
        return (column, properties[column])
    }

    func managedValue(named name: String, _ management: Management) -> Any? {
        let (column, property) = storedProperty(name, management)
        if property.collection != nil { return collection(column: column, property: property) }
        switch property.kind {
        case .link:
            guard case .link(let key) = managedValue(column: column, kind: .link) else { return nil }
            return management.realm.dynamicObject(ObjectKey(key), of: property.objectClassName!)
        case .mixed:
            return AnyRealmValue._get(from: self, column: column).heldValue
        default:
            return managedValue(column: column, kind: property.kind).anyValue
        }
    }

    func setManagedValue(_ value: Any?, named name: String, _ management: Management) {
        let (column, property) = storedProperty(name, management)
        management.realm.setDynamicValue(value, column: column, property: property, on: self, management: management)
    }

    /// The live collection in `column`, typed by its elements.
    private func collection(column: Int, property: StoredProperty) -> Any {
        func read<Element: RealmCollectionValue>(_: Element.Type) -> Any {
            switch property.collection {
            case .map?: Map<String, Element>._get(from: self, column: column)
            case .set?: MutableSet<Element>._get(from: self, column: column)
            default: List<Element>._get(from: self, column: column)
            }
        }
        let optional = property.isOptional
        switch property.kind {
        case .link: return property.collection == .map ? read(DynamicObject?.self) : read(DynamicObject.self)
        case .mixed: return read(AnyRealmValue.self)
        case .bool: return optional ? read(Bool?.self) : read(Bool.self)
        case .int: return optional ? read(Int?.self) : read(Int.self)
        case .float: return optional ? read(Float?.self) : read(Float.self)
        case .double: return optional ? read(Double?.self) : read(Double.self)
        case .string: return optional ? read(String?.self) : read(String.self)
        case .data: return optional ? read(Data?.self) : read(Data.self)
        case .date: return optional ? read(Date?.self) : read(Date.self)
        case .uuid: return optional ? read(UUID?.self) : read(UUID.self)
        case .objectId: return optional ? read(ObjectId?.self) : read(ObjectId.self)
        case .decimal: return optional ? read(Decimal128?.self) : read(Decimal128.self)
        }
    }

    /// The collection property `name`, checked to be of `kind`, typed as a collection of
    /// dynamic objects. A collection of values comes typed so too, as RealmSwift gives it: its
    /// count and notifications work, and reading an element traps.
    func objectCollection(_ name: String, _ kind: _CollectionKind, as description: String) -> Any {
        guard let management else { burrowPreconditionFailure("\(description) of '\(name)' can only be read from an object of a realm.") }
        let (column, property) = storedProperty(name, management)
        guard property.collection == kind else {
            burrowPreconditionFailure("Property '\(management.bound.layout.className).\(name)' is not a \(description.lowercased()).")
        }
        guard property.kind != .link else { return collection(column: column, property: property) }
        // Not cached with the object's collections: those are typed by their values.
        switch kind {
        case .list: return List<DynamicObject>(managed: ManagedList(owner: self, column: column, targetType: nil))
        case .set: return MutableSet<DynamicObject>(managed: ManagedSet(owner: self, column: column, targetType: nil))
        case .map: return Map<String, DynamicObject?>(managed: ManagedMap(owner: self, column: column, targetType: nil))
        case .linkingObjects: burrowPreconditionFailure("Linking objects are read with dynamic access, not as a \(description).")
        }
    }
}

extension DynamicObject {
    /// The stored values of every column but collections, read from the row at once, in the
    /// order of the class's properties (collections read `.null`): for tools that read whole
    /// objects by the million, where a lookup by name per property would cost more than the read.
    package func storedColumnValues() -> [_PersistedValue] {
        guard let management else { burrowPreconditionFailure(TrapMessage.objectInvalidated) }
        let properties = management.bound.layout.storedClass.properties
        let reader = RowReader(currentRow())
        return properties.indices.map { column in
            properties[column].collection == nil ? reader.value(column, kind: properties[column].kind) : .null
        }
    }
}
