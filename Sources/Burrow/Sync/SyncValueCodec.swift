import Foundation

/// Property values in sync's wire form, which is PostgreSQL's own JSON form of the column
/// each property is stored in on the server (``ServerSchema``): so a value goes from a change
/// to a table row with `jsonb_populate_record`, and back with `to_jsonb`.
///
/// | Property | Wire form |
/// |---|---|
/// | `Int`, `Bool` | number, `true`/`false` |
/// | `Float`, `Double` | number, or `"NaN"`, `"Infinity"`, `"-Infinity"` |
/// | `String`, `ObjectId`, `UUID` | string (an object id in hex) |
/// | `Data` | `"\\x…"` hex string, as `bytea` |
/// | `Date` | `"2026-12-03T12:00:00.5+00:00"`, to the microsecond |
/// | `Decimal128` | number, or `"NaN"`, `"Infinity"`, `"-Infinity"` |
/// | link | the target's primary key |
/// | embedded object | object of its properties |
/// | `List`, `MutableSet` / `Map` | array / object |
/// | `AnyRealmValue` | `{"type": …, "value": …}` |
enum SyncValueCodec {
    /// Why a value from the server does not fit the property it is for.
    struct Mismatch: Error, CustomStringConvertible {
        let description: String
    }

    // MARK: Local to wire

    /// The wire form of `value`, the value of `property` as a dynamic object reads it.
    static func encode(_ value: Any?, of property: Property) -> JSONValue {
        guard let value = StoredValueConversion.unwrapped(value) else { return .null }
        if property.isMap {
            guard let map = value as? any SyncMapReading else { return .null }
            return .object(map.syncEntries.map { ($0.key, encodeElement($0.value, of: property)) })
        }
        if property.isArray || property.isSet {
            guard let collection = value as? any SyncCollectionReading else { return .null }
            return .array(collection.syncElements.map { encodeElement($0, of: property) })
        }
        return encodeElement(value, of: property)
    }

    private static func encodeElement(_ value: Any?, of property: Property) -> JSONValue {
        guard let value = StoredValueConversion.unwrapped(value) else { return .null }
        switch property.type {
        case .object:
            guard let object = value as? DynamicObject else { return .null }
            let schema = object.objectSchema
            if schema.isEmbedded {
                return .object(schema.properties.map { ($0.name, encode(object[$0.name], of: $0)) })
            }
            guard let key = schema.primaryKeyProperty else { return .null }
            return encodeElement(object[key.name], of: key)
        case .any:
            // Read through a dynamic object, the value comes unboxed.
            return encodeMixed(AnyRealmValue._fromAny(value) ?? .none)
        default:
            return scalar(value)
        }
    }

    /// The wire form of a scalar Swift value.
    static func scalar(_ value: Any) -> JSONValue {
        switch value {
        case let value as Bool: return .bool(value)
        case let value as Int: return .number(String(value))
        case let value as Int64: return .number(String(value))
        case let value as Int32: return .number(String(value))
        case let value as Int16: return .number(String(value))
        case let value as Int8: return .number(String(value))
        case let value as Double: return floating(value)
        case let value as Float: return floating(Double(value))
        case let value as String: return .string(value)
        case let value as Data: return .string("\\x" + Hex.text(value))
        case let value as Date: return .string(WireDate.text(value))
        case let value as ObjectId: return .string(value.stringValue)
        case let value as UUID: return .string(value.uuidString.lowercased())
        case let value as Decimal128:
            if value.isNaN { return .string("NaN") }
            if value.isInfinite { return .string(value.isNegative ? "-Infinity" : "Infinity") }
            // Coefficient and exponent, a JSON number whatever the value (the description
            // writes some values in a form JSON has no number for).
            return .number(value.coefficientAndExponentText)
        default: return .null
        }
    }

    private static func floating(_ value: Double) -> JSONValue {
        if value.isNaN { return .string("NaN") }
        if value.isInfinite { return .string(value < 0 ? "-Infinity" : "Infinity") }
        return .number("\(value)")
    }

