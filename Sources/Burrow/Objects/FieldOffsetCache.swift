@_spi(Reflection) import Swift
import Synchronization

/// Where each `@Persisted` wrapper sits inside its object, by the key path Swift hands the
/// wrapper's accessor, so that property access reads the wrapper straight from memory instead
/// of projecting the key path through the runtime (which costs more than the access itself).
///
/// A fixed table of atomic words, each holding a key path's address and the offset: lock-free,
/// and a collision only sends an access back to the slow path. Every offset is checked against
/// the stored fields of the object's class before it is trusted.
@usableFromInline
enum FieldOffsetCache {
    private static let slotCount = 1024
    // Only ever read and written through the atomics it points to.
    nonisolated(unsafe) private static let slots: UnsafeMutablePointer<Atomic<UInt64>> = {
        let slots = UnsafeMutablePointer<Atomic<UInt64>>.allocate(capacity: slotCount)
        for index in 0..<slotCount { (slots + index).initialize(to: Atomic(0)) }
        return slots
    }()

    /// The offset of the wrapper `keyPath` reaches inside `object`.
    @inlinable
    static func offset<Root: ObjectBase, Wrapper>(of keyPath: ReferenceWritableKeyPath<Root, Wrapper>, in object: Root) -> Int {
        if let known = cachedOffset(of: keyPath) { return known }
        return learnOffset(of: keyPath, in: object)
    }

    @usableFromInline
    static func cachedOffset(of keyPath: AnyKeyPath) -> Int? {
        let address = UInt64(UInt(bitPattern: ObjectIdentifier(keyPath)))
        let word = slots[Int((address >> 4) % UInt64(slotCount))].load(ordering: .relaxed)
        guard word != 0, word >> 16 == address else { return nil }
        return Int(word & 0xFFFF) - 1
    }

    @usableFromInline
    static func learnOffset<Root: ObjectBase, Wrapper>(of keyPath: ReferenceWritableKeyPath<Root, Wrapper>, in object: Root) -> Int {
        let base = UnsafeMutableRawPointer(Unmanaged.passUnretained(object).toOpaque())
        let offset = withUnsafeMutablePointer(to: &object[keyPath: keyPath]) { UnsafeMutableRawPointer($0) - base }
        guard persistedFieldOffsets(of: type(of: object)).contains(offset) else {
            preconditionFailure("@Persisted property \(keyPath) is not a stored field of \(type(of: object)).")
        }
        let address = UInt64(UInt(bitPattern: ObjectIdentifier(keyPath)))
        if address < 1 << 47, offset < 0xFFFF {
            slots[Int((address >> 4) % UInt64(slotCount))].store(address << 16 | UInt64(offset + 1), ordering: .relaxed)
        }
        return offset
    }

    /// Offsets of the `@Persisted` fields of `type` and its superclasses.
    private static func persistedFieldOffsets(of type: AnyClass) -> Set<Int> {
        var offsets = Set<Int>()
        _ = _forEachField(of: type, options: _EachFieldOptions(rawValue: 1 << 0)) { _, offset, fieldType, _ in
            if fieldType is any PersistedField.Type { offsets.insert(offset) }
            return true
        }
        return offsets
    }
}
