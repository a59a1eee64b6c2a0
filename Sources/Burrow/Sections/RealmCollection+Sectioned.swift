extension RealmCollection {
    /// The collection sorted by `sortDescriptors` and split into sections by `keyBlock`, which
    /// gives each element its section key.
    ///
    /// ```swift
    /// let byInitial = realm.objects(Dog.self).sectioned(sortDescriptors: [SortDescriptor(keyPath: "name")]) {
    ///     String($0.name.prefix(1))
    /// }
    /// ```
    /// The first sort descriptor must decide the key, so that each key's elements come
    /// together. Traps without sort descriptors, and for a key that is an object (links are
    /// not section keys).
    public func sectioned<Key: _Persistable & Hashable>(sortDescriptors: [SortDescriptor],
                                                         _ keyBlock: @escaping (Element) -> Key) -> SectionedResults<Key, Element> {
        burrowPrecondition(!sortDescriptors.isEmpty, "There must be at least one SortDescriptor when using SectionedResults.")
        burrowPrecondition(Key._rlmType != .object && Key._rlmType != .linkingObjects, "Links are not supported as section keys.")
        return SectionedResults(index: SectionIndex(results: sorted(by: sortDescriptors), sectionKey: keyBlock))
    }

    /// The collection of values sorted by value and split into sections by `block`.
    ///
    /// ```swift
    /// let byInitial = person.nicknames.sectioned(by: { String($0.prefix(1)) }, ascending: true)
    /// ```
    public func sectioned<Key: _Persistable & Hashable>(by block: @escaping (Element) -> Key,
                                                         ascending: Bool = true) -> SectionedResults<Key, Element> {
        sectioned(sortDescriptors: [SortDescriptor(keyPath: "self", ascending: ascending)], block)
    }
}

extension RealmCollection where Element: ObjectBase {
    /// The objects sorted by the property `keyPath` reads and split into a section for each of
    /// its values.
    ///
    /// ```swift
    /// let byAge = realm.objects(Dog.self).sectioned(by: \.age, ascending: false)
    /// ```
    /// A computed property that reads one persisted property sorts by that property and
    /// sections by the computed value (`\.firstLetter` of `name`).
    public func sectioned<Key: _Persistable & Hashable>(by keyPath: KeyPath<Element, Key>,
                                                         ascending: Bool = true) -> SectionedResults<Key, Element> {
        sectioned(sortDescriptors: [SortDescriptor(keyPath: _name(for: keyPath), ascending: ascending)]) { $0[keyPath: keyPath] }
    }

    /// The objects sorted by `sortDescriptors` and split into a section for each value `keyPath`
    /// reads; the first descriptor must sort by that property.
    ///
    /// ```swift
    /// let byAge = dogs.sectioned(by: \.age, sortDescriptors: [SortDescriptor(keyPath: "age"), SortDescriptor(keyPath: "name")])
    /// ```
    /// Traps without sort descriptors, or when the first does not sort by `keyPath`.
    public func sectioned<Key: _Persistable & Hashable>(by keyPath: KeyPath<Element, Key>,
                                                         sortDescriptors: [SortDescriptor]) -> SectionedResults<Key, Element> {
        guard let first = sortDescriptors.first else {
            burrowPreconditionFailure("Can not section Results with empty sortDescriptor parameter.")
        }
        burrowPrecondition(first.keyPath == _name(for: keyPath), "The section key path must match the primary sort descriptor.")
        return sectioned(sortDescriptors: sortDescriptors) { $0[keyPath: keyPath] }
    }

    /// The objects sorted by `sortDescriptors` and split into sections by `block`; the first
    /// descriptor must decide the key.
    ///
    /// ```swift
    /// let byInitial = dogs.sectioned(by: { String($0.name.prefix(1)) }, sortDescriptors: [SortDescriptor(keyPath: "name")])
    /// ```
    public func sectioned<Key: _Persistable & Hashable>(by block: @escaping (Element) -> Key,
                                                         sortDescriptors: [SortDescriptor]) -> SectionedResults<Key, Element> {
        sectioned(sortDescriptors: sortDescriptors, block)
    }
}

extension RealmCollection where Element: ProjectionObservable {
    /// The projections sorted by the stored property `keyPath` reads and split into a section
    /// for each of its values.
    ///
    /// ```swift
    /// let byCity = realm.objects(PersonView.self).sectioned(by: \.homeCity)
    /// ```
    /// Traps for a key path that reads no stored property.
    public func sectioned<Key: _Persistable & Hashable>(by keyPath: KeyPath<Element, Key>,
                                                         ascending: Bool = true) -> SectionedResults<Key, Element> {
        guard let path = Element.originPath(of: keyPath) else {
            burrowPreconditionFailure("Key path \(keyPath) of \(Element.self) reads no @Persisted property to sort the sections by.")
        }
        return sectioned(sortDescriptors: [SortDescriptor(keyPath: path, ascending: ascending)]) { $0[keyPath: keyPath] }
    }

    /// The projections sorted by `sortDescriptors` (stored properties) and split into a section
    /// for each value `keyPath` reads.
    public func sectioned<Key: _Persistable & Hashable>(by keyPath: KeyPath<Element, Key>,
                                                         sortDescriptors: [SortDescriptor]) -> SectionedResults<Key, Element> {
        sectioned(sortDescriptors: sortDescriptors) { $0[keyPath: keyPath] }
    }

    /// The projections sorted by `sortDescriptors` (stored properties) and split into sections by
    /// `block`.
    public func sectioned<Key: _Persistable & Hashable>(by block: @escaping (Element) -> Key,
                                                         sortDescriptors: [SortDescriptor]) -> SectionedResults<Key, Element> {
        sectioned(sortDescriptors: sortDescriptors, block)
    }
}
