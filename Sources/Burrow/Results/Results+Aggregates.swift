extension Results {
    /// The smallest value of a numeric or date property, ignoring `nil`; `nil` when there is none.
    /// In results of values, `self` names the elements.
    ///
    /// ```swift
    /// let youngest: Int? = dogs.min(ofProperty: "age")
    /// ```
    /// Traps when the property is not a number or a date.
    public func min<T: _HasPersistedType>(ofProperty property: String) -> T? where T.PersistedType: MinMaxType {
        let (kind, values) = propertyValues(property)
        return ValueAggregates.extreme(values, kind: kind, of: "\(elementDescription).\(property)", "min", keepFirst: -1)
            .map { ValueAggregates.convert($0, to: T.self) }
    }

    /// The largest value of a numeric or date property, ignoring `nil`; `nil` when there is none.
    public func max<T: _HasPersistedType>(ofProperty property: String) -> T? where T.PersistedType: MinMaxType {
        let (kind, values) = propertyValues(property)
        return ValueAggregates.extreme(values, kind: kind, of: "\(elementDescription).\(property)", "max", keepFirst: 1)
            .map { ValueAggregates.convert($0, to: T.self) }
    }

    /// The sum of a numeric property, ignoring `nil`; zero for no objects.
    ///
    /// ```swift
    /// let years: Int = dogs.sum(ofProperty: "age")
    /// ```
    public func sum<T: _HasPersistedType>(ofProperty property: String) -> T where T.PersistedType: AddableType {
        let (kind, values) = propertyValues(property)
        return ValueAggregates.convert(ValueAggregates.sum(values, kind: kind, of: "\(elementDescription).\(property)"), to: T.self)
    }

    /// The mean of a numeric property, ignoring `nil`; `nil` when there is no value.
    ///
    /// ```swift
    /// let meanAge: Double? = dogs.average(ofProperty: "age")
    /// ```
    public func average<T: _HasPersistedType>(ofProperty property: String) -> T? where T.PersistedType: AddableType {
        let (kind, values) = propertyValues(property)
        return ValueAggregates.average(values, kind: kind, of: "\(elementDescription).\(property)")
            .map { ValueAggregates.convert($0, to: T.self) }
    }
}
