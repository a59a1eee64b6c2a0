import Foundation

/// The schema as stored in a file's metadata: classes and properties with stable numeric ids.
///
/// Databases are named by these ids (`t<class>`, `i<class>.<property>`, `p<class>`), never by
/// class or property names, so names can change without touching data.
struct StoredSchema: Codable, Equatable, Sendable {
    var classes: [StoredClass] = []
    var nextClassID: UInt32 = 1

    func storedClass(named name: String) -> StoredClass? {
        classes.first { $0.name == name }
    }

    func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // Encoding plain value types cannot fail.
        return try! encoder.encode(self)
    }

    static func decode(_ bytes: some Sequence<UInt8>) throws -> StoredSchema {
        try JSONDecoder().decode(StoredSchema.self, from: Data(bytes))
    }
}

/// One stored class: its id, name and properties in column order.
struct StoredClass: Codable, Equatable, Sendable {
    var id: UInt32
    var name: String
    var properties: [StoredProperty]
    var nextPropertyID: UInt32
    /// Whether the class holds embedded objects, deleted with their owner.
    var isEmbedded: Bool? = nil
    /// Whether object keys are the bits of the primary key; `nil`: when the primary key is a
    /// non-optional integer. A migration that changes the primary key sets it to `false`: the
    /// class keeps its object keys (so no link to it changes) and looks its primary key up in
    /// its primary-key database.
    var primaryKeyIsObjectKey: Bool? = nil

    /// A stored class from its parts.
    init(id: UInt32, name: String, properties: [StoredProperty], nextPropertyID: UInt32) {
        self.id = id
        self.name = name
        self.properties = properties
        self.nextPropertyID = nextPropertyID
    }

    /// The schema of a model class, as a new stored class with id `id`.
    init(id: UInt32, info: ClassInfo) {
        self.id = id
        name = info.className
        isEmbedded = info.isEmbedded ? true : nil
        properties = info.fields.enumerated().filter { !$0.element.isComputed }.map { index, field in
            StoredProperty(id: UInt32(index + 1), name: field.name, kind: field.kind, isOptional: field.isOptional,
                           isIndexed: field.isIndexed, isPrimary: field.isPrimaryKey,
                           objectClassName: field.linkedType.map(ClassInfo.storedName(of:)), collection: field.collection,
                           columnName: field.columnName == field.name ? nil : field.columnName)
        }
        nextPropertyID = (properties.map(\.id).max() ?? 0) + 1
    }

    var primaryKeyColumn: Int? { properties.firstIndex(where: \.isPrimary) }

    /// Whether object keys are the primary key's order-preserving bits.
    var keysArePrimaryKeys: Bool {
        guard let primary = primaryKeyColumn.map({ properties[$0] }) else { return false }
        return primaryKeyIsObjectKey ?? (primary.kind == .int && !primary.isOptional)
    }

    var objectSchema: ObjectSchema {
        // Linking objects are not stored: the model class, when this process has it, names them.
        let computed = ClassInfo.type(named: name).map { ClassInfo.of($0).objectSchema.computedProperties } ?? []
        return ObjectSchema(className: name, properties: properties.map {
            Property(name: $0.name, type: $0.kind.propertyType, isOptional: $0.isOptional,
                     isIndexed: $0.isIndexed || $0.isPrimary, isPrimary: $0.isPrimary, objectClassName: $0.objectClassName,
                     isArray: $0.collection == .list, isSet: $0.collection == .set, isMap: $0.collection == .map,
                     columnName: $0.columnName)
        }, computedProperties: computed, isEmbedded: isEmbedded == true)
    }

    /// How the model class `info` differs from this stored class, one line a difference;
    /// empty when they match (property order may differ). Without `includingIndexes`, only the
    /// differences that need a migration: an index is added or removed at open.
    func differences(from info: ClassInfo, includingIndexes: Bool = true) -> [String] {
        var lines: [String] = []
        if (isEmbedded ?? false) != info.isEmbedded {
            lines.append("Class '\(name)' has been made \(info.isEmbedded ? "embedded" : "top-level").")
        }
        for field in info.fields where !field.isComputed {
            guard let stored = properties.first(where: { $0.name == field.name }) else {
                lines.append("Property '\(name).\(field.name)' has been added.")
                continue
            }
            let linkedClass = field.linkedType.map(ClassInfo.storedName(of:))
            if stored.kind != field.kind || stored.objectClassName != linkedClass || stored.collection != field.collection {
                lines.append("Property '\(name).\(field.name)' has been changed from '\(stored.objectClassName ?? "\(stored.kind.propertyType)")' to '\(linkedClass ?? "\(field.kind.propertyType)")'.")
            }
            if stored.isOptional != field.isOptional {
                lines.append("Property '\(name).\(field.name)' has been made \(field.isOptional ? "optional" : "required").")
            }
            if stored.isPrimary != field.isPrimaryKey {
                lines.append(field.isPrimaryKey
                    ? "Primary key property '\(name).\(field.name)' has been added."
                    : "Primary key property '\(name).\(field.name)' has been removed.")
            }
            if includingIndexes && stored.isIndexed != field.isIndexed {
                lines.append("Property '\(name).\(field.name)' has been made \(field.isIndexed ? "indexed" : "unindexed").")
            }
        }
        for stored in properties where info.fieldIndex[stored.name].map({ info.fields[$0].isComputed }) ?? true {
            lines.append("Property '\(name).\(stored.name)' has been removed.")
        }
        return lines
    }
}

/// One stored property.
struct StoredProperty: Codable, Equatable, Sendable {
    var id: UInt32
    var name: String
    var kind: _StorageKind
    var isOptional: Bool
    var isIndexed: Bool
    var isPrimary: Bool
    /// The linked class of a link property, or of a list of objects.
    var objectClassName: String? = nil
    /// The collection the property holds, if any (its `kind` is then its elements').
    var collection: _CollectionKind? = nil
    /// The name recorded for the property when its class maps it to another.
    var columnName: String? = nil
}
