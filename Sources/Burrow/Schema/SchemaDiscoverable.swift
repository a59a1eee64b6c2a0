/// The property name a key path reads, as RealmSwift's `_name(for:)` gives it.
///
/// ```swift
/// _name(for: \Dog.age)   // "age"
/// ```
/// Traps for a key path that does not read one `@Persisted` property of `T`.
///
/// Implementation detail of Burrow; do not use.
public func _name<T: ObjectBase>(for keyPath: PartialKeyPath<T>) -> String {
    ClassInfo.of(T.self).propertyName(of: keyPath)
}

/// What a stored type says of itself in a schema, as RealmSwift's protocol of that name: the
/// property type and whether it is optional. Generic code and tests over value types name it.
///
/// ```swift
/// Int?._rlmType       // .int
/// Int?._rlmOptional   // true
/// ```
///
/// Implementation detail of Burrow: conformances and members of this protocol are for Burrow's use, not yours.
public protocol _RealmSchemaDiscoverable {
    /// The property type of a property of this type.
    static var _rlmType: PropertyType { get }
    /// Whether the property can hold `nil`.
    static var _rlmOptional: Bool { get }
    /// Whether RealmSwift's legacy `@objc dynamic` declarations need `@objc`: never here.
    static var _rlmRequireObjc: Bool { get }
}

extension _Persistable {
    /// Implementation detail of `_RealmSchemaDiscoverable`; do not use.
    public static var _rlmType: PropertyType {
        if _collectionKind == .linkingObjects { return .linkingObjects }
        return _storageKind.propertyType
    }
    /// Implementation detail of `_RealmSchemaDiscoverable`; do not use.
    public static var _rlmOptional: Bool { _isOptional }
    /// Implementation detail of `_RealmSchemaDiscoverable`; do not use.
    public static var _rlmRequireObjc: Bool { false }
}

extension Optional: _RealmSchemaDiscoverable where Wrapped: _Persistable {}
