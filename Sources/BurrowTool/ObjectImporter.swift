import Burrow
import Foundation

/// Writes objects read from an input into a realm inside the write the caller began: parses
/// each object, converts every value (``ImportValues``), resolves links by primary key, and
/// stops at the first problem with its line.
struct ObjectImporter {
    let realm: Realm
    let update: UpdatePolicy
    /// The input's name in messages.
    let source: String
    var progress: Progress
    private(set) var imported = 0
    private(set) var updated = 0
    /// Objects made only as link targets, by class, awaiting their own line.
    private let placeholders = PlaceholderBox()
    /// When set, the objects so far are committed after every `commitEvery` objects: for an
    /// import into a staging file nobody else opens, which keeps memory constant; the file is
    /// put in place only when the whole input is in (see `ImportCommand`).
    var commitEvery: Int?
    /// The row templates of the classes imported so far, by name.
    private var rowTemplates: [String: RowTemplate] = [:]

    init(realm: Realm, update: UpdatePolicy, source: String, progress: Progress) {
        self.realm = realm
        self.update = update
        self.source = source
        self.progress = progress
    }

    /// Link targets no line of the input filled: how many, and a few of them.
    var unfilledLinkTargets: (count: Int, examples: [String]) {
        let all = placeholders.keys.sorted { $0.key < $1.key }.flatMap { name, keys in keys.map { "\(name)(\($0))" }.sorted() }
        return (all.count, Array(all.prefix(5)))
    }

    // MARK: Inputs

    /// The objects of `schema`'s class in `input`.
    mutating func importObjects(of schema: ObjectSchema, from input: ByteInput, format: ObjectPrinter.Format) throws {
        guard !schema.isEmbedded else { throw ToolFailure.input("\(schema.className) is embedded: import its objects inside their owners") }
        switch format {
        case .jsonl, .table:
            var reader = JSONReader(input: input)
            while true {
                input.skipWhitespace()
                if input.isAtEnd { break }
                let line = input.line
                let value = try parse(&reader)
                try add(value, of: schema, line: line)
            }
        case .json:
            var reader = JSONReader(input: input)
            try parsing { () throws(JSONReader.Malformed) in try reader.expect(UInt8(ascii: "["), "to open the array of objects") }
            if !reader.accept(UInt8(ascii: "]")) {
                repeat {
                    input.skipWhitespace()
                    let line = input.line
                    try add(try parse(&reader), of: schema, line: line)
                } while reader.accept(UInt8(ascii: ","))
                try parsing { () throws(JSONReader.Malformed) in try reader.expect(UInt8(ascii: "]"), "to close the array of objects") }
            }
            input.skipWhitespace()
            guard input.isAtEnd else { throw problem(line: input.line, "text after the array of objects") }
        case .csv:
            try importCSV(of: schema, from: input)
        }
    }

    /// A whole-file export: its schema line, then a line per object.
    mutating func importExport(from input: ByteInput) throws {
        var reader = JSONReader(input: input)
        input.skipWhitespace()
        guard case .object(let header) = try parse(&reader), header.first?.key == ExportCommand.headerKey else {
            throw problem(line: 1, "the first line is not the header of a whole-file export (burrow export FILE); to import objects of one class, name it: burrow import FILE CLASS DATA")
        }
        let schemas = try ExportSchema.classes(from: header)
        try ExportSchema.check(schemas, against: realm.fileSchema, file: realm.configuration.fileURL?.path ?? "")
        do {
            try realm.addClasses(schemas)
        } catch {
            throw problem(line: 1, ToolFile.describe(error, path: source))
        }
        let schema = realm.fileSchema
        while true {
            input.skipWhitespace()
            if input.isAtEnd { break }
            let line = input.line
            guard case .object(let members) = try parse(&reader), members.count == 2, members[0].key == "class",
                  case .string(let className) = members[0].value, members[1].key == "object" else {
                throw problem(line: line, "expected {\"class\": NAME, \"object\": {...}}")
            }
            guard let objectSchema = schema[className], !objectSchema.isEmbedded else {
                throw problem(line: line, "the export's schema has no top-level class '\(className)'")
            }
            try add(members[1].value, of: objectSchema, line: line)
        }
    }

