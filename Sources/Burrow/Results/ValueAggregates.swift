import Foundation

/// `min`, `max`, `sum` and `average` over stored values, shared by results and by collections
/// of values, managed or not.
enum ValueAggregates {
    /// The smallest (`keepFirst: -1`) or largest (`1`) non-`nil` value; traps unless `kind` is a
    /// number or a date (`AnyRealmValue` compares its numbers and dates).
    static func extreme(_ values: [_PersistedValue], kind: _StorageKind, of subject: String, _ name: String,
                        keepFirst sign: Int) -> _PersistedValue? {
        burrowPrecondition([.int, .float, .double, .date, .decimal, .mixed].contains(kind),
                           "Invalid property type '\(kind.propertyType)' for \(name) of '\(subject)': it needs a number or a date.")
        return values.lazy.map(unwrapped).filter { !$0.isNull && isOrdered($0) }.reduce(nil as _PersistedValue?) { best, value in
            guard let best else { return value }
            return (ValueComparator.compare(value, best) ?? 0) == sign ? value : best
        }
    }

    /// The sum of the non-`nil` numbers, in the column's own kind (`AnyRealmValue`: a double,
    /// or a decimal when any is one).
    /// `emptyMixed` is the sum of `AnyRealmValue`s holding no number, when not realm-core's
    /// (a double 0).
    static func sum(_ values: [_PersistedValue], kind: _StorageKind, of subject: String, emptyMixed: _PersistedValue? = nil) -> _PersistedValue {
        let numbers = numbers(values, kind: kind, of: subject, "sum")
        if kind == .mixed, numbers.isEmpty, let emptyMixed { return emptyMixed }
        switch summingKind(kind, numbers) {
        case .int: return .int(numbers.reduce(Int64(0)) { if case .int(let v) = $1 { $0 &+ v } else { $0 } })
        case .decimal: return .decimal(numbers.reduce(Decimal128()) { $0 + decimal($1) })
        case .float: return .float(Float(numbers.reduce(0.0) { $0 + double($1) }))
        default: return .double(numbers.reduce(0.0) { $0 + double($1) })
        }
    }

    /// The mean of the non-`nil` numbers, or `nil` when there is none.
    static func average(_ values: [_PersistedValue], kind: _StorageKind, of subject: String) -> _PersistedValue? {
        let numbers = numbers(values, kind: kind, of: subject, "average")
        guard !numbers.isEmpty else { return nil }
        if summingKind(kind, numbers) == .decimal {
            return .decimal(numbers.reduce(Decimal128()) { $0 + decimal($1) } / Decimal128(number: numbers.count))
        }
        return .double(numbers.reduce(0.0) { $0 + double($1) } / Double(numbers.count))
    }

    /// An aggregate in the caller's type, which may be one Burrow stores or `NSNumber`, as
    /// RealmSwift's aggregates may be read (`let total: NSNumber = dogs.sum(ofProperty: "age")`).
    static func convert<T: _HasPersistedType>(_ value: _PersistedValue, to type: T.Type) -> T {
        func stored<P: _Persistable>(_ type: P.Type) -> Any { convert(value, to: type) }
        if let persistable = T.self as? any _Persistable.Type { return stored(persistable) as! T }
        if T.self == NSNumber.self, let number = number(value) { return number as! T }
        burrowPreconditionFailure("An aggregate of \(value.kind) values cannot be read as \(T.self).")
    }

    /// `value` as an `NSNumber`, for a number.
    private static func number(_ value: _PersistedValue) -> NSNumber? {
        switch unwrapped(value) {
        case .int(let v): NSNumber(value: v)
        case .double(let v): NSNumber(value: v)
        case .float(let v): NSNumber(value: v)
        case .bool(let v): NSNumber(value: v)
        case .decimal(let v): NSNumber(value: v.doubleValue)
        default: nil
        }
    }

    /// An aggregate in the caller's type: numbers convert across widths and kinds.
    static func convert<T: _Persistable>(_ value: _PersistedValue, to type: T.Type) -> T {
        if T._storageKind == .mixed { return T._fromPersisted(value.isNull || value.kind == .mixed ? value : .mixed(value)) }
        let converted: _PersistedValue = switch (T._storageKind, value) {
        case (.int, .double(let v)): .int(Int64(v.rounded(.towardZero)))
        case (.int, .float(let v)): .int(Int64(v.rounded(.towardZero)))
        case (.int, .decimal(let v)): .int(Int64(exactly: v.doubleValue.rounded(.towardZero)) ?? 0)
        case (.double, _): .double(double(value))
        case (.float, _): .float(Float(double(value)))
        case (.decimal, .int(let v)): .decimal(Decimal128(number: v))
        case (.decimal, .double(let v)): .decimal(Decimal128(number: v))
        case (.decimal, .float(let v)): .decimal(Decimal128(number: v))
        default: value
        }
        guard T._storageKind == converted.kind else {
            burrowPreconditionFailure("Cannot return \(value.displayText) as \(T.self).")
        }
        return T._fromPersisted(converted)
    }

    // MARK: Numbers

    private static func numbers(_ values: [_PersistedValue], kind: _StorageKind, of subject: String, _ name: String) -> [_PersistedValue] {
        burrowPrecondition([.int, .float, .double, .decimal, .mixed].contains(kind),
                           "Invalid property type '\(kind.propertyType)' for \(name) of '\(subject)': it needs a number.")
        return values.map(unwrapped).filter { [.int, .float, .double, .decimal].contains($0.kind) }
    }

    /// The kind sums are made in: the column's, or for `AnyRealmValue` a decimal when any
    /// number is one and a double otherwise.
    private static func summingKind(_ kind: _StorageKind, _ numbers: [_PersistedValue]) -> _StorageKind {
        guard kind == .mixed else { return kind }
        return numbers.contains { $0.kind == .decimal } ? .decimal : .double
    }

    /// The value an `AnyRealmValue` holds; other values as they are.
    private static func unwrapped(_ value: _PersistedValue) -> _PersistedValue {
        if case .mixed(let inner) = value { return inner }
        return value
    }

    private static func isOrdered(_ value: _PersistedValue) -> Bool {
        [.int, .float, .double, .date, .decimal].contains(value.kind)
    }

    static func double(_ value: _PersistedValue) -> Double {
        switch value {
        case .int(let v): Double(v)
        case .float(let v): Double(v)
        case .double(let v): v
        case .decimal(let v): v.doubleValue
        default: 0
        }
    }

    private static func decimal(_ value: _PersistedValue) -> Decimal128 {
        switch value {
        case .int(let v): Decimal128(number: v)
        case .decimal(let v): v
        default: Decimal128(number: double(value))
        }
    }
}
