import Foundation

// The stored form met by the model classes: a stored class made from a model class, its
// public schema, and how a model class differs from it. Storage never sees model classes;
// these live here, with the schema they read.
extension StoredClass {
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

    var objectSchema: ObjectSchema {
        // Linking objects are not stored: the model class, when this process has it, names them.
        let computed = ClassInfo.type(named: name).map { ClassInfo.of($0).objectSchema.computedProperties } ?? []
        return ObjectSchema(className: name, properties: properties.map {
            Property(name: $0.name, type: $0.kind.propertyType, isOptional: $0.isOptional && $0.kind != .mixed,
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
            guard let stored = property(storing: field) else {
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
        for stored in properties where !info.fields.contains(where: { !$0.isComputed && $0.columnName == stored.storedName }) {
            lines.append("Property '\(name).\(stored.name)' has been removed.")
        }
        return lines
    }

    /// The stored property that holds `field`: the one its column name names.
    func property(storing field: FieldInfo) -> StoredProperty? {
        properties.first { $0.storedName == field.columnName }
    }

    /// Whether `info` names some stored property otherwise than the file does (a column name
    /// mapped to a property of another name, or declared directly): the names change at open,
    /// the data does not.
    func isRenamed(by info: ClassInfo) -> Bool {
        info.fields.contains { field in
            guard !field.isComputed, let stored = property(storing: field) else { return false }
            return stored.name != field.name
        }
    }
}
