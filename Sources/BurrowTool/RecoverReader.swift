import Burrow
import Foundation

/// The child process of `burrow recover`: reads a damaged file and prints what it can as a
/// whole-file export, a class's object count before its objects and each object's position
/// with it, from a resume point the parent gives. Damage that LMDB or Burrow meets ends this
/// process (an assertion, a fault, a trap); the parent starts another past the object that
/// ended it.
///
/// Lines: the export header (`{"burrow-export":1,...}`); `{"count":N,"class":C}` before a
/// class's objects; `{"class":C,"index":I,"object":{...}}` per object.
enum RecoverReader {
    static let command = "recover-read"

    /// `recover-read FILE [--class-index C] [--object-index I] [--row-order C,...]`.
    static func run(_ arguments: [String]) -> Int32 {
        BurrowTool.running(command) { () throws(ToolFailure) in
            let options = try CommandLineOptions(arguments, command: command, valued: ["key-file", "class-index", "object-index", "row-order"])
            // Classes read in the order of their rows rather than of their primary key index.
            let rowOrder = Set((options.string("row-order") ?? "").split(separator: ",").compactMap { Int($0) })
            guard options.positional.count == 1 else { throw .usage("recover-read takes FILE", command: command) }
            let startClass: Int, startObject: Int
            do throws(CommandLineOptions.UsageError) {
                startClass = try options.integer("class-index", default: 0, in: 0...Int.max)
                startObject = try options.integer("object-index", default: 0, in: 0...Int.max)
            } catch {
                throw .usage(error.message, command: command)
            }
            let file = try ToolFile(options.positional[0], options: options)
            let realm = try file.openReadOnly()
            let classes = realm.fileSchema.objectSchema.sorted { $0.className < $1.className }
            var output = ToolOutput()
            if startClass == 0 && startObject == 0 {
                guard case .object(let members) = SchemaCommand.json(classes, version: 0) else { return 1 }
                output.write(ToolValue.object([(ExportCommand.headerKey, .integer(1))] + members).json + "\n")
                output.flush()
            }
            let topLevel = classes.filter { !$0.isEmbedded }
            for (classIndex, schema) in topLevel.enumerated() where classIndex >= startClass {
                // The count first, from the table's statistics: listing the objects is what
                // damage may stop, and the parent must know which class that was.
                let name = ToolValue.string(schema.className).json
                output.write("{\"count\":\(realm.dynamicObjects(schema.className).count),\"class\":\(name)}\n")
                output.flush()
                // By primary key when the class has one: the index is listed, and each row read
                // on its own, so damage among the rows costs only the objects it holds.
                let objects = rowOrder.contains(classIndex) ? realm.dynamicObjects(schema.className) : ExportCommand.ordered(realm, schema)
                let first = classIndex == startClass ? startObject : 0
                let columns = ObjectRendering.columns(of: schema.properties, in: schema)
                guard first < objects.count else { continue }
                for index in first..<objects.count {
                    let value = ObjectRendering.render(objects[index], properties: schema.properties, columns: columns)
                    output.write { bytes in
                        bytes.append(contentsOf: "{\"class\":\(name),\"index\":\(index),\"object\":".utf8)
                        value.appendJSON(to: &bytes)
                        bytes.append(contentsOf: "}\n".utf8)
                    }
                    // Each object is out before the next is read: a crash loses only the one
                    // being read.
                    output.flush()
                }
            }
            try output.finish()
            return 0
        }
    }
}
