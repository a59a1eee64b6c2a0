import Foundation

// Lists and sets answer key-value reads with an array, as RealmSwift's do, so
// `list.value(forKey: "self").count` and `.map { ... }` work without a cast. The forms
// returning `Any?` stay on ``RealmCollection`` for generic code.

extension CollectionKeyValue {
    /// The value of `keyPath` for each element as objects, `NSNull` for `nil`.
    static func objects<Element: RealmCollectionValue>(forKeyPath keyPath: String, of elements: [Element]) -> [AnyObject] {
        guard let values = value(forKeyPath: keyPath, of: elements) as? [Any?] else {
            burrowPreconditionFailure("'\(keyPath)' gives one value, not one per element: read it through value(forKeyPath:) of a RealmCollection.")
        }
        return values.map(bridgedObject)
    }

    /// `value` as Objective-C's key-value coding hands it out, which RealmSwift's collections
    /// use: `nil` and an empty `AnyRealmValue` as `NSNull`, any other `AnyRealmValue` as the
    /// value or object it holds.
    static func bridgedObject(_ value: Any?) -> AnyObject {
        guard let value else { return NSNull() }
        guard let mixed = value as? AnyRealmValue else { return value as AnyObject }
        switch mixed {
        case .object(let object): return object
        case .list(let list): return list
        case .dictionary(let map): return map
        default: return mixed.scalar.anyValue.map { $0 as AnyObject } ?? NSNull()
        }
    }
}

extension List {
    /// The value of `key` for each element, as an array: `self` for the values themselves.
    ///
    /// ```swift
    /// person.dogs.value(forKey: "name")     // [AnyObject] of the names
    /// ```
    public func value(forKey key: String) -> [AnyObject] {
        CollectionKeyValue.objects(forKeyPath: key, of: Array(self))
    }

    /// The value of `keyPath` (through to-one links) for each element, as an array.
    public func value(forKeyPath keyPath: String) -> [AnyObject] {
        CollectionKeyValue.objects(forKeyPath: keyPath, of: Array(self))
    }
}

/// A set, whose values read through key-value coding make a set (``RealmCollection``'s
/// `value(forKeyPath:)`).
protocol KeyValueSet {}

extension MutableSet: KeyValueSet {}

extension MutableSet {
    /// The distinct values of `key` of the elements, as an array (a set's values, as RealmSwift
    /// gives them): `self` for the values themselves.
    ///
    /// ```swift
    /// Set(tags.value(forKey: "self").map { $0 as! String })
    /// ```
    public func value(forKey key: String) -> [AnyObject] {
        CollectionKeyValue.distinct(CollectionKeyValue.objects(forKeyPath: key, of: Array(self)))
    }

    // `value(forKeyPath:)` is ``RealmCollection``'s, as in RealmSwift, whose sets have no
    // array form of it: `set.value(forKeyPath: "@count")` gives the count.
}
