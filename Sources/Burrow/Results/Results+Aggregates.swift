import Foundation

extension Results {
    /// The smallest value of a numeric or date property, ignoring `nil`; `nil` when there is none.
    ///
    /// ```swift
    /// let youngest: Int? = dogs.min(ofProperty: "age")
    /// ```
    /// Traps when the property is not a number or a date.
    public func min<T: _Persistable>(ofProperty property: String) -> T? where T.PersistedType: MinMaxType {
        extreme(property, "min", keepFirst: -1)
    }

    /// The largest value of a numeric or date property, ignoring `nil`; `nil` when there is none.
    public func max<T: _Persistable>(ofProperty property: String) -> T? where T.PersistedType: MinMaxType {
        extreme(property, "max", keepFirst: 1)
    }

    /// The sum of a numeric property, ignoring `nil`; zero for no objects.
    ///
    /// ```swift
    /// let years: Int = dogs.sum(ofProperty: "age")
    /// ```
    public func sum<T: _Persistable>(ofProperty property: String) -> T where T.PersistedType: AddableType {
        let (kind, values) = numericValues(property, "sum")
        let total: _PersistedValue = switch kind {
        case .int: .int(values.reduce(Int64(0)) { if case .int(let v) = $1 { $0 &+ v } else { $0 } })
        case .decimal: .decimal(values.reduce(Decimal(0)) { if case .decimal(let v) = $1 { $0 + v } else { $0 } })
        case .float: .float(Float(values.reduce(0.0) { $0 + Self.double($1) }))
        default: .double(values.reduce(0.0) { $0 + Self.double($1) })
        }
        return Self.convert(total, to: T.self)
    }

    /// The mean of a numeric property, ignoring `nil`; `nil` when there is no value.
    ///
    /// ```swift
    /// let meanAge: Double? = dogs.average(ofProperty: "age")
    /// ```
    public func average<T: _Persistable>(ofProperty property: String) -> T? where T.PersistedType: AddableType {
        let (kind, values) = numericValues(property, "average")
        guard !values.isEmpty else { return nil }
        if kind == .decimal {
            let total = values.reduce(Decimal(0)) { if case .decimal(let v) = $1 { $0 + v } else { $0 } }
            return Self.convert(.decimal(total / Decimal(values.count)), to: T.self)
        }
        return Self.convert(.double(values.reduce(0.0) { $0 + Self.double($1) } / Double(values.count)), to: T.self)
    }

    private func extreme<T: _Persistable>(_ property: String, _ name: String, keepFirst sign: Int) -> T? {
        let (kind, values) = core.values(of: property)
        precondition([.int, .float, .double, .date, .decimal].contains(kind),
                     "Invalid property type '\(kind.propertyType)' for \(name) of '\(core.info.className).\(property)': it needs a number or a date.")
        let best = values.lazy.filter { !$0.isNull }.reduce(nil as _PersistedValue?) { best, value in
            guard let best else { return value }
            return (ValueComparator.compare(value, best) ?? 0) == sign ? value : best
        }
        return best.map { Self.convert($0, to: T.self) }
    }

    private func numericValues(_ property: String, _ name: String) -> (_StorageKind, [_PersistedValue]) {
        let (kind, values) = core.values(of: property)
        precondition([.int, .float, .double, .decimal].contains(kind),
                     "Invalid property type '\(kind.propertyType)' for \(name) of '\(core.info.className).\(property)': it needs a number.")
        return (kind, values.filter { !$0.isNull })
    }

    private static func double(_ value: _PersistedValue) -> Double {
        switch value {
        case .int(let v): Double(v)
        case .float(let v): Double(v)
        case .double(let v): v
        case .decimal(let v): NSDecimalNumber(decimal: v).doubleValue
        default: 0
        }
    }

    /// An aggregate in the caller's type: numbers convert across widths and kinds.
    static func convert<T: _Persistable>(_ value: _PersistedValue, to type: T.Type) -> T {
        let converted: _PersistedValue = switch (T._storageKind, value) {
        case (.int, .double(let v)): .int(Int64(v.rounded(.towardZero)))
        case (.int, .float(let v)): .int(Int64(v.rounded(.towardZero)))
        case (.int, .decimal(let v)): .int(Int64(NSDecimalNumber(decimal: v).doubleValue.rounded(.towardZero)))
        case (.double, _): .double(double(value))
        case (.float, _): .float(Float(double(value)))
        case (.decimal, .int(let v)): .decimal(Decimal(v))
        case (.decimal, .double(let v)): .decimal(Decimal(v))
        case (.decimal, .float(let v)): .decimal(Decimal(Double(v)))
        default: value
        }
        guard T._storageKind == converted.kind else {
            preconditionFailure("Cannot return \(value.displayText) as \(T.self).")
        }
        return T._fromPersisted(converted)
    }
}

extension Results where Element: Object {
    /// The smallest value of the property `keyPath` reads, ignoring `nil`.
    ///
    /// ```swift
    /// let youngest = dogs.min(of: \.age)
    /// ```
    public func min<T: _Persistable>(of keyPath: KeyPath<Element, T>) -> T? where T.PersistedType: MinMaxType {
        min(ofProperty: core.info.propertyName(of: keyPath))
    }

    /// The largest value of the property `keyPath` reads, ignoring `nil`.
    public func max<T: _Persistable>(of keyPath: KeyPath<Element, T>) -> T? where T.PersistedType: MinMaxType {
        max(ofProperty: core.info.propertyName(of: keyPath))
    }

    /// The sum of the property `keyPath` reads, ignoring `nil`.
    public func sum<T: _Persistable>(of keyPath: KeyPath<Element, T>) -> T where T.PersistedType: AddableType {
        sum(ofProperty: core.info.propertyName(of: keyPath))
    }

    /// The mean of the property `keyPath` reads, ignoring `nil`.
    public func average<T: _Persistable>(of keyPath: KeyPath<Element, T>) -> T? where T.PersistedType: AddableType {
        average(ofProperty: core.info.propertyName(of: keyPath))
    }
}
