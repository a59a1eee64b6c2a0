import Burrow
import Foundation

/// `burrow dump FILE [CLASS]`: prints every object of the file (or of one class), every
/// property and every collection element, through the dynamic API, read-only: a program
/// reading the file would read the same values.
///
/// Exit status: 0 printed, 1 the file cannot be opened or has no such class, 2 misused.
enum DumpCommand {
    static func run(_ arguments: [String]) -> Int32 {
        guard (1...2).contains(arguments.count), !arguments.contains(where: { $0.hasPrefix("-") }) else {
            BurrowTool.printError("burrow: dump takes FILE and an optional CLASS\n\n\(BurrowTool.usage)")
            return 2
        }
        guard let key = ToolEncryptionKey.read(for: "dump") else { return 2 }
        let realm: Realm
        do {
            realm = try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: arguments[0]), encryptionKey: key,
                                                                 readOnly: true, objectTypes: []))
        } catch {
            BurrowTool.printError("burrow dump: \(error.localizedDescription)")
            return 1
        }
        let schemas = realm.fileSchema.objectSchema.sorted { $0.className < $1.className }
        let chosen: [ObjectSchema]
        if arguments.count == 2 {
            guard let schema = schemas.first(where: { $0.className == arguments[1] }) else {
                BurrowTool.printError("burrow dump: \(arguments[0]) has no class '\(arguments[1])'")
                return 1
            }
            chosen = [schema]
        } else {
            // Embedded objects are printed inside their owners.
            chosen = schemas.filter { !$0.isEmbedded }
        }
        var output = OutputBuffer()
        for schema in chosen {
            let objects = realm.dynamicObjects(schema.className)
            output.line("\(schema.className): \(objects.count) objects")
            for object in objects { describe(object, schema: schema, depth: 1, into: &output) }
        }
        output.flush()
        return 0
    }

    /// Prints `object`'s properties; embedded objects inside it are printed in full, links to
    /// other objects by class (and primary key).
    private static func describe(_ object: DynamicObject, schema: ObjectSchema, depth: Int, into output: inout OutputBuffer) {
        let indent = String(repeating: "  ", count: depth)
        for property in schema.properties {
            let value = object[property.name]
            if property.isArray || property.isSet || property.isMap {
                let elements = elements(of: value)
                output.line("\(indent)\(property.name): \(elements.count) elements")
                for element in elements { output.line("\(indent)  \(element)") }
            } else if let linked = value as? DynamicObject {
                if linked.objectSchema.isEmbedded {
                    output.line("\(indent)\(property.name): \(linked.objectSchema.className) {")
                    describe(linked, schema: linked.objectSchema, depth: depth + 1, into: &output)
                    output.line("\(indent)}")
                } else {
                    output.line("\(indent)\(property.name): \(reference(to: linked))")
                }
            } else {
                output.line("\(indent)\(property.name): \(text(value))")
            }
        }
    }

    /// The elements of a list, set or map as text.
    private static func elements(of value: Any?) -> [String] {
        guard let collection = value as? any Sequence else { return [] }
        return collection.map { element in
            // A map's elements are its entries: a key and a value.
            let children = Mirror(reflecting: element).children
            if let key = children.first(where: { $0.label == "key" })?.value, let value = children.first(where: { $0.label == "value" }) {
                return "\(key): \(text(value.value))"
            }
            return text(element)
        }
    }

    /// `value` as text, optionals unwrapped and objects as references.
    private static func text(_ value: Any?) -> String {
        guard let value else { return "nil" }
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional { return mirror.children.first.map { text($0.value) } ?? "nil" }
        if let object = value as? DynamicObject { return reference(to: object) }
        return "\(value)"
    }

    private static func reference(to object: DynamicObject) -> String {
        let schema = object.objectSchema
        guard let primaryKey = schema.primaryKeyProperty else { return schema.className }
        return "\(schema.className)(\(primaryKey.name): \(object[primaryKey.name].map { "\($0)" } ?? "nil"))"
    }
}

/// Standard output, written in large pieces.
private struct OutputBuffer {
    private var pending = ""

    mutating func line(_ text: String) {
        pending += text
        pending += "\n"
        if pending.utf8.count > 1 << 16 { flush() }
    }

    mutating func flush() {
        FileHandle.standardOutput.write(Data(pending.utf8))
        pending = ""
    }
}
