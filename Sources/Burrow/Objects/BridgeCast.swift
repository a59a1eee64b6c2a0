import Foundation

/// A value of `T` from the loosely typed form key-value reads give (`AnyObject`, `NSNull` for
/// `nil`), as RealmSwift's function of the same name converts Objective-C values; traps when
/// the value is not one of `T`.
///
/// ```swift
/// let names = dogs.value(forKey: "name").map { dynamicBridgeCast(fromObjectiveC: $0) as String }
/// ```
public func dynamicBridgeCast<T>(fromObjectiveC value: Any) -> T {
    if let persistable = T.self as? any _Persistable.Type, let converted = persistable._fromAny(value) as? T {
        return converted
    }
    if let exact = value as? T { return exact }
    // An AnyRealmValue read from a collection of them stands for the value it holds.
    if let mixed = value as? AnyRealmValue, T.self != AnyRealmValue.self {
        switch mixed {
        case .object(let object): return dynamicBridgeCast(fromObjectiveC: object)
        case .list, .dictionary: break
        default: return dynamicBridgeCast(fromObjectiveC: mixed.scalar.anyValue ?? NSNull())
        }
    }
    burrowPreconditionFailure("Could not convert value '\(value)' to type '\(T.self)'")
}

/// The loosely typed form of `value`: a custom persistable type's stored value, other
/// values as they are.
///
/// ```swift
/// let stored = dynamicBridgeCast(fromSwift: Cents(5)) as? Int   // 5
/// ```
public func dynamicBridgeCast<T>(fromSwift value: T) -> Any {
    if let custom = value as? any _CustomPersistable { return custom.persistableValue }
    return value
}