    private static func encodeMixed(_ value: AnyRealmValue) -> JSONValue {
        let (type, wire): (String, JSONValue)
        switch value {
        case .none: return .null
        case .int(let v): (type, wire) = ("int", scalar(v))
        case .bool(let v): (type, wire) = ("bool", .bool(v))
        case .float(let v): (type, wire) = ("float", scalar(v))
        case .double(let v): (type, wire) = ("double", scalar(v))
        case .string(let v): (type, wire) = ("string", .string(v))
        case .data(let v): (type, wire) = ("data", scalar(v))
        case .date(let v): (type, wire) = ("date", scalar(v))
        case .objectId(let v): (type, wire) = ("objectId", scalar(v))
        case .decimal128(let v): (type, wire) = ("decimal128", scalar(v))
        case .uuid(let v): (type, wire) = ("uuid", scalar(v))
        case .object(let object):
            // An object of a model class, when the realm has one for it, else a dynamic one.
            let schema = object.objectSchema
            guard let key = schema.primaryKeyProperty else { return .null }
            return .object([("type", .string("link")), ("class", .string(schema.className)),
                            ("value", encodeElement(object[key.name], of: key))])
        case .list(let list): (type, wire) = ("list", .array(list.map(encodeMixed)))
        case .dictionary(let map): (type, wire) = ("dictionary", .object(map.keys.sorted().map { ($0, encodeMixed(map[$0] ?? .none)) }))
        }
        return .object([("type", .string(type)), ("value", wire)])
    }

    // MARK: Wire to local

    /// The Swift value of `wire` for `property`, in the form a dynamic object's setter takes
    /// (a link as the target's primary key is resolved by `object`; an embedded object is a
    /// dictionary of its properties, by its schema in `schemas`).
    ///
    /// - Throws: ``Mismatch`` when `wire` is not a value of the property's type.
    static func decode(_ wire: JSONValue, of property: Property, schemas: [String: ObjectSchema],
                       object: (String, Any) -> DynamicObject?) throws(Mismatch) -> Any? {
        if wire.isNull {
            guard property.isOptional || property.type == .object || property.type == .any else {
                throw Mismatch(description: "null for the required property '\(property.name)'")
            }
            return nil
        }
        if property.isMap {
            guard let members = wire.objectValue else { throw Mismatch(description: "'\(property.name)' is not an object") }
            // In order, keys by their bytes: a dictionary would merge two spellings of one key.
            var entries: [(key: String, value: Any?)] = []
            for (key, value) in members { entries.append((key, try decodeElement(value, of: property, schemas: schemas, object: object) ?? NSNull())) }
            return OrderedMapEntries(entries: entries)
        }
        if property.isArray || property.isSet {
            guard let items = wire.arrayValue else { throw Mismatch(description: "'\(property.name)' is not an array") }
            var elements: [Any] = []
            for item in items {
                let element = try decodeElement(item, of: property, schemas: schemas, object: object)
                // A list or set of links holds no empty link: one whose target is gone is left out.
                if element == nil && property.type == .object && !item.isNull { continue }
                elements.append(element ?? NSNull())
            }
            return elements
        }
        return try decodeElement(wire, of: property, schemas: schemas, object: object)
    }

    private static func decodeElement(_ wire: JSONValue, of property: Property, schemas: [String: ObjectSchema],
                                      object: (String, Any) -> DynamicObject?) throws(Mismatch) -> Any? {
        if wire.isNull { return nil }
        switch property.type {
        case .object:
            guard let target = property.objectClassName, let schema = schemas[target] else { return nil }
            if schema.isEmbedded {
                guard case .object(let members) = wire else { throw Mismatch(description: "the embedded '\(property.name)' is not an object") }
                var values: [String: Any] = [:]
                for (name, value) in members {
                    guard let member = schema[name], member.type != .linkingObjects else { continue }
                    values[name] = try decode(value, of: member, schemas: schemas, object: object) ?? NSNull()
                }
                return values
            }
            return object(target, try primaryKey(wire))
        case .any:
            return try decodeMixed(wire, object: object)
        default:
            return try scalar(wire, type: property.type, name: property.name)
        }
    }

    /// A primary key's Swift value: an integer or a string (object ids and UUIDs as text are
    /// converted by the lookup).
    static func primaryKey(_ wire: JSONValue) throws(Mismatch) -> Any {
        switch wire {
        case .number(let text):
            guard let value = Int(text) else { throw Mismatch(description: "the primary key \(text) is not an integer") }
            return value
        case .string(let text): return text
        default: throw Mismatch(description: "a primary key is neither a number nor a string")
        }
    }

