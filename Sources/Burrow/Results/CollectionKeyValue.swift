/// Key-value access over the elements of a collection, as RealmSwift's collections offer it
/// through Objective-C's key-value coding: Linux has none, so it goes through Burrow's dynamic
/// accessor (``Object/subscript(_:)``).
enum CollectionKeyValue {
    private static let aggregates = ["@min", "@max", "@sum", "@avg"]
    private static let unions = ["@unionOfObjects", "@distinctUnionOfObjects"]

    /// `self`, a property, a key path through to-one links, or `@count` / `@min.x` / `@max.x` /
    /// `@sum.x` / `@avg.x`, or `@unionOfObjects.x` (the values that are not `nil`) /
    /// `@distinctUnionOfObjects.x` (the same without repeats).
    static func value<Element: RealmCollectionValue>(forKeyPath keyPath: String, of elements: [Element]) -> Any? {
        if keyPath == "@count" { return elements.count }
        let parts = keyPath.split(separator: ".", maxSplits: 1).map(String.init)
        guard let name = parts.first, name.hasPrefix("@") else { return values(of: keyPath, in: elements) }
        guard aggregates.contains(name) || unions.contains(name) else {
            burrowPreconditionFailure("Unsupported collection operator '\(name)': the operators are @count, \((aggregates + unions).joined(separator: ", ")).")
        }
        guard parts.count == 2 else { burrowPreconditionFailure("Collection operator '\(name)' needs a key path after it, as in '\(name).age'.") }
        let values = values(of: parts[1], in: elements)
        switch name {
        case "@unionOfObjects": return values.compactMap { $0 }
        case "@distinctUnionOfObjects": return distinct(values.compactMap { $0 })
        default: return aggregate(name, values)
        }
    }

    /// `values` without repeats, in order: equal values once, objects by identity.
    static func distinct<Value>(_ values: [Value]) -> [Value] {
        var seen = Set<AnyHashable>()
        return values.filter { value in
            let identity = (value as? AnyHashable) ?? AnyHashable(ObjectIdentifier(value as AnyObject))
            return seen.insert(identity).inserted
        }
    }

    /// Sets `key` of every object of `elements` (inside a write).
    static func setValue<Element: RealmCollectionValue>(_ value: Any?, forKey key: String, on elements: [Element]) {
        for element in elements {
            guard let object = element as? Object else {
                burrowPreconditionFailure("setValue(_:forKey:) needs a collection of objects; '\(key)' of a \(Element.self) cannot be set.")
            }
            object[key] = value
        }
    }

    // MARK: Reading

    /// The value of `keyPath` for each element, `nil` where a link on the way is `nil`.
    private static func values<Element: RealmCollectionValue>(of keyPath: String, in elements: [Element]) -> [Any?] {
        if keyPath == "self" { return elements.map { $0 } }
        let names = keyPath.split(separator: ".").map(String.init)
        return elements.map { element in
            guard let object = element as? Object ?? (element as? AnyRealmValue)?.object(Object.self) else {
                burrowPreconditionFailure("Invalid key path '\(keyPath)' for a collection of \(Element.self) values: only 'self' names them.")
            }
            return follow(names[...], from: object, keyPath)
        }
    }

    private static func follow(_ names: ArraySlice<String>, from object: Object, _ keyPath: String) -> Any? {
        guard let name = names.first else { return object }
        let value = object[name]
        guard names.count > 1 else { return value }
        guard let value else { return nil }
        guard let next = value as? Object else {
            burrowPreconditionFailure("Key path '\(keyPath)' goes through '\(name)', which is not a link.")
        }
        return follow(names.dropFirst(), from: next, keyPath)
    }

    /// The stored values of `property` (`self` for values) of each element, with the kind to
    /// aggregate them as, for collections that have no realm to ask.
    static func storedValues<Element: RealmCollectionValue>(of property: String, in elements: [Element]) -> (kind: _StorageKind, values: [_PersistedValue]) {
        if property == "self" { return (Element._storageKind, elements.map(\._persistedValue)) }
        let stored = values(of: property, in: elements).map(storedForm)
        return (stored.first { !$0.isNull }?.kind ?? .int, stored)
    }

    /// `@min`, `@max`, `@sum` or `@avg` of values read by the dynamic accessor.
    private static func aggregate(_ name: String, _ values: [Any?]) -> Any? {
        let stored = values.map(storedForm)
        let kind = stored.first { !$0.isNull }?.kind ?? .int
        let result: _PersistedValue? = switch name {
        case "@min": ValueAggregates.extreme(stored, kind: kind, of: name, "min", keepFirst: -1)
        case "@max": ValueAggregates.extreme(stored, kind: kind, of: name, "max", keepFirst: 1)
        case "@sum": ValueAggregates.sum(stored, kind: kind, of: name)
        default: ValueAggregates.average(stored, kind: kind, of: name)
        }
        return result.flatMap(plainValue)
    }

    private static func storedForm(_ value: Any?) -> _PersistedValue {
        guard let value, let persistable = value as? any _Persistable else { return .null }
        return persistable._persistedValue
    }

    /// A stored scalar as the Swift value it reads as (integers as `Int`).
    private static func plainValue(_ value: _PersistedValue) -> Any? {
        switch value {
        case .null: nil
        case .int(let v): Int(v)
        case .double(let v): v
        case .float(let v): v
        case .decimal(let v): v
        case .date(let v): v
        case .mixed(let inner): plainValue(inner)
        default: nil
        }
    }
}
