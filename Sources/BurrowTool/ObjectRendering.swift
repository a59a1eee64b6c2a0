import Burrow
import Foundation

/// Turns objects read through the dynamic API into ``ToolValue``s: scalars as JSON kinds
/// (`Data` as base64, dates as ISO 8601 with fractions of a second, object ids, decimals and
/// UUIDs as their text), collections inline, embedded objects whole, and links as the target's
/// primary key (the target's own values when its class has none).
enum ObjectRendering {
    /// `object`'s `properties` (all of its schema's when `nil`) as a JSON object.
    static func render(_ object: DynamicObject, properties: [Property]? = nil, columns: [Int?]? = nil) -> ToolValue {
        let chosen = properties ?? object.objectSchema.properties
        let values = self.values(of: object, properties: chosen, columns: columns ?? self.columns(of: chosen, in: object.objectSchema))
        return .object(zip(chosen, values).map { ($0.name, $1) })
    }

    /// The row column of each of `properties` in `schema` whose value is a scalar read from
    /// the row; `nil` for links, mixed values and collections. Worked out once per class.
    static func columns(of properties: [Property], in schema: ObjectSchema) -> [Int?] {
        properties.map { property in
            let isCollection = property.isArray || property.isSet || property.isMap
            guard !isCollection, property.type != .object, property.type != .any else { return nil }
            return schema.properties.firstIndex { $0.name == property.name }
        }
    }

    /// The values of `properties` of `object`: the scalars (at `columns`) from one read of its
    /// row, links, mixed values and collections through the dynamic API.
    static func values(of object: DynamicObject, properties: [Property], columns: [Int?]) -> [ToolValue] {
        let row = object.storedColumnValues()
        return zip(properties, columns).map { property, column in
            guard let column, column < row.count, let value = scalar(row[column]) else { return value(of: property, in: object) }
            return value
        }
    }

    /// Appends `object`'s CSV record (without its line break): the scalars (at `columns`)
    /// written from one read of its row, links, mixed values and collections through the
    /// dynamic API, as ``ToolValue/appendCSVField(to:)`` writes them.
    static func appendCSVRecord(of object: DynamicObject, properties: [Property], columns: [Int?], to bytes: inout [UInt8]) {
        let row = object.storedColumnValues()
        for index in properties.indices {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            if let column = columns[index], column < row.count {
                switch row[column] {
                case .null: continue
                case .int(let number): ToolValue.appendDecimal(number, to: &bytes); continue
                case .double(let number): ToolValue.appendNumber(number, to: &bytes); continue
                case .string(let text): ToolValue.appendCSVText(text, to: &bytes); continue
                case .date(let date): appendDate(date, to: &bytes); continue
                case let stored:
                    if let value = scalar(stored) {
                        value.appendCSVField(to: &bytes)
                        continue
                    }
                }
            }
            let value = value(of: properties[index], in: object)
            // A mixed value's field is its JSON (a string in quotes), as import reads it.
            if properties[index].type == .any, !value.isNull {
                ToolValue.appendCSVText(value.json, to: &bytes)
            } else {
                value.appendCSVField(to: &bytes)
            }
        }
    }

    /// A stored scalar as the tool prints it; `nil` for a kind read otherwise.
    private static func scalar(_ stored: _PersistedValue) -> ToolValue? {
        switch stored {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .int(let number): .integer(number)
        // A Float prints as its own shortest text (0.1, not 0.10000000149011612).
        case .float(let number): .number(Double("\(number)") ?? Double(number))
        case .double(let number): .number(number)
        case .string(let text): .string(text)
        case .data(let bytes): .string(bytes.base64EncodedString())
        case .date(let date): .string(dateText(date))
        case .uuid(let uuid): .string(uuid.uuidString)
        case .objectId(let id): .string(id.stringValue)
        case .decimal(let decimal): .string(decimal.stringValue)
        default: nil
        }
    }

    /// The value of `property` in `object`.
    static func value(of property: Property, in object: DynamicObject) -> ToolValue {
        let stored = object[property.name]
        if property.isArray || property.isSet {
            guard let sequence = stored as? any Sequence else { return .array([]) }
            return .array(sequence.map { element($0) })
        }
        if property.isMap {
            guard let sequence = stored as? any Sequence else { return .object([]) }
            return .object(sequence.compactMap { entry in
                let children = Mirror(reflecting: entry).children
                guard let key = children.first(where: { $0.label == "key" })?.value as? String,
                      let value = children.first(where: { $0.label == "value" })?.value else { return nil }
                return (key, element(value))
            })
        }
        return element(stored)
    }

