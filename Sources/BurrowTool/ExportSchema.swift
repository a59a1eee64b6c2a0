import Burrow

/// The schema in a whole-file export's first line, read back: each class as `burrow schema
/// --json` prints it, checked as carefully as any other input.
enum ExportSchema {
    /// The classes of an export header's members.
    ///
    /// - Throws: ``ToolFailure`` (status 2) naming what is malformed.
    static func classes(from header: [(key: String, value: ToolValue)]) throws(ToolFailure) -> [ObjectSchema] {
        func malformed(_ what: String) -> ToolFailure { .input("the export's schema line: \(what)") }
        guard case .array(let classes)? = header.first(where: { $0.key == "classes" })?.value else { throw malformed("no classes") }
        var schemas: [ObjectSchema] = []
        for entry in classes {
            guard case .object(let members) = entry, case .string(let name)? = member("name", of: members) else { throw malformed("a class without a name") }
            guard case .array(let properties)? = member("properties", of: members) else { throw malformed("class \(name) has no properties") }
            var parsed: [Property] = []
            for property in properties {
                guard case .object(let fields) = property, case .string(let propertyName)? = member("name", of: fields),
                      case .string(let typeName)? = member("type", of: fields),
                      let type = propertyTypes[typeName] else { throw malformed("a property of \(name) has no name or a type Burrow does not store") }
                let collection: String? = if case .string(let kind)? = member("collection", of: fields) { kind } else { nil }
                guard collection == nil || ["list", "set", "map"].contains(collection!) else { throw malformed("\(name).\(propertyName) has an unknown collection") }
                let objectClass: String? = if case .string(let target)? = member("objectClass", of: fields) { target } else { nil }
                parsed.append(Property(name: propertyName, type: type, isOptional: member("optional", of: fields)?.isTrue == true,
                                       isIndexed: member("indexed", of: fields)?.isTrue == true, isPrimary: member("primaryKey", of: fields)?.isTrue == true,
                                       objectClassName: objectClass, isArray: collection == "list", isSet: collection == "set", isMap: collection == "map"))
            }
            schemas.append(ObjectSchema(className: name, properties: parsed, isEmbedded: member("embedded", of: members)?.isTrue == true))
        }
        return schemas
    }

    /// Refuses an export whose classes `existing` (the file's) has with other properties.
    ///
    /// - Throws: ``ToolFailure`` (status 2) naming the first difference.
    static func check(_ schemas: [ObjectSchema], against existing: Schema, file: String) throws(ToolFailure) {
        for schema in schemas {
            guard let held = existing[schema.className] else { continue }
            let signature = { (property: Property) in
                "\(property.name) \(SchemaCommand.typeText(property))\(property.isPrimary ? " primary key" : "")"
            }
            let given = schema.properties.map(signature), found = held.properties.map(signature)
            guard Set(given) == Set(found), schema.isEmbedded == held.isEmbedded else {
                let difference = Set(given).symmetricDifference(found).sorted().first ?? "embedded"
                throw .input("\(file) has a class \(schema.className) unlike the export's (\(difference)); import into a new file")
            }
        }
    }

    private static func member(_ name: String, of members: [(key: String, value: ToolValue)]) -> ToolValue? {
        members.first { $0.key == name }?.value
    }

    /// The type names `burrow schema --json` prints (``PropertyType``'s descriptions).
    private static let propertyTypes: [String: PropertyType] = Dictionary(uniqueKeysWithValues: [
        PropertyType.int, .bool, .float, .double, .string, .data, .date, .any, .object, .objectId, .decimal128, .UUID,
    ].map { ("\($0)", $0) })
}
