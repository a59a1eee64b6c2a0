/// An enum that a `@Persisted` property can store, by its raw value.
///
/// ```swift
/// enum Mood: String, PersistableEnum { case calm, excited }
/// final class Person: Object {
///     @Persisted var mood: Mood = .calm
///     @Persisted var previousMood: Mood?
/// }
/// ```
///
/// A property declared without a default holds the first case. Reading a stored raw value
/// that no case has (written by a newer program) traps.
public protocol PersistableEnum: _Persistable, RawRepresentable, CaseIterable, _RealmCollectionValueInsideOptional where RawValue: _Persistable, PersistedType == RawValue {}

extension PersistableEnum {
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static var _storageKind: _StorageKind { RawValue._storageKind }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static var _defaultValue: Self {
        guard let first = allCases.first else {
            burrowPreconditionFailure("PersistableEnum \(Self.self) has no cases.")
        }
        return first
    }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public var _persistedValue: _PersistedValue { rawValue._persistedValue }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static func _fromPersisted(_ value: _PersistedValue) -> Self {
        guard let result = Self(rawValue: RawValue._fromPersisted(value)) else {
            burrowPreconditionFailure("Stored value \(value.displayText) is not a case of \(Self.self).")
        }
        return result
    }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static func _fromAny(_ value: Any) -> Self? {
        if let exact = value as? Self { return exact }
        return RawValue._fromAny(value).flatMap(Self.init(rawValue:))
    }
}

/// RealmSwift's older name for an enum stored by its raw value, which can also be the value of a
/// ``RealmOptional`` or a ``RealmProperty`` of an optional: declare new enums
/// ``PersistableEnum``.
///
/// ```swift
/// enum Level: Int, RealmEnum { case low, high }
/// final class Alarm: Object {
///     let level = RealmOptional<Level>()
/// }
/// ```
public protocol RealmEnum: PersistableEnum, RealmOptionalType {}
