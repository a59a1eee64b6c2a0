@_spi(Reflection) import Swift

/// Where each `@Persisted` wrapper sits inside its object, by the key path Swift hands the
/// wrapper's accessor, so that property access reads the wrapper straight from memory instead
/// of projecting the key path through the runtime (which costs more than the access itself).
///
/// The offsets live in a ``KeyPathOffsetTable``: a lookup is a hash and a load or two. Every
/// offset is checked against the stored fields of the object's class before it is remembered,
/// and debug builds check every cached offset against the key path's own projection.
///
/// What this rests on, beyond Swift's documented behaviour (`ReflectionContractTests` fail if
/// a toolchain changes any of it):
/// - `_forEachField(of:options:)` (SPI of the standard library, used by Foundation and Swift
///   Testing too) reports a class's stored properties, its superclasses' first, with their
///   offsets inside the instance and their types; a property wrapper's storage is named `_name`.
/// - The key paths Swift hands a wrapper's `_enclosingInstance` subscript are instantiated once
///   per process and never freed, so an address keeps naming one key path (true for non-generic
///   classes, which is why generic models are refused).
/// - A class instance's stored properties do not move, so an offset found once holds for every
///   instance of the class.
@usableFromInline
enum FieldOffsetCache {
    private static let table = KeyPathOffsetTable()

    /// The offset of the wrapper `keyPath` reaches inside `object`.
    @inlinable
    static func offset<Root: ObjectBase, Wrapper>(of keyPath: ReferenceWritableKeyPath<Root, Wrapper>, in object: Root) -> Int {
        if let known = cachedOffset(of: keyPath) {
            assert(object.belongsToFrozenRealm || known == projectedOffset(of: keyPath, in: object),
                   "The cached offset of \(keyPath) is wrong.")
            return known
        }
        return learnOffset(of: keyPath, in: object)
    }

    @usableFromInline
    static func cachedOffset(of keyPath: AnyKeyPath) -> Int? {
        table.offset(forAddress: UInt64(UInt(bitPattern: ObjectIdentifier(keyPath))))
    }

    @usableFromInline
    static func learnOffset<Root: ObjectBase, Wrapper>(of keyPath: ReferenceWritableKeyPath<Root, Wrapper>, in object: Root) -> Int {
        // Projecting is a modifying access: a frozen object, which threads read at once, is not
        // projected itself but through a fresh instance of its class.
        let offset = projectedOffset(of: keyPath, in: object.belongsToFrozenRealm ? Root() : object)
        guard persistedFieldOffsets(of: type(of: object)).contains(offset) else {
            burrowPreconditionFailure("@Persisted property \(keyPath) is not a stored field of \(type(of: object)).")
        }
        table.remember(offset, forAddress: UInt64(UInt(bitPattern: ObjectIdentifier(keyPath))))
        // Every access of the property retains and releases this one key path object: threads
        // reading objects at once would all write its reference count. It lives as long as
        // the process anyway, so it is made immortal, which turns those counts into reads.
        immortalize(keyPath)
        return offset
    }

    /// Makes `object` immortal: retains and releases no longer change its reference count,
    /// and it is never freed.
    static func immortalize(_ object: AnyObject) {
        swiftImmortalize(Unmanaged.passUnretained(object).toOpaque())
    }

    /// Where the key path's own projection finds the wrapper: slow, and always right.
    @usableFromInline
    static func projectedOffset<Root: ObjectBase, Wrapper>(of keyPath: ReferenceWritableKeyPath<Root, Wrapper>, in object: Root) -> Int {
        let base = UnsafeMutableRawPointer(Unmanaged.passUnretained(object).toOpaque())
        return withUnsafeMutablePointer(to: &object[keyPath: keyPath]) { UnsafeMutableRawPointer($0) - base }
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

/// Makes the object at `object` immortal: its reference count no longer changes.
@_silgen_name("_swift_stdlib_immortalize")
private func swiftImmortalize(_ object: UnsafeMutableRawPointer)
