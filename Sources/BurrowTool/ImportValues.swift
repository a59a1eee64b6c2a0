import Burrow
import Foundation

/// Turns values read from JSON or CSV into the Swift values the dynamic API takes for each
/// property, checking every one: the kind, the range, the format (base64, ISO 8601, object
/// ids, UUIDs, decimals), nil where the property is required. Nothing read is trusted.
struct ImportValues {
    /// A value that does not fit its property.
    struct Problem: Error {
        let property: String
        let message: String
    }

    let schema: Schema
    /// The object a link names: by its primary key, or made from its values when its class has
    /// none.
    let link: (_ target: ObjectSchema, _ value: ToolValue) throws(Problem) -> DynamicObject

    /// The values of an object of `objectSchema` from a JSON object's members.
    func object(_ members: [(key: String, value: ToolValue)], of objectSchema: ObjectSchema) throws(Problem) -> [String: Any?] {
        // `Any?` values, as the dynamic API takes them: no conversion of the whole dictionary.
        var values: [String: Any?] = [:]
        for (key, value) in members {
            guard let property = objectSchema[key] else {
                throw Problem(property: key, message: "\(objectSchema.className) has no property '\(key)'")
            }
            guard values.index(forKey: key) == nil else { throw Problem(property: key, message: "given twice") }
            values[key] = try self.value(value, for: property)
        }
        return values
    }

    /// The value of `property` from JSON.
    func value(_ value: ToolValue, for property: Property) throws(Problem) -> Any {
        if property.isArray || property.isSet {
            guard case .array(let elements) = value else {
                if value.isNull { return [Any]() }
                throw Problem(property: property.name, message: "expected an array")
            }
            var converted: [Any] = []
            converted.reserveCapacity(elements.count)
            for element in elements { converted.append(try scalar(element, for: property)) }
            return converted
        }
        if property.isMap {
            guard case .object(let members) = value else {
                if value.isNull { return [String: Any?]() }
                throw Problem(property: property.name, message: "expected an object of keys and values")
            }
            var converted: [String: Any?] = [:]
            for (key, element) in members { converted[key] = .some(try scalar(element, for: property)) }
            return converted
        }
        return try scalar(value, for: property)
    }

    /// The value of `property` from a CSV field: collections, embedded objects and mixed values
    /// as JSON text, the rest as text; an empty field is `nil` (an empty string for a required
    /// string).
    func value(csv field: String, for property: Property) throws(Problem) -> Any {
        if field.isEmpty {
            if property.type == .string && !property.isOptional && !property.isArray && !property.isSet && !property.isMap { return "" }
            return try value(.null, for: property)
        }
        let isStructured = property.isArray || property.isSet || property.isMap || property.type == .any
            || (property.type == .object && schema[property.objectClassName ?? ""].map { $0.isEmbedded || $0.primaryKeyProperty == nil } == true)
        guard isStructured else { return try value(.string(field), for: property) }
        var reader = JSONReader(input: ByteInput(text: field))
        do {
            let parsed = try reader.value()
            guard reader.input.isAtEnd || { reader.input.skipWhitespace(); return reader.input.isAtEnd }() else {
                throw JSONReader.Malformed(line: 1, message: "text after the value")
            }
            return try value(parsed, for: property)
        } catch let error as JSONReader.Malformed {
            throw Problem(property: property.name, message: "not JSON: \(error.message)")
        } catch let problem as Problem {
            throw problem
        } catch {
            throw Problem(property: property.name, message: "\(error)")
        }
    }

    /// Whether `property` holds a plain value: neither a collection, a link nor a mixed value.
    /// Such values convert straight to their stored form (``stored(_:for:)``).
    static func isPlain(_ property: Property) -> Bool {
        !property.isArray && !property.isSet && !property.isMap && ![.any, .object, .linkingObjects].contains(property.type)
    }

    /// The stored value of the plain property `property` (see ``isPlain(_:)``) from a CSV field:
    /// an empty field is `nil`, or an empty string for a required string.
    func stored(csv field: String, for property: Property) throws(Problem) -> _PersistedValue {
        if field.isEmpty && property.type == .string && !property.isOptional { return .string("") }
        return try stored(field.isEmpty ? .null : .string(field), for: property)
    }