    private mutating func importCSV(of schema: ObjectSchema, from input: ByteInput) throws {
        var reader = CSVReader(input: input)
        guard let header = try csvRecord(&reader) else { return }
        var properties: [Property] = []
        for name in header.fields {
            guard let property = schema[name] else {
                throw problem(line: header.line, "the header names '\(name)', which \(schema.className) does not have; it has \(schema.properties.map(\.name).joined(separator: ", "))")
            }
            guard !properties.contains(where: { $0.name == name }) else { throw problem(line: header.line, "the header names '\(name)' twice") }
            properties.append(property)
        }
        let values = importValues()
        // Plain columns alone go to the table as rows of stored values, with no dictionary
        // and no `Any` on the way; an object whose key is taken goes the general way.
        let isPlain = properties.allSatisfy(ImportValues.isPlain)
        let columns = isPlain ? properties.compactMap { rowTemplate(for: schema).column(of: $0.name) } : nil
        while let record = try csvRecord(&reader) {
            guard record.fields.count == properties.count else {
                throw problem(line: record.line, "\(record.fields.count) fields, where the header has \(properties.count)")
            }
            if let columns {
                let rows = rowTemplate(for: schema)
                var row = rows.defaults
                for index in properties.indices {
                    row[columns[index]] = try converting(line: record.line) { () throws(ImportValues.Problem) in
                        try values.stored(csv: record.fields[index], for: properties[index])
                    }
                }
                if try rows.insert(row) {
                    try count()
                    continue
                }
            }
            var object: [String: Any?] = [:]
            for (property, field) in zip(properties, record.fields) {
                let converted: Any = try converting(line: record.line) { () throws(ImportValues.Problem) -> Any in try values.value(csv: field, for: property) }
                object[property.name] = .some(converted)
            }
            try store(object, of: schema, line: record.line)
        }
    }

    // MARK: Objects

    /// Adds the object `value` (a JSON object) of `schema`'s class, read on `line`.
    mutating func add(_ value: ToolValue, of schema: ObjectSchema, line: Int) throws {
        guard case .object(let members) = value else { throw problem(line: line, "expected an object, found \(value.brief)") }
        let values = importValues()
        // An object of plain values goes to the table as a row of stored values; one whose key
        // is taken (or that a link made already) goes the general way.
        let template = rowTemplate(for: schema)
        if let row = try converting(line: line, { () throws(ImportValues.Problem) in try template.row(members, values: values) }),
           try template.insert(row) {
            try count()
            return
        }
        let object = try converting(line: line) { () throws(ImportValues.Problem) in try values.object(members, of: schema) }
        try store(object, of: schema, line: line)
    }

    /// The row template of `schema`'s class, made once per import.
    private mutating func rowTemplate(for schema: ObjectSchema) -> RowTemplate {
        if let template = rowTemplates[schema.className] { return template }
        let template = RowTemplate(schema: schema, writer: realm.dynamicRowWriter(for: schema.className))
        rowTemplates[schema.className] = template
        return template
    }

    /// Creates (or, by the update policy, updates) the object with `values`.
    private mutating func store(_ values: [String: Any?], of schema: ObjectSchema, line: Int) throws {
        var values = values
        if let primaryKey = schema.primaryKeyProperty {
            guard let given = values[primaryKey.name], let key = given, !(key is NSNull) else { throw problem(line: line, "\(primaryKey.name): the primary key is missing") }
            if realm.dynamicObject(ofType: schema.className, forPrimaryKey: key) != nil {
                if let hashable = key as? AnyHashable, placeholders.keys[schema.className]?.remove(hashable) != nil {
                    _ = realm.dynamicCreate(schema.className, value: values, update: .all)
                } else if update == .error {
                    throw problem(line: line, "\(primaryKey.name): \(schema.className) has an object with primary key \(key) already (--update modified or all replaces it)")
                } else {
                    _ = realm.dynamicCreate(schema.className, value: values, update: update)
                    updated += 1
                }
                try count()
                return
            }
        }
        // Only a new object takes defaults: an update writes what the input gives.
        Self.fillRequired(&values, of: schema)
        _ = realm.dynamicCreate(schema.className, value: values)
        try count()
    }