    /// A property value or collection element, at any depth of optionals.
    static func element(_ value: Any?) -> ToolValue {
        guard let value else { return .null }
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional { return mirror.children.first.map { element($0.value) } ?? .null }
        switch value {
        case let object as DynamicObject: return link(to: object)
        case let mixed as AnyRealmValue: return self.mixed(mixed)
        // What an AnyRealmValue holds, as the dynamic API reads it.
        case let list as List<AnyRealmValue>: return mixed(.list(list))
        case let map as Map<String, AnyRealmValue>: return mixed(.dictionary(map))
        case let flag as Bool: return .bool(flag)
        case let number as any BinaryInteger: return .integer(Int64(truncatingIfNeeded: number))
        // A Float prints as its own shortest text (0.1, not 0.10000000149011612).
        case let number as Float: return .number(Double("\(number)") ?? Double(number))
        case let number as Double: return .number(number)
        case let text as String: return .string(text)
        case let bytes as Data: return .string(bytes.base64EncodedString())
        case let date as Date: return .string(dateText(date))
        case let id as ObjectId: return .string(id.stringValue)
        case let decimal as Decimal128: return .string(decimal.stringValue)
        case let decimal as Decimal: return .string("\(decimal)")
        case let uuid as UUID: return .string(uuid.uuidString)
        default: return .string("\(value)")
        }
    }

    private static func mixed(_ value: AnyRealmValue) -> ToolValue {
        switch value {
        case .none: .null
        case .int(let v): .integer(Int64(v))
        case .bool(let v): .bool(v)
        case .float(let v): .number(Double("\(v)") ?? Double(v))
        case .double(let v): .number(v)
        case .string(let v): .string(v)
        case .data(let v): .string(v.base64EncodedString())
        case .date(let v): .string(dateText(v))
        case .objectId(let v): .string(v.stringValue)
        case .decimal128(let v): .string(v.stringValue)
        case .uuid(let v): .string(v.uuidString)
        case .object(let v): (v as? DynamicObject).map(link(to:)) ?? .string("\(v)")
        case .dictionary(let map): .object(map.keys.sorted().map { ($0, mixed(map[$0] ?? .none)) })
        case .list(let list): .array(list.map(mixed))
        }
    }

    /// A linked object: its primary key; an embedded object whole; an object of a class
    /// without a primary key as its values, with its own links as keys.
    private static func link(to object: DynamicObject) -> ToolValue {
        let schema = object.objectSchema
        if let primaryKey = schema.primaryKeyProperty { return element(object[primaryKey.name]) }
        if schema.isEmbedded { return render(object) }
        return .object(schema.properties.filter { $0.type != .object && $0.type != .linkingObjects }
            .map { ($0.name, value(of: $0, in: object)) })
    }

    /// ISO 8601 in UTC with nanoseconds: `2026-12-04T10:15:30.123456789Z`.
    static func dateText(_ date: Date) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(30)
        appendDate(date, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `date` as ``dateText(_:)`` writes it.
    static func appendDate(_ date: Date, to bytes: inout [UInt8]) {
        let interval = date.timeIntervalSince1970
        var seconds = interval.rounded(.down)
        var nanoseconds = Int(((interval - seconds) * 1e9).rounded())
        if nanoseconds >= 1_000_000_000 { seconds += 1; nanoseconds -= 1_000_000_000 }
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func digits(_ value: Int, _ count: Int) {
            var divisor = 1
            for _ in 1..<count { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor % 10))
                rest %= divisor
                divisor /= 10
            }
        }
        digits(Int(parts.tm_year) + 1900, 4); bytes.append(UInt8(ascii: "-"))
        digits(Int(parts.tm_mon) + 1, 2); bytes.append(UInt8(ascii: "-"))
        digits(Int(parts.tm_mday), 2); bytes.append(UInt8(ascii: "T"))
        digits(Int(parts.tm_hour), 2); bytes.append(UInt8(ascii: ":"))
        digits(Int(parts.tm_min), 2); bytes.append(UInt8(ascii: ":"))
        digits(Int(parts.tm_sec), 2)
        if nanoseconds > 0 {
            bytes.append(UInt8(ascii: "."))
            var fraction = nanoseconds, width = 9
            while fraction % 10 == 0 { fraction /= 10; width -= 1 }
            digits(fraction, width)
        }
        bytes.append(UInt8(ascii: "Z"))
    }
}
