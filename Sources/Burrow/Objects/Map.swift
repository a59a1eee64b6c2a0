import Foundation

/// The key types a ``Map`` accepts: `String`.
///
/// Implementation detail of Burrow: conformances and members of this protocol are for Burrow's use, not yours.
public protocol _MapKey: Hashable, Comparable {
    /// The key as stored.
    var _mapKey: String { get }
    /// A key from its stored form.
    init(_mapKey: String)
}

extension String: _MapKey {
    /// Implementation detail of `_MapKey`; do not use.
    public var _mapKey: String { self }
    public init(_mapKey: String) { self = _mapKey }
}

/// One entry of a ``Map``, as its iteration yields them.
public struct SingleMapEntry<Key: _MapKey, Value> {
    /// The entry's key.
    public let key: Key
    /// The entry's value.
    public let value: Value
}

extension SingleMapEntry: Equatable where Value: Equatable {}
extension SingleMapEntry: Hashable where Value: Hashable {}

/// A dictionary property from `String` keys to objects or values.
///
/// ```swift
/// final class Person: Object {
///     @Persisted var scores: Map<String, Int>
///     @Persisted var pets: Map<String, Dog?>
/// }
/// try realm.write {
///     person.scores["chess"] = 1800
///     person.pets["home"] = Dog(value: ["name": "Rex"])   // Rex is added too
///     person.scores["go"] = nil                            // removes the key
/// }
/// ```
///
/// A managed map reads one key in one B-tree lookup and iterates in key order. Deleting an
/// object sets the entries that pointed at it to `nil` (the keys stay).
public final class Map<Key: _MapKey, Value: RealmCollectionValue>: Sequence, _UnmanagedMap {
    private var storage: [Key: Value] = [:]
    private(set) var managed: (any MapStorage)?
    /// What every key of a probe's map reads (``KeyPathProbeCollection``).
    private var probeElement: Value?

    /// An empty, unmanaged map.
    public init() {
        managed = nil
    }

    init(managed: any MapStorage) {
        self.managed = managed
    }

    /// The realm managing the map's owner, or `nil` while unmanaged.
    public var realm: Realm? { managed.map { Realm(core: $0.realm) } }

    /// Whether the owner was deleted.
    public var isInvalidated: Bool { managed?.isInvalidated ?? false }

    /// The number of entries.
    public var count: Int { managed?.count ?? storage.count }

    /// Whether the map has no entries.
    public var isEmpty: Bool { count == 0 }

    /// The keys, in key order.
    public var keys: [Key] {
        guard let managed else { return storage.keys.sorted() }
        return managed.keys.map { Key(_mapKey: $0) }
    }

    /// The values, in key order.
    public var values: [Value] {
        guard let managed else { return storage.keys.sorted().map { storage[$0]! } }
        return managed.values(as: Value.self)
    }

    /// The value under `key`, or `nil`; setting `nil` removes the key (inside a write when managed).
    public subscript(key: Key) -> Value? {
        get {
            guard let managed else { return storage[key] ?? probeElement }
            return managed.value(forKey: key._mapKey, as: Value.self)
        }
        set {
            guard let newValue else {
                removeObject(for: key)
                return
            }
            updateValue(newValue, forKey: key)
        }
    }

    /// The value under `key`, or `nil`.
    public func object(forKey key: Key) -> Value? { self[key] }

    /// Sets the value under `key`.
    public func updateValue(_ value: Value, forKey key: Key) {
        guard let managed else {
            storage[key] = value
            return
        }
        managed.set(value, for: key._mapKey)
    }

    /// Adds the entries of `other`; for a key already present, `combine` picks the value kept
    /// from the current one and the new one.
    ///
    /// ```swift
    /// try realm.write { person.scores.merge(["chess": 1900, "go": 3]) { max($0, $1) } }
    /// ```
    public func merge(_ other: [Key: Value], uniquingKeysWith combine: (Value, Value) throws -> Value) rethrows {
        try merge(other.map { ($0.key, $0.value) }, uniquingKeysWith: combine)
    }

    /// Adds the `(key, value)` pairs of `sequence`; for a key already present, `combine` picks
    /// the value kept from the current one and the new one.
    public func merge<S: Sequence>(_ sequence: S, uniquingKeysWith combine: (Value, Value) throws -> Value) rethrows
    where S.Element == (Key, Value) {
        for (key, value) in sequence {
            updateValue(try self[key].map { try combine($0, value) } ?? value, forKey: key)
        }
    }

    /// Removes `key` and its value.
    public func removeObject(for key: Key) {
        guard let managed else {
            storage[key] = nil
            return
        }
        managed.remove(key._mapKey)
    }

