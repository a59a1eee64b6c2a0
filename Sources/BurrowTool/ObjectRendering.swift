import Burrow
import Foundation

/// Turns objects read through the dynamic API into ``ToolValue``s: scalars as JSON kinds
/// (`Data` as base64, dates as ISO 8601 with fractions of a second, object ids, decimals and
/// UUIDs as their text), collections inline, embedded objects whole, and links as the target's
/// primary key (the target's own values when its class has none).
enum ObjectRendering {
    /// `object`'s `properties` (all of its schema's when `nil`) as a JSON object.
    static func render(_ object: DynamicObject, properties: [Property]? = nil) -> ToolValue {
        let chosen = properties ?? object.objectSchema.properties
        return .object(chosen.map { ($0.name, value(of: $0, in: object)) })
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
        let interval = date.timeIntervalSince1970
        var seconds = interval.rounded(.down)
        var nanoseconds = Int(((interval - seconds) * 1e9).rounded())
        if nanoseconds >= 1_000_000_000 { seconds += 1; nanoseconds -= 1_000_000_000 }
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        let base = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                          Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
        guard nanoseconds > 0 else { return base + "Z" }
        var fraction = String(format: "%09d", nanoseconds)
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return base + "." + fraction + "Z"
    }
}
