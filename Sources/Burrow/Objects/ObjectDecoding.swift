/// The key of a property in an object's keyed container: its name.
struct PropertyCodingKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// Decodes the stored properties of an unmanaged object, each as its declared type.
enum ObjectDecoding {
    typealias PropertyKey = PropertyCodingKey

    /// Reads every stored property `decoder` has a value for into `object`.
    static func decode(_ object: Object, from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: PropertyKey.self)
        let info = ClassInfo.of(type(of: object))
        let reader = ObjectValueReader(info: info)
        for (index, field) in info.fields.enumerated() where !field.isComputed {
            let key = PropertyKey(stringValue: field.name)
            guard container.contains(key) else { continue }
            guard let decodable = field.valueType as? any Decodable.Type else {
                throw DecodingError.typeMismatch(field.valueType, .init(codingPath: container.codingPath + [key],
                                                                         debugDescription: "\(field.valueType) is not Decodable"))
            }
            if let value = try decodeIfPresent(decodable, key, in: container) {
                reader.set(value, field: index, on: object)
            }
        }
    }

    private static func decodeIfPresent<T: Decodable>(_ type: T.Type, _ key: PropertyKey,
                                                      in container: KeyedDecodingContainer<PropertyKey>) throws -> Any? {
        try container.decodeIfPresent(type, forKey: key)
    }
}
