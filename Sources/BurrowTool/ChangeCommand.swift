import Burrow
import Foundation

/// `burrow set FILE CLASS 'PREDICATE' prop=value...` and `burrow delete FILE CLASS 'PREDICATE'`:
/// change or delete the objects that match, in one transaction, after saying what will change
/// and asking (unless `--yes`).
enum ChangeCommand {
    static let setUsage = """
        usage: burrow set FILE CLASS 'PREDICATE' PROPERTY=VALUE... [--yes] [--key-file PATH]

        Sets PROPERTY to VALUE on every object of CLASS in FILE that matches PREDICATE (the
        query language of filter(_:); TRUEPREDICATE for all), in one transaction. VALUE is JSON
        (3, true, null, "text", [1, 2], {"street": "Main"}) or, when it is not JSON, text read
        as the property's type (Rex, 2026-12-04T10:00:00Z). A link takes the target's primary
        key. It prints how many objects will change and the first of them, and asks; --yes
        changes them without asking (needed when standard input is not a terminal).

        example:
          burrow set app.realm Task 'done == false AND due < 2026-01-01T00:00:00' done=true --yes

        Exit status: 0 changed (or nothing matched, or the answer was no), 1 failed writing,
        2 misused or bad input (a value that does not fit, an unknown property, the primary key).
        """

    static let deleteUsage = """
        usage: burrow delete FILE CLASS 'PREDICATE' [--yes] [--key-file PATH]

        Deletes every object of CLASS in FILE that matches PREDICATE, in one transaction, with
        their embedded objects (links to them become nil). It prints how many objects will go
        and the first of them, and asks; --yes deletes them without asking (needed when
        standard input is not a terminal).

        example:
          burrow delete app.realm Session 'lastSeen < 2026-01-01T00:00:00' --yes

        Exit status: 0 deleted (or nothing matched, or the answer was no), 1 failed writing,
        2 misused or bad input.
        """

    static func run(_ arguments: [String], deleting: Bool) -> Int32 {
        let command = deleting ? "delete" : "set"
        return BurrowTool.running(command) { () throws(ToolFailure) in
            let options = try CommandLineOptions(arguments, command: command, valued: ["key-file"], flags: ["yes"])
            let positional = options.positional
            guard deleting ? positional.count == 3 : positional.count >= 4 else {
                throw .usage(deleting ? "delete takes FILE, CLASS and PREDICATE" : "set takes FILE, CLASS, PREDICATE and PROPERTY=VALUE...", command: command)
            }
            let file = try ToolFile(positional[0], options: options)
            let realm: Realm
            do {
                realm = try Realm(configuration: Realm.Configuration(fileURL: file.url, encryptionKey: file.key, objectTypes: []))
            } catch {
                throw .input(ToolFile.describe(error, path: file.path))
            }
            let schema = try file.objectSchema(positional[1], in: realm)
            var results = realm.dynamicObjects(schema.className)
            results = results.filter(try QueryText.predicate(positional[2], for: results))
            let assignments = deleting ? [] : try Assignment.parse(Array(positional[3...]), of: schema, in: realm)
            let count = results.count
            guard count > 0 else {
                print("no \(schema.className) matches; nothing to \(command)")
                return 0
            }
            describe(results, schema: schema, deleting: deleting, assignments: assignments)
            guard try confirmed(options.flags.contains("yes"), count: count, verb: deleting ? "delete" : "change") else {
                print("nothing changed")
                return 0
            }
            do {
                try realm.write {
                    if deleting {
                        realm.delete(results)
                    } else {
                        for object in Array(results) {
                            for assignment in assignments { object[assignment.property.name] = assignment.value }
                        }
                    }
                }
            } catch {
                throw .failed(ToolFile.describe(error, path: file.path))
            }
            print("\(deleting ? "deleted" : "changed") \(count) \(schema.className) \(count == 1 ? "object" : "objects")")
            return 0
        }
    }

    /// What will happen, and the first objects it happens to.
    private static func describe(_ results: Results<DynamicObject>, schema: ObjectSchema, deleting: Bool, assignments: [Assignment]) {
        let count = results.count
        let what = deleting ? "will be deleted" : "will change: " + assignments.map { "\($0.property.name) = \($0.text)" }.joined(separator: ", ")
        print("\(count) \(schema.className) \(count == 1 ? "object" : "objects") \(what); the first:")
        var printer = ObjectPrinter(format: .jsonl, properties: schema.properties)
        for object in results.prefix(3) { printer.print(object) }
        var output = printer.output
        try? output.finish()
        fflush(nil)
    }

    /// Whether to go on: `--yes`, or "y" typed at the terminal.
    ///
    /// - Throws: ``ToolFailure`` (status 2) without `--yes` when standard input is not a terminal.
    private static func confirmed(_ yes: Bool, count: Int, verb: String) throws(ToolFailure) -> Bool {
        if yes { return true }
        guard isatty(STDIN_FILENO) == 1 else {
            throw .input("\(count) objects would \(verb == "delete" ? "be deleted" : "change"): standard input is not a terminal to ask; give --yes")
        }
        print("\(verb.capitalized) \(count) \(count == 1 ? "object" : "objects")? [y/N] ", terminator: "")
        fflush(nil)
        let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        return answer == "y" || answer == "yes"
    }
}

/// One `PROPERTY=VALUE` of `burrow set`, checked against the property.
struct Assignment {
    let property: Property
    /// The value as the dynamic API takes it.
    let value: Any?
    /// The value as typed.
    let text: String

    static func parse(_ arguments: [String], of schema: ObjectSchema, in realm: Realm) throws(ToolFailure) -> [Assignment] {
        let values = ImportValues(schema: realm.fileSchema) { target, value throws(ImportValues.Problem) in
            guard let key = target.primaryKeyProperty else {
                throw ImportValues.Problem(property: target.className, message: "\(target.className) has no primary key to link by")
            }
            let converted = try ImportValues(schema: realm.fileSchema) { _, _ throws(ImportValues.Problem) in
                throw ImportValues.Problem(property: key.name, message: "a primary key cannot be a link")
            }.value(value, for: key)
            guard let object = realm.dynamicObject(ofType: target.className, forPrimaryKey: converted) else {
                throw ImportValues.Problem(property: target.className, message: "no \(target.className) has primary key \(value.brief)")
            }
            return object
        }
        var assignments: [Assignment] = []
        for argument in arguments {
            guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex else {
                throw .usage("'\(argument)' is not PROPERTY=VALUE", command: "set")
            }
            let name = String(argument[..<equals]), text = String(argument[argument.index(after: equals)...])
            guard let property = schema[name] else {
                throw .input("\(schema.className) has no property '\(name)'; it has \(schema.properties.map(\.name).joined(separator: ", "))")
            }
            guard !property.isPrimary else { throw .input("\(name) is \(schema.className)'s primary key, which cannot change") }
            var reader = JSONReader(input: ByteInput(text: text))
            let json: ToolValue? = {
                guard let parsed = try? reader.value() else { return nil }
                reader.input.skipWhitespace()
                return reader.input.isAtEnd ? parsed : nil
            }()
            do {
                let value = try values.value(json ?? .string(text), for: property)
                assignments.append(Assignment(property: property, value: value is NSNull ? nil : value, text: text))
            } catch {
                throw .input("\(name): \(error.message)")
            }
        }
        return assignments
    }
}
