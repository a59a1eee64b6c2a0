import Burrow
import Foundation

/// The child process of `burrow recover`: reads a damaged file and prints what it can as a
/// whole-file export, a class's object count before its objects and each object's position
/// with it, from a resume point the parent gives. Damage that LMDB or Burrow meets ends this
/// process (an assertion, a fault, a trap); the parent starts another past the object that
/// ended it.
///
/// A class is read by its primary key index (each row on its own), or, named in `--key-order`,
/// in the order of its object keys, from `--from-key`, a seek at a time: a seek past a damaged
/// page of rows never reads it. `--probe` only seeks: it names the first object at or past
/// `--from-key`, if the seek gets through.
///
/// Lines: the export header (`{"burrow-export":1,...}`); `{"count":N,"class":C}` before a
/// class's objects; `{"class":C,"index":I,"object":{...}}` per object, with `"key":"K"` before
/// `"object"` in key order; for a probe, `{"probe":"K","found":{"key":"K2","primaryKey":P}}`
/// (the first object at or past K) or `"found":null` (none).
enum RecoverReader {
    static let command = "recover-read"

    /// `recover-read FILE [--class-index C] [--object-index I] [--key-order C,...] [--from-key K] [--probe]`.
    static func run(_ arguments: [String]) -> Int32 {
        BurrowTool.running(command) { () throws(ToolFailure) in
            let options = try CommandLineOptions(arguments, command: command, valued: ["key-file", "class-index", "object-index", "key-order", "from-key"],
                                                 flags: ["probe"])
            let keyOrder = Set((options.string("key-order") ?? "").split(separator: ",").compactMap { Int($0) })
            guard options.positional.count == 1 else { throw .usage("recover-read takes FILE", command: command) }
            let startClass: Int, startObject: Int
            do throws(CommandLineOptions.UsageError) {
                startClass = try options.integer("class-index", default: 0, in: 0...Int.max)
                startObject = try options.integer("object-index", default: 0, in: 0...Int.max)
            } catch {
                throw .usage(error.message, command: command)
            }
            guard let startKey = UInt64(options.string("from-key") ?? "0") else { throw .usage("--from-key takes an object key", command: command) }
            let file = try ToolFile(options.positional[0], options: options)
            let realm = try file.openReadOnly()
            let classes = realm.fileSchema.objectSchema.sorted { $0.className < $1.className }
            var output = ToolOutput()
            let topLevel = classes.filter { !$0.isEmbedded }
            if options.flags.contains("probe") {
                guard startClass < topLevel.count else { throw .usage("--class-index is past the classes", command: command) }
                let schema = topLevel[startClass]
                var found = "null"
                try readInKeyOrder(realm, schema.className, from: startKey) { object in
                    // The object's key, and its primary key for messages: the row alone is read.
                    let name = schema.primaryKeyProperty.map { ObjectRendering.value(of: $0, in: object) } ?? .null
                    found = "{\"key\":\"\(object.rawObjectKey)\",\"primaryKey\":\(name.json)}"
                    return false
                }
                output.write("{\"probe\":\"\(startKey)\",\"found\":\(found)}\n")
                try output.finish()
                return 0
            }
            if startClass == 0 && startObject == 0 && startKey == 0 {
                guard case .object(let members) = SchemaCommand.json(classes, version: 0) else { return 1 }
                output.write(ToolValue.object([(ExportCommand.headerKey, .integer(1))] + members).json + "\n")
                output.flush()
            }
            for (classIndex, schema) in topLevel.enumerated() where classIndex >= startClass {
                // The count first, from the table's statistics: listing the objects is what
                // damage may stop, and the parent must know which class that was.
                let name = ToolValue.string(schema.className).json
                output.write("{\"count\":\(realm.dynamicObjects(schema.className).count),\"class\":\(name)}\n")
                output.flush()
                let columns = ObjectRendering.columns(of: schema.properties, in: schema)
                // Each object is out before the next is read: a crash loses only the one being read.
                func print(_ object: DynamicObject, index: Int, key: UInt64?) {
                    let value = ObjectRendering.render(object, properties: schema.properties, columns: columns)
                    output.write { bytes in
                        bytes.append(contentsOf: "{\"class\":\(name),\"index\":\(index),".utf8)
                        // As text: a key past Int64.max is no JSON integer a reader keeps exact.
                        if let key { bytes.append(contentsOf: "\"key\":\"\(key)\",".utf8) }
                        bytes.append(contentsOf: "\"object\":".utf8)
                        value.appendJSON(to: &bytes)
                        bytes.append(contentsOf: "}\n".utf8)
                    }
                    output.flush()
                }
                if keyOrder.contains(classIndex) {
                    var index = 0
                    try readInKeyOrder(realm, schema.className, from: classIndex == startClass ? startKey : 0) { object in
                        print(object, index: index, key: object.rawObjectKey)
                        index += 1
                        return true
                    }
                    continue
                }
                // By primary key when the class has one: the index is listed, and each row read
                // on its own, so damage among the rows costs only the objects it holds.
                let objects = ExportCommand.ordered(realm, schema)
                let first = classIndex == startClass ? startObject : 0
                guard first < objects.count else { continue }
                for index in first..<objects.count { print(objects[index], index: index, key: nil) }
            }
            try output.finish()
            return 0
        }
    }

    private static func readInKeyOrder(_ realm: Realm, _ className: String, from key: UInt64, _ body: (DynamicObject) -> Bool) throws(ToolFailure) {
        do {
            try realm.forEachDynamicObject(className, fromObjectKey: key, body)
        } catch {
            throw .failed(ToolFile.describe(error, path: realm.configuration.fileURL?.path ?? ""))
        }
    }
}
