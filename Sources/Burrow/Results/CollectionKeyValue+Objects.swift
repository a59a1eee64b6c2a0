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
        return values.map { $0.map { $0 as AnyObject } ?? NSNull() }
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

    /// The distinct values of `keyPath` (through to-one links) of the elements, as an array.
    public func value(forKeyPath keyPath: String) -> [AnyObject] {
        CollectionKeyValue.distinct(CollectionKeyValue.objects(forKeyPath: keyPath, of: Array(self)))
    }
}