    /// The stored value of the plain property `property` (see ``isPlain(_:)``), or of one
    /// element of a plain collection, from JSON or text.
    func stored(_ value: ToolValue, for property: Property) throws(Problem) -> _PersistedValue {
        func problem(_ message: String) -> Problem { Problem(property: property.name, message: message) }
        if value.isNull {
            guard property.isOptional else { throw problem("nil for a property that requires a value") }
            return .null
        }
        switch property.type {
        case .int:
            switch value {
            case .integer(let number): return .int(number)
            case .string(let text): if let number = Int64(text) { return .int(number) }
            default: break
            }
            throw problem("expected a whole number, found \(value.brief)")
        case .bool:
            switch value {
            case .bool(let flag): return .bool(flag)
            case .string("true"): return .bool(true)
            case .string("false"): return .bool(false)
            default: throw problem("expected true or false, found \(value.brief)")
            }
        case .float:
            guard let number = Self.floatingPoint(value) else { throw problem("expected a number, found \(value.brief)") }
            if case .string(let text) = value, let exact = Float(text) { return .float(exact) }
            return .float(Float(number))
        case .double:
            guard let number = Self.floatingPoint(value) else { throw problem("expected a number, found \(value.brief)") }
            return .double(number)
        case .string:
            guard case .string(let text) = value else { throw problem("expected a string, found \(value.brief)") }
            return .string(text)
        case .data:
            guard case .string(let text) = value, let bytes = Data(base64Encoded: text) else { throw problem("expected base64 text, found \(value.brief)") }
            return .data(bytes)
        case .date:
            guard case .string(let text) = value, let date = ISO8601Text.date(text) else {
                throw problem("expected a date in ISO 8601 (2026-12-04T10:15:30.5Z), found \(value.brief)")
            }
            return .date(date)
        case .objectId:
            guard case .string(let text) = value, let id = try? ObjectId(string: text) else { throw problem("expected an object id (24 hex digits), found \(value.brief)") }
            return .objectId(id)
        case .decimal128:
            let text: String
            switch value {
            case .string(let string): text = string
            case .integer(let number): text = String(number)
            default: throw problem("expected a decimal as text, found \(value.brief)")
            }
            guard let decimal = try? Decimal128(string: text) else { throw problem("expected a decimal, found \(value.brief)") }
            return .decimal(decimal)
        case .UUID:
            guard case .string(let text) = value, let uuid = UUID(uuidString: text) else { throw problem("expected a UUID, found \(value.brief)") }
            return .uuid(uuid)
        case .any, .object, .linkingObjects:
            preconditionFailure("\(property.name) is not a plain property")
        }
    }

    /// One value of `property`'s type (an element, for a collection).
    private func scalar(_ value: ToolValue, for property: Property) throws(Problem) -> Any {
        func problem(_ message: String) -> Problem { Problem(property: property.name, message: message) }
        if value.isNull {
            let isCollection = property.isArray || property.isSet || property.isMap
            // A to-one link, a map's value and a mixed value may be nil; other elements and
            // required properties may not.
            guard property.isOptional || property.type == .any || (property.type == .object && !isCollection) else {
                throw problem("nil for a property that requires a value")
            }
            return NSNull()
        }
        switch property.type {
        case .any:
            return try mixed(value, depth: 0, property: property)
        case .object:
            guard let target = schema[property.objectClassName ?? ""] else { throw problem("links to a class the file does not have") }
            if target.isEmbedded {
                guard case .object(let members) = value else { throw problem("expected an object for the embedded \(target.className)") }
                return try object(members, of: target)
            }
            return try link(target, value)
        case .linkingObjects:
            throw problem("backlinks are computed, not imported")
        default:
            return try stored(value, for: property).anyValue ?? NSNull()
        }
    }

    private func mixed(_ value: ToolValue, depth: Int, property: Property) throws(Problem) -> AnyRealmValue {
        guard depth < 64 else { throw Problem(property: property.name, message: "a mixed value nested too deep") }
        switch value {
        case .null: return .none
        case .bool(let flag): return .bool(flag)
        case .integer(let number): return .int(Int(number))
        case .number(let number): return .double(number)
        case .string(let text): return .string(text)
        case .array(let elements):
            var converted: [AnyRealmValue] = []
            for element in elements { converted.append(try mixed(element, depth: depth + 1, property: property)) }
            return .fromArray(converted)
        case .object(let members):
            var converted: [String: AnyRealmValue] = [:]
            for (key, element) in members { converted[key] = try mixed(element, depth: depth + 1, property: property) }
            return .fromDictionary(converted)
        }
    }

    /// A number, or the text of one (with `inf`, `-inf` and `nan`).
    private static func floatingPoint(_ value: ToolValue) -> Double? {
        switch value {
        case .integer(let number): Double(number)
        case .number(let number): number
        case .string(let text): Double(text)
        default: nil
        }
    }
}

extension ToolValue {
    /// The value in a few words, for messages.
    var brief: String {
        let text = json
        return text.count > 40 ? String(text.prefix(39)) + "…" : text
    }
}

/// Dates as the tool prints them: ISO 8601 in UTC, `2026-12-04T10:15:30Z` with up to nine
/// digits of fractions of a second.
enum ISO8601Text {
    static func date(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            guard range.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[$0]) }) else { return nil }
            return range.reduce(0) { $0 * 10 + Int(bytes[$1] - UInt8(ascii: "0")) }
        }
        guard let year = number(0..<4), bytes[4] == UInt8(ascii: "-"), let month = number(5..<7), bytes[7] == UInt8(ascii: "-"),
              let day = number(8..<10), bytes[10] == UInt8(ascii: "T"), let hour = number(11..<13), bytes[13] == UInt8(ascii: ":"),
              let minute = number(14..<16), bytes[16] == UInt8(ascii: ":"), let second = number(17..<19),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        var nanoseconds = 0
        let end = bytes.count - 1
        if end > 19 {
            guard bytes[19] == UInt8(ascii: "."), (21...29).contains(end), let fraction = number(20..<end) else { return nil }
            nanoseconds = fraction * Int(pow(10, Double(29 - end)))
        } else if end != 19 {
            return nil
        }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        let seconds = timegm(&parts)
        // timegm normalises 31 February into March: a date it moved is not a date.
        guard parts.tm_mday == Int32(day), parts.tm_mon == Int32(month - 1) else { return nil }
        return Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1e9)
    }
}