    /// Removes every entry (objects stay in the realm).
    public func removeAll() {
        guard let managed else {
            storage.removeAll()
            return
        }
        managed.removeAll()
    }

    /// Whether the map has `key`.
    public func contains(key: Key) -> Bool {
        guard let managed else { return storage[key] != nil }
        return managed.contains(key._mapKey)
    }

    /// The entries, in key order.
    public func makeIterator() -> IndexingIterator<[SingleMapEntry<Key, Value>]> {
        zip(keys, values).map { SingleMapEntry(key: $0, value: $1) }.makeIterator()
    }

    var unmanagedEntries: [(key: String, value: any _Persistable)] {
        managed == nil ? storage.keys.sorted().map { ($0._mapKey, storage[$0]!) } : []
    }
}

/// A map whose unmanaged entries are copied into the realm with its owner.
protocol _UnmanagedMap {
    var unmanagedEntries: [(key: String, value: any _Persistable)] { get }
    /// Every entry, managed or not, by stored key: what another map property takes from it.
    var entriesByKey: [String: Any] { get }
}

extension Map {
    var entriesByKey: [String: Any] {
        Dictionary(map { ($0.key._mapKey, $0.value as Any) }, uniquingKeysWith: { first, _ in first })
    }
}

extension Map: _Persistable {
    /// Implementation detail of `_Persistable`; do not use.
    public static var _storageKind: _StorageKind { Value._storageKind }
    /// Implementation detail of `_Persistable`; do not use.
    public static var _isOptional: Bool { Value._isOptional }
    /// Implementation detail of `_Persistable`; do not use.
    public static var _defaultValue: Map<Key, Value> { Map() }
    /// Implementation detail of `_Persistable`; do not use.
    public var _persistedValue: _PersistedValue { .null }
    /// Implementation detail of `_Persistable`; do not use.
    public static func _fromPersisted(_ value: _PersistedValue) -> Map<Key, Value> {
        burrowPreconditionFailure("A map is read through the object that holds it.")
    }
    /// Implementation detail of `_Persistable`; do not use.
    public static var _linkedType: ObjectBase.Type? { Value._linkedType }
    /// Implementation detail of `_Persistable`; do not use.
    public static var _collectionKind: _CollectionKind? { .map }

    /// Implementation detail of `_Persistable`; do not use.
    public static func _fromAny(_ value: Any) -> Map<Key, Value>? {
        if let map = value as? Map<Key, Value> { return map }
        guard let dictionary = value as? [String: Any] else { return nil }
        let map = Map<Key, Value>()
        for (key, item) in dictionary {
            guard let element = Value._fromAny(item) ?? absentObjectValue(item) else { return nil }
            map.storage[Key(_mapKey: key)] = element
        }
        return map
    }

    /// For a value type stored as an object (a ``CustomPersistable`` of an embedded object):
    /// `nil` is the value of a new object, as a property of the type reads a missing object and
    /// as RealmSwift takes `NSNull` for a map's entry (its link is optional underneath; a list's
    /// elements are not, and refuse it).
    private static func absentObjectValue(_ item: Any) -> Value? {
        guard Value._linkedType != nil, item is NSNull || (item as? any OptionalValue)?.isNil == true else { return nil }
        return Value._fromLinkedObject(nil)
    }

    /// Implementation detail of `_Persistable`; do not use.
    public static func _get(from object: ObjectBase, column: Int) -> Map<Key, Value> {
        object.managedCollection(column: column) { Map(managed: ManagedMap(owner: object, column: column, targetType: Value._linkedType)) }
    }

    /// Implementation detail of `_Persistable`; do not use.
    public static func _set(_ value: Map<Key, Value>, on object: ObjectBase, column: Int) {
        let target = _get(from: object, column: column)
        let replacement = Array(value)
        target.removeAll()
        for entry in replacement { target.updateValue(entry.value, forKey: entry.key) }
    }
}

extension Map: _AdoptableCollection {
    func dropUnmanagedElements() { storage = [:] }
    func becomeManaged(owner: ObjectBase, column: Int) {
        managed = ManagedMap(owner: owner, column: column, targetType: Value._linkedType)
    }
}

extension Map: KeyPathProbeCollection {
    func holdProbeElement(recordingInto recorder: KeyPathRecorder) {
        guard managed == nil, storage.isEmpty else { return }
        probeElement = recorder.probeElement(of: Value.self)
    }
}

extension Map {
    /// For two unmanaged maps, whether they hold equal values under the same keys (RealmSwift
    /// compares unmanaged maps so); `nil` when either is managed.
    func unmanagedEntriesEqual(_ other: Map<Key, Value>) -> Bool? {
        managed == nil && other.managed == nil ? storage == other.storage : nil
    }
}
