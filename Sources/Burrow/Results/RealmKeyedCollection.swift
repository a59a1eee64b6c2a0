/// What a ``Map`` offers as a keyed collection, as RealmSwift's protocol of that name: generic
/// code over maps names it.
///
/// ```swift
/// func total<M: RealmKeyedCollection>(_ map: M) -> Int where M.Value == Int {
///     map.sum(ofProperty: "self")
/// }
/// ```
///
/// Queries and sorts read the values, in key order; a map of objects leaves out its `nil` values.
public protocol RealmKeyedCollection: Sequence, CustomStringConvertible {
    associatedtype Key: _MapKey
    associatedtype Value: RealmCollectionValue

    /// The realm of the map, or `nil` while unmanaged.
    var realm: Realm? { get }
    /// Whether the map's owner was deleted.
    var isInvalidated: Bool { get }
    /// Whether the map is a frozen snapshot.
    var isFrozen: Bool { get }
    /// A frozen snapshot of the map; traps while unmanaged.
    func freeze() -> Self
    /// The live map in the calling thread's realm, or `nil` when its owner was deleted.
    func thaw() -> Self?
    /// The number of entries.
    var count: Int { get }
    /// The keys, in key order.
    var keys: [Key] { get }
    /// The values, in key order.
    var values: [Value] { get }

    /// The value under `key`, or `nil`; setting `nil` removes the key (inside a write when managed).
    subscript(key: Key) -> Value? { get set }
    /// Sets the value under `key`, adding the key if it is new.
    func updateValue(_ value: Value, forKey key: Key)
    /// Removes `key` and its value.
    func removeObject(for key: Key)
    /// Removes every entry.
    func removeAll()

    /// The value under the key spelled `key`, or `nil`.
    func value(forKey key: String) -> AnyObject?
    /// The value under the key path's first key, then down its key path.
    func value(forKeyPath keyPath: String) -> AnyObject?
    /// Sets the value under the key spelled `key`.
    func setValue(_ value: Any?, forKey key: String)

    /// The values matching `predicateFormat`, with `%@` and `%K` arguments.
    func filter(_ predicateFormat: String, _ args: Any...) -> Results<Value>
    /// The values matching `predicate`.
    func filter(_ predicate: QueryPredicate) -> Results<Value>
    /// Whether an entry satisfies `predicate`.
    func contains(where predicate: @escaping (_ key: Key, _ value: Value) -> Bool) -> Bool
    /// The values sorted by one property (`self` for values).
    func sorted(byKeyPath keyPath: String, ascending: Bool) -> Results<Value>
    /// The values sorted by several properties.
    func sorted<S: Sequence>(by sortDescriptors: S) -> Results<Value> where S.Element == SortDescriptor

    /// The smallest value of a property of the values (`self` for values), ignoring `nil`.
    func min<T: _HasPersistedType>(ofProperty property: String) -> T? where T.PersistedType: MinMaxType
    /// The largest value of a property of the values, ignoring `nil`.
    func max<T: _HasPersistedType>(ofProperty property: String) -> T? where T.PersistedType: MinMaxType
    /// The sum of a property of the values, ignoring `nil`.
    func sum<T: _HasPersistedType>(ofProperty property: String) -> T where T.PersistedType: AddableType
    /// The mean of a property of the values, ignoring `nil`.
    func average<T: _HasPersistedType>(ofProperty property: String) -> T? where T.PersistedType: AddableType
}

extension Map: RealmKeyedCollection {
    public func value(forKey key: String) -> AnyObject? {
        self[Key(_mapKey: key)].map(CollectionKeyValue.bridgedObject)
    }

    /// The value under `key` as an object, or `nil`, as `NSDictionary`'s method reads it; a
    /// key that is not a `Key` finds nothing.
    ///
    /// ```swift
    /// map.object(forKey: "a" as AnyObject)
    /// ```
    public func object(forKey key: AnyObject) -> AnyObject? {
        guard let key = key as? Key else { return nil }
        return self[key].map { $0 as AnyObject }
    }