    /// Counts an object imported, and commits the objects so far when the import is staged.
    private mutating func count() throws {
        imported += 1
        progress.step()
        guard let commitEvery, imported % commitEvery == 0 else { return }
        // Row writers belong to the write they were made in.
        rowTemplates.removeAll()
        try realm.commitWrite()
        realm.beginWrite()
    }

    /// The conversions, with links resolved in this realm.
    private func importValues() -> ImportValues {
        let realm = self.realm, placeholders = self.placeholders
        return ImportValues(schema: realm.fileSchema) { target, value throws(ImportValues.Problem) in
            try Self.linkTarget(target, value, in: realm, placeholders: placeholders)
        }
    }

    /// The object a link names: found by primary key, or made with that key alone (and filled
    /// by its own line later); for a class without one, made from the values given.
    private static func linkTarget(_ target: ObjectSchema, _ value: ToolValue, in realm: Realm, placeholders: PlaceholderBox) throws(ImportValues.Problem) -> DynamicObject {
        guard let primaryKey = target.primaryKeyProperty else {
            guard case .object(let members) = value else {
                throw ImportValues.Problem(property: target.className, message: "a link to \(target.className), which has no primary key, is given by its values")
            }
            let values = ImportValues(schema: realm.fileSchema) { nested, inner throws(ImportValues.Problem) in
                try linkTarget(nested, inner, in: realm, placeholders: placeholders)
            }
            var object = try values.object(members, of: target)
            fillRequired(&object, of: target)
            return realm.dynamicCreate(target.className, value: object)
        }
        let key = try ImportValues(schema: realm.fileSchema) { _, _ throws(ImportValues.Problem) in
            throw ImportValues.Problem(property: primaryKey.name, message: "a primary key cannot be a link")
        }.value(value, for: primaryKey)
        if let existing = realm.dynamicObject(ofType: target.className, forPrimaryKey: key) { return existing }
        var values: [String: Any?] = [primaryKey.name: key]
        fillRequired(&values, of: target)
        if let hashable = key as? AnyHashable { placeholders.keys[target.className, default: []].insert(hashable) }
        return realm.dynamicCreate(target.className, value: values)
    }

    /// Deletes the objects made only as link targets that no line filled (links to them
    /// become nil); returns how many.
    func deleteUnfilledLinkTargets() -> Int {
        var deleted = 0
        for (className, keys) in placeholders.keys {
            for key in keys {
                guard let object = realm.dynamicObject(ofType: className, forPrimaryKey: key.base) else { continue }
                realm.delete(object)
                deleted += 1
            }
        }
        placeholders.keys.removeAll()
        return deleted
    }

    /// Gives each required scalar property not in `values` but the primary key RealmSwift's
    /// default (zero, empty, the 1970 epoch, the all-zero UUID and object id): an object the
    /// input does not give a primary key is refused, not given key 0.
    static func fillRequired(_ values: inout [String: Any?], of schema: ObjectSchema) {
        for property in schema.properties where values.index(forKey: property.name) == nil {
            let stored = defaultStored(for: property)
            if case .null = stored { continue }
            values[property.name] = stored.anyValue
        }
    }

