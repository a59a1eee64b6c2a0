import Burrow

/// Swift source declaring model classes for a stored schema: `final class X: Object` (or
/// `EmbeddedObject`) with a `@Persisted` property for each stored one, such that a
/// `Realm.Configuration(objectTypes:)` listing them opens the file without a migration.
struct SwiftModelSource {
    let classes: [ObjectSchema]

    var text: String {
        var lines = ["// Model classes for the schema of a Burrow file.", "import Burrow", "import Foundation"]
        for schema in classes {
            lines.append("")
            // A class is stored under its Swift name, so a name that is not an identifier
            // cannot be declared; its objects stay in the file, unread by these classes.
            guard Self.isIdentifier(schema.className) else {
                lines.append("// Class \(Self.literal(schema.className)) is not declared: its name is not a Swift identifier.")
                continue
            }
            lines.append("final class \(Self.declared(schema.className)): \(schema.isEmbedded ? "EmbeddedObject" : "Object") {")
            for property in schema.properties + schema.computedProperties {
                lines.append("    " + declaration(property))
            }
            // A property whose stored name is not an identifier is declared under another
            // name and mapped to the stored one.
            let mapped = schema.properties.filter { !Self.isIdentifier($0.columnName) }
            if !mapped.isEmpty {
                let pairs = mapped.map { "\(Self.literal(Self.identifier($0.columnName))): \(Self.literal($0.columnName))" }
                lines.append("    override class func propertiesMapping() -> [String: String] { [\(pairs.joined(separator: ", "))] }")
            }
            lines.append("}")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `@Persisted(primaryKey: true) var id: Int`, and so on.
    private func declaration(_ property: Property) -> String {
        let name = Self.declared(Self.identifier(property.columnName))
        if property.type == .linkingObjects {
            let origin = Self.literal(property.linkOriginPropertyName ?? "")
            return "@Persisted(originProperty: \(origin)) var \(name): LinkingObjects<\(Self.declared(property.objectClassName ?? ""))>"
        }
        var arguments: [String] = []
        if property.isPrimary { arguments.append("primaryKey: true") } else if property.isIndexed { arguments.append("indexed: true") }
        let wrapper = arguments.isEmpty ? "@Persisted" : "@Persisted(\(arguments.joined(separator: ", ")))"
        return "\(wrapper) var \(name): \(swiftType(property))"
    }

    private func swiftType(_ property: Property) -> String {
        var element: String
        switch property.type {
        case .int: element = "Int"
        case .bool: element = "Bool"
        case .float: element = "Float"
        case .double: element = "Double"
        case .string: element = "String"
        case .data: element = "Data"
        case .date: element = "Date"
        case .any: element = "AnyRealmValue"
        case .objectId: element = "ObjectId"
        case .decimal128: element = "Decimal128"
        case .UUID: element = "UUID"
        case .object, .linkingObjects: element = Self.declared(property.objectClassName ?? "")
        }
        // A mixed value holds its own nil; a single link is always optional; a list or set of
        // links never is.
        let isCollection = property.isArray || property.isSet || property.isMap
        if property.type == .object && !isCollection { return element + "?" }
        if property.type == .object && property.isMap { element += "?" }
        if property.isOptional && property.type != .any && property.type != .object { element += "?" }
        if property.isArray { return "List<\(element)>" }
        if property.isSet { return "MutableSet<\(element)>" }
        if property.isMap { return "Map<String, \(element)>" }
        return element
    }

    /// `name` when it is a Swift identifier; otherwise one made from it.
    static func identifier(_ name: String) -> String {
        var result = String(name.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
        if result.isEmpty || result.first!.isNumber { result = "_" + result }
        return result
    }

    static func isIdentifier(_ name: String) -> Bool { identifier(name) == name }

    /// `identifier` as written in a declaration: in backticks when it is a keyword.
    static func declared(_ identifier: String) -> String {
        keywords.contains(identifier) ? "`\(identifier)`" : identifier
    }

    private static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "func", "import", "init", "inout", "let", "operator", "protocol",
        "static", "struct", "subscript", "typealias", "var", "break", "case", "continue", "default", "defer", "do", "else",
        "fallthrough", "for", "guard", "if", "in", "repeat", "return", "switch", "where", "while", "as", "catch", "false", "is",
        "nil", "rethrows", "super", "self", "Self", "throw", "throws", "true", "try", "Any", "Type",
    ]

    /// `text` as a Swift string literal.
    static func literal(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
