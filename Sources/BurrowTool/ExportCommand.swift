import Burrow
import Foundation

/// `burrow export FILE [--class C] [--format jsonl|json|csv] [--output PATH]`: every object of
/// a class, or of the whole file, streamed: one object is read, printed and let go at a time.
enum ExportCommand {
    static let usage = """
        usage: burrow export FILE [--class CLASS] [--format jsonl|json|csv] [--output PATH]
                              [--key-file PATH]

        Writes every object of FILE, read-only, in one snapshot, objects of a class with a
        primary key in its order, others in the order they were added:

          without --class     the whole file as JSON lines: a first line with the schema, then a
                              line {"class": ..., "object": {...}} per object (embedded objects
                              inside their owners); burrow import FILE2 EXPORT makes FILE2 again
          --class CLASS       the objects of CLASS alone, as query prints them: jsonl (default),
                              json (one array) or csv (a header row, then a row per object)
          --output PATH       write to PATH (created, or replaced) instead of standard output
          --key-file PATH     the encryption key (64 bytes or 128 hex digits); or set
                              BURROW_ENCRYPTION_KEY
          --quiet             no progress line on a terminal

        Links print as the target's primary key, Data as base64, dates in ISO 8601 (UTC).

        examples:
          burrow export app.realm > app.jsonl
          burrow export app.realm --class Order --format csv --output orders.csv

        Exit status: 0 written, 1 failed writing, 2 misused or bad input.
        """

    /// The first line of a whole-file export names it so: `{"burrow-export":1,...}`.
    static let headerKey = "burrow-export"

    static func run(_ arguments: [String]) -> Int32 {
        BurrowTool.running("export") { () throws(ToolFailure) in
            let options = try CommandLineOptions(arguments, command: "export", valued: ["class", "format", "output", "key-file"], flags: ["quiet"])
            guard options.positional.count == 1 else { throw .usage("export takes one FILE", command: "export") }
            let format: ObjectPrinter.Format
            do throws(CommandLineOptions.UsageError) {
                format = ObjectPrinter.Format(rawValue: try options.choice("format", of: ["jsonl", "json", "csv"], default: "jsonl"))!
            } catch {
                throw .usage(error.message, command: "export")
            }
            let file = try ToolFile(options.positional[0], options: options)
            let realm = try file.openReadOnly()
            var output = try ToolOutput(path: options.string("output"))
            var progress = Progress(label: "exported", quiet: options.flags.contains("quiet"))
            if let className = options.string("class") {
                let schema = try file.objectSchema(className, in: realm)
                var printer = ObjectPrinter(format: format, properties: schema.properties, output: output)
                printer.begin()
                for object in ordered(realm, schema) {
                    printer.print(object)
                    progress.step()
                }
                printer.end()
                output = printer.output
            } else {
                guard format == .jsonl else { throw .usage("a whole-file export is JSON lines; give --class for json or csv", command: "export") }
                let classes = realm.fileSchema.objectSchema.sorted { $0.className < $1.className }
                var header = ToolValue.object([(headerKey, .integer(1))] + schemaMembers(classes, realm: realm, file: file)).json
                header += "\n"
                output.write(header)
                for schema in classes where !schema.isEmbedded {
                    let prefix = Array(("{\"class\":" + ToolValue.string(schema.className).json + ",\"object\":").utf8)
                    let columns = ObjectRendering.columns(of: schema.properties, in: schema)
                    for object in ordered(realm, schema) {
                        let value = ObjectRendering.render(object, properties: schema.properties, columns: columns)
                        output.write { bytes in
                            bytes.append(contentsOf: prefix)
                            value.appendJSON(to: &bytes)
                            bytes.append(contentsOf: "}\n".utf8)
                        }
                        progress.step()
                    }
                }
            }
            try output.finish()
            progress.finish()
            return 0
        }
    }

    /// The objects of `schema`'s class: by primary key when it has one, so that an import of
    /// the export (which may create a link's target before its own line) exports the same.
    static func ordered(_ realm: Realm, _ schema: ObjectSchema) -> Results<DynamicObject> {
        let objects = realm.dynamicObjects(schema.className)
        return schema.primaryKeyProperty.map { objects.sorted(byKeyPath: $0.name) } ?? objects
    }

    private static func schemaMembers(_ classes: [ObjectSchema], realm: Realm, file: ToolFile) -> [(key: String, value: ToolValue)] {
        let version = (try? Realm.schemaVersion(at: file.url, encryptionKey: file.key)) ?? 0
        guard case .object(let members) = SchemaCommand.json(classes, version: version) else { return [] }
        return members
    }
}
