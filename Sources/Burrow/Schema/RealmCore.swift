import LMDB

/// A realm as the model layer works with it: the engine's realm (``RealmSession``) with the
/// model classes it has met, resolved against the file. It is the one cache of bindings: each
/// class's schema (the process-wide ``ClassInfo`` kept at hand), the classes bound to their
/// tables for reading (valid while the catalog's revision holds), and those bound for the open
/// write (which may create tables, and lasts as long as the write).
final class RealmCore: RealmSession {
    /// The configuration the realm was opened with.
    let configuration: Realm.Configuration
    // Read on every object access and changed only on the realm's thread, never during another
    // access to them: they skip the runtime's exclusivity check, which costs more than the read.
    /// Model classes' schemas, cached here to skip the process-wide cache's lock.
    @exclusivity(unchecked) private var classInfos: [ObjectIdentifier: ClassInfo] = [:]
    /// The class ``info(_:)`` last returned.
    @exclusivity(unchecked) private var lastInfo: ClassInfo?
    /// Classes resolved against the catalog at `boundRevision`, by class schema.
    @exclusivity(unchecked) private var boundClasses: [ObjectIdentifier: BoundClass] = [:]
    @exclusivity(unchecked) private var boundRevision: UInt64 = .max
    /// The class ``bound(_:)`` last returned.
    @exclusivity(unchecked) private var lastBound: BoundClass?
    /// Classes read by name, by their layout: a layout is one class's storage for one catalog
    /// revision, so its identity stands for the stored class without hashing it.
    @exclusivity(unchecked) private var dynamicInfos: [ObjectIdentifier: (layout: TableLayout, info: ClassInfo)] = [:]
    /// The class ``dynamicBound(named:)`` last returned, with its name, at `boundRevision`:
    /// code that reads objects by class name reads one class many times in a row, and each
    /// lookup by name copies the catalog and hashes the name.
    @exclusivity(unchecked) private var lastNamedBound: (name: String, bound: BoundClass)?
    /// Classes resolved for writing in the open write, by model type.
    @exclusivity(unchecked) private var writeBound: [ObjectIdentifier: BoundClass] = [:]
    /// The class ``boundForWriting(_:in:)`` last returned.
    @exclusivity(unchecked) private var lastWriteBound: BoundClass?

    /// The model classes a configuration's `objectTypes` lists, with those they link to; `nil`
    /// when it lists none (every model class of the program may be used).
    let managedTypes: Set<ObjectIdentifier>?

    init(configuration: Realm.Configuration, coordinator: Coordinator, confinement: Confinement,
         cacheEntries: RealmInstanceCache.Entries, cacheIdentity: String) throws(Realm.Error) {
        self.configuration = configuration
        managedTypes = Self.managedTypes(of: configuration)
        try super.init(options: configuration.fileOptions, coordinator: coordinator, confinement: confinement,
                       cacheEntries: cacheEntries, cacheIdentity: cacheIdentity)
    }

    /// A frozen realm reading `snapshot`, with `live`'s configuration.
    required init(frozenFrom live: RealmSession, snapshot: Transaction) {
        configuration = live.core.configuration
        managedTypes = live.core.managedTypes
        super.init(frozenFrom: live, snapshot: snapshot)
    }

    private static func managedTypes(of configuration: Realm.Configuration) -> Set<ObjectIdentifier>? {
        guard let listed = configuration.objectTypes, !listed.isEmpty else { return nil }
        return Set(ClassInfo.closure(of: listed).map { ObjectIdentifier($0.type) })
    }

    /// Traps, as RealmSwift does, for a model class the configuration's `objectTypes` leaves out.
    func verifyManaged(_ type: ObjectBase.Type) {
        guard let managedTypes, !managedTypes.contains(ObjectIdentifier(type)), type != DynamicObject.self else { return }
        let name = ClassInfo.storedName(of: type)
        burrowPreconditionFailure("Object type '\(name)' is not managed by the Realm. If using a custom `objectTypes` array in your "
                                  + "configuration, add `\(name)` to the list of `objectTypes`.")
    }

    /// The schema of `type`.
    @inline(__always)
    func info(_ type: ObjectBase.Type) -> ClassInfo {
        exclusively { cachedInfo(type) }
    }

