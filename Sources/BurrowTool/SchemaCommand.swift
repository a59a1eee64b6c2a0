import Burrow
import Foundation

/// `burrow schema FILE [--json | --swift]`: the schema stored in the file, as text, as JSON,
/// or as Swift model classes that open the file as it is.
enum SchemaCommand {
    static let usage = """
        usage: burrow schema FILE [--json | --swift] [--key-file PATH]

        Prints the classes stored in FILE with their properties: type, optionality, index,
        primary key, and the class a link or collection of links points to.

          --json              the same as JSON
          --swift             Swift source declaring model classes (Object, EmbeddedObject,
                              @Persisted) that open FILE as it is
          --key-file PATH     the encryption key (64 bytes or 128 hex digits); or set
                              BURROW_ENCRYPTION_KEY

        examples:
          burrow schema app.realm
          burrow schema app.realm --swift > Sources/App/Models.swift

        Exit status: 0 printed, 2 misused or bad input.
        """

    static func run(_ arguments: [String]) -> Int32 {
        BurrowTool.running("schema") { () throws(ToolFailure) in
            let options = try CommandLineOptions(arguments, command: "schema", valued: ["key-file"], flags: ["json", "swift"])
            guard options.positional.count == 1 else { throw .usage("schema takes one FILE", command: "schema") }
            guard !(options.flags.contains("json") && options.flags.contains("swift")) else {
                throw .usage("--json and --swift exclude each other", command: "schema")
            }
            let file = try ToolFile(options.positional[0], options: options)
            let realm = try file.openReadOnly()
            let classes = realm.fileSchema.objectSchema.sorted { $0.className < $1.className }
            let version = (try? Realm.schemaVersion(at: file.url, encryptionKey: file.key)) ?? 0
            if options.flags.contains("swift") {
                print(SwiftModelSource(classes: classes).text, terminator: "")
            } else if options.flags.contains("json") {
                print(json(classes, version: version).json)
            } else {
                print(text(classes, version: version), terminator: "")
            }
            return 0
        }
    }

    /// One line a class, then one a property: `name  type  flags`.
    static func text(_ classes: [ObjectSchema], version: UInt64) -> String {
        var lines = ["schema version \(version), \(classes.count) \(classes.count == 1 ? "class" : "classes")"]
        for schema in classes {
            lines.append("")
            var heading = "class \(schema.className)"
            if schema.isEmbedded { heading += " (embedded)" }
            if let key = schema.primaryKeyProperty { heading += " (primary key \(key.name))" }
            lines.append(heading)
            let rows = (schema.properties + schema.computedProperties).map { property in
                (property.name, typeText(property), flags(property))
            }
            let nameWidth = rows.map(\.0.count).max() ?? 0, typeWidth = rows.map(\.1.count).max() ?? 0
            for (name, type, flags) in rows {
                let line = "  " + name.padding(toLength: nameWidth, withPad: " ", startingAt: 0) + "  "
                    + type.padding(toLength: typeWidth, withPad: " ", startingAt: 0) + (flags.isEmpty ? "" : "  " + flags)
                lines.append(String(line.reversed().drop(while: { $0 == " " }).reversed()))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `int`, `string?`, `Dog?`, `List<string>`, `Map<string, double?>`,
    /// `LinkingObjects<Person>.dogs`.
    static func typeText(_ property: Property) -> String {
        if property.type == .linkingObjects {
            return "LinkingObjects<\(property.objectClassName ?? "?")>.\(property.linkOriginPropertyName ?? "?")"
        }
        let element = (property.type == .object ? property.objectClassName ?? "object" : "\(property.type)") + (property.isOptional ? "?" : "")
        if property.isArray { return "List<\(element)>" }
        if property.isSet { return "Set<\(element)>" }
        if property.isMap { return "Map<string, \(element)>" }
        return element
    }

    private static func flags(_ property: Property) -> String {
        var flags: [String] = []
        if property.isPrimary { flags.append("primary key") }
        if property.isIndexed && !property.isPrimary { flags.append("indexed") }
        if property.columnName != property.name { flags.append("stored as \(property.columnName)") }
        return flags.joined(separator: ", ")
    }

    static func json(_ classes: [ObjectSchema], version: UInt64) -> ToolValue {
        .object([
            ("schemaVersion", .integer(Int64(clamping: version))),
            ("classes", .array(classes.map { schema in
                .object([
                    ("name", .string(schema.className)),
                    ("embedded", .bool(schema.isEmbedded)),
                    ("primaryKey", schema.primaryKeyProperty.map { .string($0.name) } ?? .null),
                    ("properties", .array((schema.properties + schema.computedProperties).map(json))),
                ])
            })),
        ])
    }

    private static func json(_ property: Property) -> ToolValue {
        let collection: ToolValue = property.isArray ? .string("list") : property.isSet ? .string("set") : property.isMap ? .string("map") : .null
        return .object([
            ("name", .string(property.name)),
            ("type", .string("\(property.type)")),
            ("optional", .bool(property.isOptional)),
            ("collection", collection),
            ("objectClass", property.objectClassName.map(ToolValue.string) ?? .null),
            ("originProperty", property.linkOriginPropertyName.map(ToolValue.string) ?? .null),
            ("indexed", .bool(property.isIndexed)),
            ("primaryKey", .bool(property.isPrimary)),
        ])
    }
}
