import Foundation

/// Objects encode as a keyed container of their stored properties, managed or not: links as
/// nested objects, lists and sets as arrays, maps as dictionaries, `AnyRealmValue` as the value it
/// holds. `LinkingObjects` are left out (they are computed), and an object met again while it is
/// being encoded (a cycle of links) encodes as `nil`.
///
/// As in RealmSwift, a model opts in by declaring `Codable` (or `Encodable`, `Decodable`); it
/// then uses these implementations, and ``Object/init(from:)``:
///
/// ```swift
/// final class Dog: Object, Codable {
///     @Persisted var name = ""
/// }
/// let json = try JSONEncoder().encode(realm.objects(Dog.self))   // a JSON array
/// ```
extension Object {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: PropertyCodingKey.self)
        let info = ClassInfo.of(Swift.type(of: self))
        EncodingPath.enter(self)
        defer { EncodingPath.leave(self) }
        for field in info.fields where !field.isComputed {
            try container.encode(EncodableValue(self[field.name]), forKey: PropertyCodingKey(stringValue: field.name))
        }
    }
}

/// Any property value, encoded by what it is.
struct EncodableValue: Encodable {
    let value: Any?

    init(_ value: Any?) { self.value = value }

    func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        switch value {
        case nil:
            try single.encodeNil()
        case let object as Object:
            if EncodingPath.contains(object) { try single.encodeNil() } else { try object.encode(to: encoder) }
        case let mixed as AnyRealmValue:
            try EncodableValue(mixed.heldValue).encode(to: encoder)
        case let entries as any _EncodableEntries:
            try single.encode(entries.encodableEntries.mapValues(EncodableValue.init))
        case let sequence as any Sequence where !(value is String) && !(value is Data):
            try single.encode(sequence.map { EncodableValue($0) })
        case let encodable as any Encodable:
            try single.encode(encodable)
        default:
            throw EncodingError.invalidValue(value as Any, .init(codingPath: encoder.codingPath,
                                                                  debugDescription: "\(type(of: value!)) is not encodable"))
        }
    }

}

/// Maps expose their entries for encoding.
protocol _EncodableEntries {
    var encodableEntries: [String: Any?] { get }
}

extension Map: _EncodableEntries {
    var encodableEntries: [String: Any?] {
        Dictionary(uniqueKeysWithValues: map { ($0.key._mapKey, $0.value as Any?) })
    }
}

/// The objects being encoded on this thread, to cut cycles of links.
private enum EncodingPath {
    private final class Path { var objects: Set<Identity> = [] }

    /// A stored object is the same whatever accessor reads it.
    private enum Identity: Hashable {
        case stored(classID: UInt32, key: ObjectKey)
        case unmanaged(ObjectIdentifier)

        init(_ object: Object) {
            if let management = object.management {
                self = .stored(classID: management.bound.layout.classID, key: management.key)
            } else {
                self = .unmanaged(ObjectIdentifier(object))
            }
        }
    }

    private static let slot = ThreadSlot { Path() }

    private static var path: Path { slot.value }

    static func enter(_ object: Object) { path.objects.insert(Identity(object)) }
    static func leave(_ object: Object) { path.objects.remove(Identity(object)) }
    static func contains(_ object: Object) -> Bool { path.objects.contains(Identity(object)) }
}

extension Results: Encodable where Element: Encodable {
    /// Encodes the results as an array of their objects, in order.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for element in self { try container.encode(element) }
    }
}
