/// Lists and dictionaries held by an `AnyRealmValue`.
extension AnyRealmValue {
    /// How deeply lists and dictionaries can nest in one value; storing a deeper value traps.
    public static let maximumNestingDepth = NestedValueCodec.maximumDepth

    /// The list held, if any. Read from a managed object, it is live: change it in a write.
    ///
    /// ```swift
    /// try realm.write { setting.value.listValue?.append(.string("new")) }
    /// ```
    public var listValue: List<AnyRealmValue>? { if case .list(let v) = self { v } else { nil } }

    /// The dictionary held, if any. Read from a managed object, it is live: change it in a write.
    ///
    /// ```swift
    /// try realm.write { setting.value.dictionaryValue?["theme"] = .string("dark") }
    /// ```
    public var dictionaryValue: Map<String, AnyRealmValue>? { if case .dictionary(let v) = self { v } else { nil } }

    /// A value holding a new, unmanaged list of `array`'s values.
    ///
    /// ```swift
    /// setting.value = .fromArray([.int(1), .string("two"), .fromArray([])])
    /// ```
    public static func fromArray(_ array: [AnyRealmValue]) -> AnyRealmValue {
        let list = List<AnyRealmValue>()
        list.append(contentsOf: array)
        return .list(list)
    }

    /// A value holding a new, unmanaged dictionary of `dictionary`'s entries.
    ///
    /// ```swift
    /// setting.value = .fromDictionary(["theme": .string("dark"), "size": .int(12)])
    /// ```
    public static func fromDictionary(_ dictionary: [String: AnyRealmValue]) -> AnyRealmValue {
        let map = Map<String, AnyRealmValue>()
        for (key, value) in dictionary { map[key] = value }
        return .dictionary(map)
    }

    /// A list of loosely typed values (from `Object(value:)`), or `nil` when one does not fit.
    static func fromArray(anyElements items: [Any]) -> AnyRealmValue? {
        var elements: [AnyRealmValue] = []
        for item in items {
            guard let element = _fromAny(item) else { return nil }
            elements.append(element)
        }
        return fromArray(elements)
    }

    /// A dictionary of loosely typed values (from `Object(value:)`), or `nil` when one does not fit.
    static func fromDictionary(anyEntries entries: [String: Any]) -> AnyRealmValue? {
        var dictionary: [String: AnyRealmValue] = [:]
        for (key, item) in entries {
            guard let element = _fromAny(item) else { return nil }
            dictionary[key] = element
        }
        return fromDictionary(dictionary)
    }

    /// The value a stored mixed value reads as in `realm`: the object for a link, a live
    /// collection at `location` for a nested one.
    init(stored inner: _PersistedValue, realm: RealmCore, location: @autoclosure () -> NestedLocation) {
        switch inner {
        case .typedLink(let classID, let key):
            self = realm.mixedLinkTarget(classID: classID, key: ObjectKey(key)).map(AnyRealmValue.object) ?? .none
        case .list: self = .list(List(managed: NestedList(location: location())))
        case .dictionary: self = .dictionary(Map(managed: NestedMap(location: location())))
        default: self.init(scalar: inner)
        }
    }

    /// The value a stored mixed value reads as at `location`.
    init(stored inner: _PersistedValue, in location: NestedLocation) {
        self.init(stored: inner, realm: location.slot.realm, location: location)
    }
}
