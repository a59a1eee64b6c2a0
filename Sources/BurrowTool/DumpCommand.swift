import Burrow
import Foundation

/// `burrow dump FILE [CLASS]`: prints every object of the file (or of one class), every
/// property and every collection element, through the dynamic API, read-only: a program
/// reading the file would read the same values.
///
/// Exit status: 0 printed, 2 misused or bad input (the file cannot be opened, no such class).
enum DumpCommand {
    static func run(_ arguments: [String]) -> Int32 {
        BurrowTool.running("dump") { () throws(ToolFailure) in
            let options = try CommandLineOptions(arguments, command: "dump", valued: ["key-file"])
            guard (1...2).contains(options.positional.count) else { throw .usage("dump takes FILE and an optional CLASS", command: "dump") }
            let file = try ToolFile(options.positional[0], options: options)
            let realm = try file.openReadOnly()
            let chosen: [ObjectSchema]
            if options.positional.count == 2 {
                chosen = [try file.objectSchema(options.positional[1], in: realm)]
            } else {
                // Embedded objects are printed inside their owners.
                chosen = realm.fileSchema.objectSchema.sorted { $0.className < $1.className }.filter { !$0.isEmbedded }
            }
            var output = ToolOutput()
            for schema in chosen {
                let objects = realm.dynamicObjects(schema.className)
                output.write("\(schema.className): \(objects.count) objects\n")
                for object in objects { describe(object, schema: schema, depth: 1, into: &output) }
            }
            try output.finish()
            return 0
        }
    }

    /// Prints `object`'s properties; embedded objects inside it are printed in full, links to
    /// other objects by class (and primary key).
    private static func describe(_ object: DynamicObject, schema: ObjectSchema, depth: Int, into output: inout ToolOutput) {
        let indent = String(repeating: "  ", count: depth)
        for property in schema.properties {
            let value = object[property.name]
            if property.isArray || property.isSet || property.isMap {
                let elements = elements(of: value)
                output.write("\(indent)\(property.name): \(elements.count) elements\n")
                for element in elements { output.write("\(indent)  \(element)\n") }
            } else if let linked = value as? DynamicObject {
                if linked.objectSchema.isEmbedded {
                    output.write("\(indent)\(property.name): \(linked.objectSchema.className) {\n")
                    describe(linked, schema: linked.objectSchema, depth: depth + 1, into: &output)
                    output.write("\(indent)}\n")
                } else {
                    output.write("\(indent)\(property.name): \(reference(to: linked))\n")
                }
            } else {
                output.write("\(indent)\(property.name): \(text(value))\n")
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

    /// `value` as text: optionals unwrapped, objects as references, `Data` as base64, dates
    /// in ISO 8601.
    private static func text(_ value: Any?) -> String {
        guard let value else { return "nil" }
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional { return mirror.children.first.map { text($0.value) } ?? "nil" }
        if let object = value as? DynamicObject { return reference(to: object) }
        return ObjectRendering.element(value).plainText
    }

    /// A linked object: its class and primary key, or its class and values when the class has
    /// no primary key.
    private static func reference(to object: DynamicObject) -> String {
        let schema = object.objectSchema
        guard let primaryKey = schema.primaryKeyProperty else { return "\(schema.className) \(ObjectRendering.element(object).json)" }
        return "\(schema.className)(\(primaryKey.name): \(text(object[primaryKey.name])))"
    }
}
