/// A map's entries in order, as a value for a map property (``DynamicObject`` subscript,
/// `dynamicCreate`): keys that differ only in their Unicode normal form (`"caf\u{E9}"` and
/// `"cafe\u{301}"`) stay two keys, as the file stores them, where a Swift dictionary would
/// merge them.
struct OrderedMapEntries {
    let entries: [(key: String, value: Any?)]
}
