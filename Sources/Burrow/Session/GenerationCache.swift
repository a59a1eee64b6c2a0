/// What was last read from a realm, and the realm generation it was read in: valid while the
/// realm's ``RealmSession/generation`` has not moved. Results, linking objects and managed
/// collections keep what they read in one.
struct GenerationCache<Value> {
    var value: Value
    /// 0 until the first read: generations start at 1.
    var generation: UInt64 = 0

    init(_ empty: Value) {
        value = empty
    }

    init(_ value: Value, generation: UInt64) {
        self.value = value
        self.generation = generation
    }
}
