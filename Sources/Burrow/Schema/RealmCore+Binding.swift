/// Model classes met with the file: each class's schema, and the class resolved against the
/// file's catalog (its table and where each field lives), cached for the realm.
extension RealmCore {
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

    @inline(__always)
    private func cachedBound(_ info: ClassInfo) -> BoundClass? {
        let revision = catalogRevision
        if revision != boundRevision {
            boundClasses.removeAll(keepingCapacity: true)
            lastBound = nil
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
}
