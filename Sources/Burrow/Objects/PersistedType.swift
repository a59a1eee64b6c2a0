import Foundation

/// A type with a stored form: `PersistedType` is what a realm actually stores for it. The
/// stored types are their own; a ``PersistableEnum`` stores its raw value's type, an optional
/// its wrapped type's optional, and a ``CustomPersistable`` type the type it names.
///
/// Generic code names it to constrain what an operation accepts, as RealmSwift's does:
///
/// ```swift
/// func largest<T: _HasPersistedType>(_ results: Results<Dog>, _ name: String) -> T?
///     where T.PersistedType: MinMaxType {
///     results.max(ofProperty: name)
/// }
/// ```
///
/// Implementation detail of Burrow: conformances and members of this protocol are for Burrow's use, not yours.
public protocol _HasPersistedType {
    /// The type stored for this one.
    associatedtype PersistedType = Self
}

/// Types whose smallest and largest values ``Results/min(ofProperty:)`` and
/// ``Results/max(ofProperty:)`` find: numbers, dates, `AnyRealmValue` and their optionals.
@_marker public protocol MinMaxType {}
extension Int: MinMaxType {}
extension Int8: MinMaxType {}
extension Int16: MinMaxType {}
extension Int32: MinMaxType {}
extension Int64: MinMaxType {}
extension Float: MinMaxType {}
extension Double: MinMaxType {}
extension Decimal: MinMaxType {}
extension Decimal128: MinMaxType {}
extension Date: MinMaxType {}
extension AnyRealmValue: MinMaxType {}
extension Optional: MinMaxType where Wrapped: MinMaxType {}
extension NSNumber: MinMaxType {}

/// Types that ``Results/sum(ofProperty:)`` and ``Results/average(ofProperty:)`` add: numbers,
/// `AnyRealmValue` and their optionals.
@_marker public protocol AddableType {}
extension Int: AddableType {}
extension Int8: AddableType {}
extension Int16: AddableType {}
extension Int32: AddableType {}
extension Int64: AddableType {}
extension Float: AddableType {}
extension Double: AddableType {}
extension Decimal: AddableType {}
extension Decimal128: AddableType {}
extension AnyRealmValue: AddableType {}
extension Optional: AddableType where Wrapped: AddableType {}

/// Types that a collection of values sorts (`sorted(ascending:)`) and makes distinct
/// (`distinct()`) by themselves, as RealmSwift's: numbers, strings, data, dates,
/// `AnyRealmValue` and their optionals.
@_marker public protocol SortableType {}
extension Int: SortableType {}
extension Int8: SortableType {}
extension Int16: SortableType {}
extension Int32: SortableType {}
extension Int64: SortableType {}
extension Float: SortableType {}
extension Double: SortableType {}
extension Decimal: SortableType {}
extension Decimal128: SortableType {}
extension String: SortableType {}
extension Data: SortableType {}
extension Date: SortableType {}
extension AnyRealmValue: SortableType {}
extension Optional: SortableType where Wrapped: SortableType {}

/// Stored types that `@Persisted(indexed: true)` accepts: `Bool`, the integers, `String`,
/// `Date`, `UUID`, ``ObjectId`` and their optionals (an enum through its raw value).
///
/// Implementation detail of Burrow: conformances and members of this protocol are for Burrow's use, not yours.
@_marker public protocol _Indexable {}
extension Bool: _Indexable {}
extension Int: _Indexable {}
extension Int8: _Indexable {}
extension Int16: _Indexable {}
extension Int32: _Indexable {}
extension Int64: _Indexable {}
extension String: _Indexable {}
extension Date: _Indexable {}
extension UUID: _Indexable {}
extension ObjectId: _Indexable {}
extension Optional: _Indexable where Wrapped: _Indexable {}

/// Stored types that `@Persisted(primaryKey: true)` accepts: the integers, `String`, `UUID`,
/// ``ObjectId`` and their optionals (an enum through its raw value).
///
/// Implementation detail of Burrow: conformances and members of this protocol are for Burrow's use, not yours.
@_marker public protocol _PrimaryKey {}
extension Int: _PrimaryKey {}
extension Int8: _PrimaryKey {}
extension Int16: _PrimaryKey {}
extension Int32: _PrimaryKey {}
extension Int64: _PrimaryKey {}
extension String: _PrimaryKey {}
extension UUID: _PrimaryKey {}
extension ObjectId: _PrimaryKey {}
extension Optional: _PrimaryKey where Wrapped: _PrimaryKey {}

/// The value types a realm property can hold, as RealmSwift's `RealmProperty<Value>` names
/// them: every stored scalar type, `AnyRealmValue`, enums and their optionals.
public protocol RealmPropertyType: _Persistable {}
extension Bool: RealmPropertyType {}
extension Int: RealmPropertyType {}
extension Int8: RealmPropertyType {}
extension Int16: RealmPropertyType {}
extension Int32: RealmPropertyType {}
extension Int64: RealmPropertyType {}
extension Float: RealmPropertyType {}
extension Double: RealmPropertyType {}
extension String: RealmPropertyType {}
extension Data: RealmPropertyType {}
extension Date: RealmPropertyType {}
extension UUID: RealmPropertyType {}
extension ObjectId: RealmPropertyType {}
extension Decimal: RealmPropertyType {}
extension Decimal128: RealmPropertyType {}
extension AnyRealmValue: RealmPropertyType {}
extension Optional: RealmPropertyType where Wrapped: RealmOptionalType {}

/// The types that can be optional in a realm property, as RealmSwift's `RealmOptional<Value>`
/// names them: the stored scalar types other than `AnyRealmValue` (which holds `nil` itself).
public protocol RealmOptionalType: _Persistable {}
extension Bool: RealmOptionalType {}
extension Int: RealmOptionalType {}
extension Int8: RealmOptionalType {}
extension Int16: RealmOptionalType {}
extension Int32: RealmOptionalType {}
extension Int64: RealmOptionalType {}
extension Float: RealmOptionalType {}
extension Double: RealmOptionalType {}
extension String: RealmOptionalType {}
extension Data: RealmOptionalType {}
extension Date: RealmOptionalType {}
extension UUID: RealmOptionalType {}
extension ObjectId: RealmOptionalType {}
extension Decimal: RealmOptionalType {}
extension Decimal128: RealmOptionalType {}

extension NSNumber: _HasPersistedType {
    /// An aggregate read as `NSNumber` (`let total: NSNumber = dogs.sum(ofProperty: "age")`),
    /// as RealmSwift allows; not a type a property stores.
    public typealias PersistedType = NSNumber
}
extension NSNumber: AddableType {}