    public func value(forKeyPath keyPath: String) -> AnyObject? {
        let parts = keyPath.split(separator: ".", maxSplits: 1).map(String.init)
        guard let first = parts.first, let value = value(forKey: first) else { return nil }
        guard parts.count == 2 else { return value }
        guard let object = value as? Object else {
            burrowPreconditionFailure("Key path '\(keyPath)' goes through the value under '\(first)', which is not an object.")
        }
        return object[parts[1]].map { $0 as AnyObject }
    }

    public func setValue(_ value: Any?, forKey key: String) {
        guard let value else {
            removeObject(for: Key(_mapKey: key))
            return
        }
        guard let converted = Value._fromAny(value) else {
            burrowPreconditionFailure("A \(type(of: value)) cannot be a value of Map<String, \(Value.self)>.")
        }
        updateValue(converted, forKey: Key(_mapKey: key))
    }

    public func contains(where predicate: @escaping (_ key: Key, _ value: Value) -> Bool) -> Bool {
        contains { predicate($0.key, $0.value) }
    }

    /// `Map<string, Value> <0x…> (` then each entry on its own line, then `)`, as RealmSwift
    /// describes maps.
    public var description: String {
        DescriptionText.collection(map { "[\($0.key)]: " + DescriptionText.of($0.value) }, named: "Map<string, \(DescriptionText.typeName(Value.self))>",
                                   identity: self)
    }
}

extension Map: Hashable {
    /// Whether both are the same property of the same stored object, or unmanaged maps with
    /// equal values under the same keys.
    public static func == (lhs: Map, rhs: Map) -> Bool {
        lhs === rhs || lhs.unmanagedEntriesEqual(rhs) ?? ManagedCollection.same(lhs.managed as? ManagedCollection, rhs.managed as? ManagedCollection)
    }

    /// Whether `object` is a map equal to this one (``==(_:_:)``), as RealmSwift's
    /// `isEqual(_:)` compares them.
    ///
    /// ```swift
    /// let a = Map<String, Int>(), b = Map<String, Int>()
    /// a["x"] = 1; b["x"] = 1
    /// a.isEqual(b)   // true
    /// ```
    public func isEqual(_ object: Any?) -> Bool {
        (object as? Map<Key, Value>).map { self == $0 } ?? false
    }

    /// Hashes what ``==`` compares: the stored property, or an unmanaged map's count.
    public func hash(into hasher: inout Hasher) {
        ManagedCollection.hash(managed as? ManagedCollection, orCount: count, into: &hasher)
    }
}

extension RealmKeyedCollection where Value.PersistedType: SortableType {
    /// The values sorted by their own value.
    ///
    /// ```swift
    /// scores.sorted(ascending: false).first   // the highest score
    /// ```
    public func sorted(ascending: Bool = true) -> Results<Value> {
        sorted(byKeyPath: "self", ascending: ascending)
    }
}

extension RealmKeyedCollection where Value.PersistedType: MinMaxType {
    /// The smallest value, ignoring `nil`; `nil` when there is none.
    ///
    /// ```swift
    /// scores.min()   // Int?
    /// ```
    public func min() -> Value? { min(ofProperty: "self") }

    /// The largest value, ignoring `nil`; `nil` when there is none.
    public func max() -> Value? { max(ofProperty: "self") }
}

extension RealmKeyedCollection where Value.PersistedType: AddableType {
    /// The sum of the values, ignoring `nil`: zero for an empty map (the integer 0 for
    /// `AnyRealmValue`s, as in RealmSwift).
    ///
    /// ```swift
    /// scores.sum()   // Int
    /// ```
    public func sum() -> Value {
        guard Value._storageKind == .mixed else { return sum(ofProperty: "self") }
        let sum = ValueAggregates.sum(values.map(\._persistedValue), kind: .mixed, of: "\(Self.self)", emptyMixed: .int(0))
        return ValueAggregates.convert(sum, to: Value.self)
    }

    /// The mean of the values, ignoring `nil`; `nil` when there is none.
    ///
    /// ```swift
    /// let mean: Double? = scores.average()
    /// ```
    public func average<T: _Persistable>() -> T? where T.PersistedType: AddableType { average(ofProperty: "self") }
}
