/// A mixed value encodes as the value it holds (objects as nested objects, lists as arrays,
/// dictionaries as dictionaries, `.none` as `null`), and decodes from JSON-like values:
/// `null`, booleans, integers, other numbers, strings, arrays and dictionaries.
///
/// ```swift
/// let value = try JSONDecoder().decode(AnyRealmValue.self, from: Data("[1, \"two\", null]".utf8))
/// ```
extension AnyRealmValue: Codable {
    /// The value held, as a plain Swift value: what encoding writes, and what key-value coding
    /// and the dynamic accessors read of a mixed property (RealmSwift's): `nil` for `.none`.
    var heldValue: Any? {
        switch self {
        case .none: nil
        case .int(let v): v
        case .bool(let v): v
        case .float(let v): v
        case .double(let v): v
        case .string(let v): v
        case .data(let v): v
        case .date(let v): v
        case .objectId(let v): v
        case .decimal128(let v): v
        case .uuid(let v): v
        case .object(let v): v
        case .list(let v): v
        case .dictionary(let v): v
        }
    }

    public func encode(to encoder: any Encoder) throws {
        try EncodableValue(heldValue).encode(to: encoder)
    }

    /// - Throws: `DecodingError.dataCorrupted` for a value of none of those kinds.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .none
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let elements = try? container.decode([AnyRealmValue].self) {
            let list = List<AnyRealmValue>()
            list.append(objectsIn: elements)
            self = .list(list)
        } else if let entries = try? container.decode([String: AnyRealmValue].self) {
            let map = Map<String, AnyRealmValue>()
            for (key, value) in entries { map[key] = value }
            self = .dictionary(map)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Cannot decode an AnyRealmValue from this value.")
        }
    }
}