    /// The stored value a required property not given takes: what ``fillRequired(_:of:)``
    /// gives, `nil` for others.
    static func defaultStored(for property: Property) -> _PersistedValue {
        guard !property.isOptional, !property.isPrimary, !property.isArray, !property.isSet, !property.isMap else { return .null }
        switch property.type {
        case .int: return .int(0)
        case .bool: return .bool(false)
        case .float: return .float(0)
        case .double: return .double(0)
        case .string: return .string("")
        case .data: return .data(Data())
        case .date: return .date(Date(timeIntervalSince1970: 0))
        case .objectId: return .objectId(try! ObjectId(string: "000000000000000000000000"))
        case .decimal128: return .decimal(Decimal128())
        case .UUID: return .uuid(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        case .any, .object, .linkingObjects: return .null
        }
    }

    // MARK: Errors

    /// The result of `body`, whose problem becomes one of the input's `line`.
    private func converting<Value>(line: Int, _ body: () throws(ImportValues.Problem) -> Value) throws -> Value {
        do {
            return try body()
        } catch {
            throw problem(line: line, "\(error.property): \(error.message)")
        }
    }

    private func parse(_ reader: inout JSONReader) throws -> ToolValue {
        do {
            return try reader.value()
        } catch {
            throw problem(line: error.line, error.message)
        }
    }

    private func parsing(_ body: () throws(JSONReader.Malformed) -> Void) throws {
        do {
            try body()
        } catch {
            throw problem(line: error.line, error.message)
        }
    }

    private func csvRecord(_ reader: inout CSVReader) throws -> (fields: [String], line: Int)? {
        do {
            return try reader.record()
        } catch {
            throw problem(line: error.line, error.message)
        }
    }

    /// Input that stops the import: `source:line: message`, nothing written.
    func problem(line: Int, _ message: String) -> ToolFailure {
        .input("\(source):\(line): \(message); nothing was imported")
    }
}

/// The placeholders of an import, shared with the link resolver it hands to ``ImportValues``.
private final class PlaceholderBox {
    /// Primary keys by class name.
    var keys: [String: Set<AnyHashable>] = [:]
}

/// Rows of one class written as stored values: the row writer, the row an object starts
/// from (a required property the input does not give takes its default, others `nil`), and
/// the columns of the class's plain properties (see ``ImportValues/isPlain(_:)``).
private struct RowTemplate {
    let writer: DynamicRowWriter
    let defaults: [_PersistedValue]
    /// The plain properties by column.
    let plainProperties: [Property?]
    private let plainColumns: [String: Int]
    private let primaryKeyColumn: Int?

    init(schema: ObjectSchema, writer: DynamicRowWriter) {
        self.writer = writer
        let properties = writer.columnNames.map { schema[$0] }
        // A primary key has no default: a row that does not give one goes the general way.
        defaults = properties.map { $0.map(ObjectImporter.defaultStored) ?? .null }
        plainProperties = properties.map { property in property.flatMap { ImportValues.isPlain($0) ? $0 : nil } }
        primaryKeyColumn = properties.firstIndex { $0?.isPrimary == true }
        plainColumns = Dictionary(uniqueKeysWithValues: plainProperties.enumerated().compactMap { column, property in property.map { ($0.name, column) } })
    }

    /// Adds the object whose row is `row`; `false`, writing nothing, when it has to go the
    /// general way: its primary key is `nil`, or an object has it already (an update, a
    /// link's placeholder, or a duplicate to report).
    func insert(_ row: [_PersistedValue]) throws -> Bool {
        if let primaryKeyColumn, case .null = row[primaryKeyColumn] { return false }
        return try writer.insert(row) == .inserted
    }

    /// The row column of the plain property `name`; `nil` for any other name.
    func column(of name: String) -> Int? {
        plainColumns[name]
    }

    /// The row of the object whose members are `members`, all of them plain properties given
    /// once; `nil` when another member needs the general way, which also reports repeated or
    /// unknown names.
    func row(_ members: [(key: String, value: ToolValue)], values: ImportValues) throws(ImportValues.Problem) -> [_PersistedValue]? {
        guard defaults.count <= 64 else { return nil }
        var row = defaults
        var given: UInt64 = 0
        for (key, value) in members {
            guard let column = plainColumns[key], given & (1 << column) == 0, let property = plainProperties[column] else { return nil }
            given |= 1 << column
            row[column] = try values.stored(value, for: property)
        }
        return row
    }
}
