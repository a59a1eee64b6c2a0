/// `Optional`, as a constraint: lets a generic signature speak of the type an optional wraps,
/// as RealmSwift's `OptionalProtocol` does (`where Value: OptionalProtocol, Value.Wrapped: Object`).
///
/// ```swift
/// func names<V: OptionalProtocol>(_ map: Map<String, V>) -> [String] where V.Wrapped: Object { Array(map.keys) }
/// ```
public protocol OptionalProtocol {
    /// The type the optional wraps.
    associatedtype Wrapped
    /// The wrapped value; traps for `nil`. Only used to name `Wrapped` in signatures.
    func _rlmInferWrappedType() -> Wrapped
}

extension Optional: OptionalProtocol {
    public func _rlmInferWrappedType() -> Wrapped { self! }
}