    @inline(__always)
    func cachedInfo(_ type: ObjectBase.Type) -> ClassInfo {
        // Most calls ask for the class asked for last: skip hashing for it.
        if let lastInfo, lastInfo.type == type { return lastInfo }
        if let known = classInfos[ObjectIdentifier(type)] {
            lastInfo = known
            return known
        }
        let info = ClassInfo.of(type)
        classInfos[ObjectIdentifier(type)] = info
        lastInfo = info
        return info
    }

    /// The class `type` resolved against the file, as for its `ClassInfo` below; the class
    /// asked for last is found without touching its process-wide `ClassInfo`.
    func bound(_ type: ObjectBase.Type) -> BoundClass? {
        exclusively {
            if catalogRevision == boundRevision, let lastBound, lastBound.type == type { return lastBound }
            return cachedBound(cachedInfo(type))
        }
    }

    /// `info` resolved against the file, cached while the catalog does not change; `nil` while
    /// the file has no table for the class.
    func bound(_ info: ClassInfo) -> BoundClass? {
        exclusively { cachedBound(info) }
    }

    /// The table of `info` in the file, as ``bound(_:)-(ClassInfo)`` finds it: `nil` while the
    /// file has none.
    func layout(of info: ClassInfo) -> TableLayout? {
        exclusively { cachedBound(info)?.layout }
    }

    /// The class read by name whose storage is `layout`, resolved against the file.
    func dynamicBound(_ layout: TableLayout) -> BoundClass? {
        exclusively {
            let info: ClassInfo
            if let known = dynamicInfos[ObjectIdentifier(layout)], known.layout === layout {
                info = known.info
            } else {
                info = ClassInfo.dynamic(layout.storedClass)
                dynamicInfos[ObjectIdentifier(layout)] = (layout, info)
            }
            return cachedBound(info)
        }
    }

    /// The file's class `name` read by name, or `nil` when the file has no such class.
    func dynamicBound(named name: String) -> BoundClass? {
        let remembered = exclusively { () -> BoundClass? in
            guard catalogRevision == boundRevision, let lastNamedBound, lastNamedBound.name == name else { return nil }
            return lastNamedBound.bound
        }
        if let remembered { return remembered }
        guard let layout = catalog.layouts[name], let bound = dynamicBound(layout) else { return nil }
        // Resolving it made the realm's class caches current.
        exclusively { lastNamedBound = (name, bound) }
        return bound
    }

    @inline(__always)
    private func cachedBound(_ info: ClassInfo) -> BoundClass? {
        let revision = catalogRevision
        if revision != boundRevision {
            boundClasses.removeAll(keepingCapacity: true)
            dynamicInfos.removeAll(keepingCapacity: true)
            lastBound = nil
            lastNamedBound = nil
            boundRevision = revision
        }
        if let lastBound, lastBound.info === info { return lastBound }
        if let known = boundClasses[ObjectIdentifier(info)] {
            lastBound = known
            return known
        }
        let resolved = coordinator.bound(info, in: catalog)
        boundClasses[ObjectIdentifier(info)] = resolved
        lastBound = resolved
        return resolved
    }

    /// `info` resolved for writing in `write`, creating its table when the file has none.
    ///
    /// - Throws: `LMDBError` creating the table.
    func boundForWriting(_ info: ClassInfo, in write: WriteState) throws -> BoundClass {
        if let lastWriteBound, lastWriteBound.info === info { return lastWriteBound }
        burrowPrecondition(!info.isDynamic, "A class read by name is written through its stored layout.")
        if let known = writeBound[ObjectIdentifier(info.type)] {
            lastWriteBound = known
            return known
        }
        let layout = try coordinator.catalogs.table(named: info.className, creatingWith: { StoredClass(id: $0, info: info) },
                                                    in: write.transaction, changes: write.catalogChanges)
        let bound = BoundClass(info: info, layout: layout, fieldColumns: coordinator.columns(of: info, in: layout))
        writeBound[ObjectIdentifier(info.type)] = bound
        lastWriteBound = bound
        return bound
    }

    /// Drops what was resolved for the write that ended: its tables may have been its draft.
    override func writeDidEnd() {
        writeBound.removeAll(keepingCapacity: true)
        lastWriteBound = nil
    }
}

extension RealmSession {
    /// This realm as the model layer works with it: every session is a ``RealmCore``.
    @inline(__always)
    var core: RealmCore { unsafeDowncast(self, to: RealmCore.self) }
}
