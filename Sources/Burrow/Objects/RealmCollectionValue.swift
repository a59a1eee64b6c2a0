import Foundation

/// A value that can be an element of a realm collection such as ``Results`` or ``List``:
/// objects, every stored scalar type, and their optionals.
///
/// ```swift
/// func count<C: RealmCollection>(_ c: C) -> Int where C.Element: RealmCollectionValue { c.count }
/// ```
public protocol RealmCollectionValue: _Persistable, Hashable {}

/// A collection value that may also be wrapped in `Optional` inside a collection: every stored
/// scalar, objects, enums and custom persistable types. Generic code names it to write one
/// extension for `T` and `T?`.
///
/// ```swift
/// func firstOrNil<T: _RealmCollectionValueInsideOptional>(_ list: List<T?>) -> T?? { list.first }
/// ```
///
/// Implementation detail of Burrow: conformances and members of this protocol are for Burrow's use, not yours.
public protocol _RealmCollectionValueInsideOptional: RealmCollectionValue {}

extension Bool: _RealmCollectionValueInsideOptional {}
extension Int: _RealmCollectionValueInsideOptional {}
extension Int8: _RealmCollectionValueInsideOptional {}
extension Int16: _RealmCollectionValueInsideOptional {}
extension Int32: _RealmCollectionValueInsideOptional {}
extension Int64: _RealmCollectionValueInsideOptional {}
extension Float: _RealmCollectionValueInsideOptional {}
extension Double: _RealmCollectionValueInsideOptional {}
extension String: _RealmCollectionValueInsideOptional {}
extension Data: _RealmCollectionValueInsideOptional {}
extension Date: _RealmCollectionValueInsideOptional {}
extension UUID: _RealmCollectionValueInsideOptional {}
extension ObjectId: _RealmCollectionValueInsideOptional {}
extension Decimal: _RealmCollectionValueInsideOptional {}
extension Decimal128: _RealmCollectionValueInsideOptional {}
extension Object: _RealmCollectionValueInsideOptional {}

extension Optional: RealmCollectionValue where Wrapped: RealmCollectionValue {}