    /// The Swift value of a scalar of `type`.
    static func scalar(_ wire: JSONValue, type: PropertyType, name: String) throws(Mismatch) -> Any {
        func fail() -> Mismatch { Mismatch(description: "\(wire.text.prefix(80)) is not a \(type) for '\(name)'") }
        switch (type, wire) {
        case (.bool, .bool(let value)): return value
        case (.int, .number(let text)):
            guard let value = Int(text) else { throw fail() }
            return value
        case (.double, .number(let text)), (.float, .number(let text)):
            guard let value = Double(text) else { throw fail() }
            return type == .float ? Float(value) as Any : value as Any
        case (.double, .string(let text)), (.float, .string(let text)):
            let value: Double
            switch text {
            case "NaN": value = .nan
            case "Infinity": value = .infinity
            case "-Infinity": value = -.infinity
            default: throw fail()
            }
            return type == .float ? Float(value) as Any : value as Any
        case (.string, .string(let text)): return text
        case (.data, .string(let text)):
            guard text.hasPrefix("\\x"), let bytes = Hex.bytes(text.dropFirst(2)) else { throw fail() }
            return Data(bytes)
        case (.date, .string(let text)):
            guard let date = WireDate.date(text) else { throw fail() }
            return date
        case (.objectId, .string(let text)):
            guard let id = try? ObjectId(string: text) else { throw fail() }
            return id
        case (.UUID, .string(let text)):
            guard let uuid = UUID(uuidString: text) else { throw fail() }
            return uuid
        case (.decimal128, .number(let text)), (.decimal128, .string(let text)):
            let spelled = text == "Infinity" ? "inf" : text == "-Infinity" ? "-inf" : text
            guard let value = try? Decimal128(string: spelled) else { throw fail() }
            return value
        default:
            throw fail()
        }
    }

    private static func decodeMixed(_ wire: JSONValue, object: (String, Any) -> DynamicObject?) throws(Mismatch) -> AnyRealmValue {
        guard let type = wire["type"]?.stringValue, let value = wire["value"] else {
            throw Mismatch(description: "an AnyRealmValue without a type and a value")
        }
        let types: [String: PropertyType] = ["int": .int, "bool": .bool, "float": .float, "double": .double, "string": .string,
                                             "data": .data, "date": .date, "objectId": .objectId, "decimal128": .decimal128, "uuid": .UUID]
        if let scalarType = types[type] {
            guard let mixed = AnyRealmValue._fromAny(try scalar(value, type: scalarType, name: "AnyRealmValue")) else {
                throw Mismatch(description: "an AnyRealmValue of type \(type) does not convert")
            }
            return mixed
        }
        switch type {
        case "link":
            guard let className = wire["class"]?.stringValue, let target = object(className, try primaryKey(value)) else { return .none }
            return .object(target)
        case "list":
            guard let items = value.arrayValue else { throw Mismatch(description: "an AnyRealmValue list is not an array") }
            let list = List<AnyRealmValue>()
            for item in items { list.append(item.isNull ? .none : try decodeMixed(item, object: object)) }
            return .list(list)
        case "dictionary":
            guard let members = value.objectValue else { throw Mismatch(description: "an AnyRealmValue dictionary is not an object") }
            let map = Map<String, AnyRealmValue>()
            for (key, item) in members { map[key] = item.isNull ? AnyRealmValue.none : try decodeMixed(item, object: object) }
            return .dictionary(map)
        default:
            throw Mismatch(description: "an AnyRealmValue of unknown type '\(type.prefix(40))'")
        }
    }
}

/// A list or set read as loosely typed elements, for sync's wire form.
protocol SyncCollectionReading {
    var syncElements: [Any?] { get }
}

/// A map read as loosely typed entries, for sync's wire form.
protocol SyncMapReading {
    var syncEntries: [(key: String, value: Any?)] { get }
}

extension List: SyncCollectionReading {
    var syncElements: [Any?] { map { $0 as Any? } }
}

extension MutableSet: SyncCollectionReading {
    var syncElements: [Any?] { map { $0 as Any? } }
}

extension Map: SyncMapReading {
    var syncEntries: [(key: String, value: Any?)] {
        keys.compactMap { key in (key as? String).map { ($0, self[key] as Any?) } }.sorted { $0.key < $1.key }
    }
}
