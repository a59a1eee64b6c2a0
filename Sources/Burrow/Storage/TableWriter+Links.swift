import LMDB

/// The backlink index that keeps links whole.
///
/// Every stored link has an entry in the file's links database, keyed
/// `targetClass ++ targetKey ++ sourceClass ++ sourceProperty ++ sourceKey` (big-endian ids and
/// keys), followed by the element's position for a link held by a collection (for a map, the
/// hash of the entry's key; for a set, the target's key). The value is empty, except for a map
/// position that several keys share: then it counts them. An `AnyRealmValue` has one entry per
/// object it reaches, however deeply nested. Deleting an object reads the entries under its own
/// class and key to nullify the links to it and remove it from collections, in time
/// proportional to those links, not to the database.
extension TableWriter {
    /// Adds or removes the backlink entry of one link.
    ///
    /// With `counted`, the entry counts the links it stands for (a map's position is a hash of
    /// the key, which two keys may share): its value is the count as a little-endian `UInt32`,
    /// empty for one, and it goes when the count reaches zero.
    func backlink(from source: ObjectKey, column: Int, in layout: TableLayout, to target: ObjectKey,
                  targetID knownTargetID: UInt32? = nil, position: UInt64? = nil, counted: Bool = false,
                  adding: Bool) throws {
        let property = layout.storedClass.properties[column]
        guard let targetID = knownTargetID ?? property.objectClassName.flatMap({ catalog.layouts[$0]?.classID }) else { return }
        let links = try catalogs.links(in: transaction, changes: storage.catalogChanges, create: true)!
        var key: [UInt8] = []
        key.reserveCapacity(36)
        Self.appendBigEndian(UInt64(targetID), width: 4, to: &key)
        target.append(to: &key)
        Self.appendBigEndian(UInt64(layout.classID), width: 4, to: &key)
        Self.appendBigEndian(UInt64(property.id), width: 4, to: &key)
        source.append(to: &key)
        if let position { ObjectKey(position).append(to: &key) }
        if counted {
            let held = try transaction.value(for: key, in: links).map(Self.linkCount) ?? 0
            let count = adding ? held + 1 : held - 1
            if count > 0 {
                try transaction.put(key, count == 1 ? [] : withUnsafeBytes(of: UInt32(count).littleEndian, Array.init), in: links)
            } else {
                try transaction.delete(key, in: links)
            }
        } else if adding {
            try transaction.put(key, [], in: links)
        } else {
            try transaction.delete(key, in: links)
        }
    }

    /// Adds or removes the backlinks of what `value` links to, held at `position` of a
    /// collection (or directly by the property, when `position` is `nil`); `counted` for a
    /// position that several elements may share.
    func elementBacklinks(of value: _PersistedValue, from owner: ObjectKey, position: UInt64?, counted: Bool = false, column: Int,
                          in layout: TableLayout, adding: Bool) throws {
        for target in LinkTarget.all(in: value) {
            try backlink(from: owner, column: column, in: layout, to: target.key, targetID: target.classID, position: position,
                         counted: counted, adding: adding)
        }
    }

    /// A link to an object, as its backlink entry records it: the source object and property,
    /// the position in a collection, and how many links the entry stands for.
    struct IncomingLink {
        let classID: UInt32
        let propertyID: UInt32
        let key: ObjectKey
        let position: UInt64?
        let count: Int
    }

    /// Every link that points at `key` of `layout`'s class.
    func incomingLinks(to key: ObjectKey, of layout: TableLayout) throws -> [IncomingLink] {
        guard let links = try catalogs.links(in: transaction, changes: storage.catalogChanges, create: false) else { return [] }
        var prefix: [UInt8] = []
        Self.appendBigEndian(UInt64(layout.classID), width: 4, to: &prefix)
        key.append(to: &prefix)
        var sources: [IncomingLink] = []
        let cursor = try transaction.openCursor(links)
        var entry = try cursor.seek(atLeast: prefix)
        while let (entryKey, value) = entry, entryKey.count >= 28, entryKey.starts(with: prefix) {
            let position = entryKey.count == 36 ? ObjectKey(bytes: UnsafeRawBufferPointer(rebasing: entryKey[28..<36])).rawValue : nil
            sources.append(IncomingLink(classID: UInt32(bigEndianBytes: entryKey[12..<16]), propertyID: UInt32(bigEndianBytes: entryKey[16..<20]),
                                        key: ObjectKey(bytes: UnsafeRawBufferPointer(rebasing: entryKey[20..<28])), position: position,
                                        count: try Self.linkCount(Array(value))))
            entry = try cursor.next()
        }
        return sources
    }

    /// Clears every link that points at `key` of `layout`'s class.
    func nullifyLinks(to key: ObjectKey, of layout: TableLayout) throws {
        let sources = try incomingLinks(to: key, of: layout)
        guard !sources.isEmpty else { return }
        let catalog = self.catalog
        let target = LinkTarget(classID: layout.classID, key: key)
        for source in sources {
            guard let sourceLayout = catalog.layouts.values.first(where: { $0.classID == source.classID }),
                  let column = sourceLayout.storedClass.properties.firstIndex(where: { $0.id == source.propertyID }) else { continue }
            let collection = sourceLayout.storedClass.properties[column].collection
            if source.position != nil, collection == .map {
                // A map entry keeps its key and loses its value.
                try clearMapLinks(to: target, owner: source.key, column: column, in: sourceLayout)
            } else if source.position != nil, collection == .set {
                let element: _PersistedValue = sourceLayout.kinds[column] == .mixed
                    ? .mixed(.typedLink(classID: layout.classID, key: key.rawValue)) : .link(key.rawValue)
                try removeFromSet(element, owner: source.key, column: column, in: sourceLayout)
            } else if let position = source.position {
                try clearListLinks(to: target, owner: source.key, position: position, column: column, in: sourceLayout)
            } else if let old = try values(of: source.key, in: sourceLayout) {
                // A to-one link or an `AnyRealmValue` property.
                var new = old
                new[column] = target.removed(from: old[column])
                try sourceLayout.replace(source.key, old: old, new: new, in: storage)
                try backlink(from: source.key, column: column, in: sourceLayout, to: key, targetID: layout.classID, adding: false)
            }
        }
    }

    /// The number of links a counted backlink entry stands for.
    private static func linkCount(_ value: [UInt8]) throws -> Int {
        if value.isEmpty { return 1 }
        guard value.count == 4 else { throw StorageError.damaged("a backlink count is \(value.count) bytes long") }
        return Int(value.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self)) })
    }

    static func appendBigEndian(_ value: UInt64, width: Int, to bytes: inout [UInt8]) {
        for shift in stride(from: (width - 1) * 8, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }
}

extension UInt32 {
    /// Reads four big-endian bytes.
    init(bigEndianBytes bytes: Slice<UnsafeRawBufferPointer>) {
        self = bytes.reduce(0) { $0 << 8 | UInt32($1) }
    }
}
