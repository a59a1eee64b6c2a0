/// Collections decode, unmanaged, from what they encode as: lists and sets from arrays, maps
/// from dictionaries; and encode as those.
///
/// ```swift
/// let tags = try JSONDecoder().decode(List<String>.self, from: Data(#"["a", "b"]"#.utf8))
/// ```
extension List: Decodable where Element: Decodable {
    public convenience init(from decoder: any Decoder) throws {
        self.init()
        append(objectsIn: try [Element](from: decoder))
    }
}

extension MutableSet: Decodable where Element: Decodable {
    public convenience init(from decoder: any Decoder) throws {
        self.init()
        insert(objectsIn: try [Element](from: decoder))
    }
}

extension Map: Decodable where Key == String, Value: Decodable {
    public convenience init(from decoder: any Decoder) throws {
        self.init()
        for (key, value) in try [String: Value](from: decoder) { self[key] = value }
    }
}

extension List: Encodable where Element: Encodable {}
extension MutableSet: Encodable where Element: Encodable {}

extension RealmCollection where Self: Encodable, Element: Encodable {
    /// Encodes the elements as an array, in order.
    public func encode(to encoder: any Encoder) throws {
        try Array(self).encode(to: encoder)
    }
}

extension Map: Encodable where Key == String, Value: Encodable {
    public func encode(to encoder: any Encoder) throws {
        try Dictionary(uniqueKeysWithValues: map { ($0.key, $0.value) }).encode(to: encoder)
    }
}
