import LMDB

/// To-one links and the backlink index that keeps them whole.
///
/// Every stored link has an entry in the file's links database, keyed
/// `targetClass ++ targetKey ++ sourceClass ++ sourceProperty ++ sourceKey` (big-endian ids and
/// keys), followed by the element's position for a link held by a collection (for a map, the
/// hash of the entry's key; for a set, the target's key). The value is empty, except for a map
/// position that several keys share: then it counts them. An `AnyRealmValue` has one entry
/// per object it reaches, however deeply nested. Deleting an object reads the entries under its
/// own class and key to nullify the links to it and remove it from collections, in time
/// proportional to those links, not to the database.
extension RealmCore {
    /// The object an `AnyRealmValue` links to, by class id and key.
    func mixedLinkTarget(classID: UInt32, key: ObjectKey) -> Object? {
        guard let layout = catalog.layouts.values.first(where: { $0.classID == classID }) else { return nil }
        guard let type = ClassInfo.type(named: layout.className) else {
            preconditionFailure("An AnyRealmValue holds a '\(layout.className)', a class this process has not used yet: list it in Realm.Configuration.objectTypes.")
        }
        return linkTarget(key, of: type) as? Object
    }

    /// An accessor for the object `key` of class `type`, or `nil` when it does not exist.
    func linkTarget(_ key: ObjectKey, of type: ObjectBase.Type) -> ObjectBase? {
        guard let bound = bound(info(type)) else { return nil }
        let row: UnsafeRawBufferPointer?
        do {
            row = try bound.layout.row(key, in: transaction)
        } catch {
            preconditionFailure("Cannot read '\(coordinator.path)': \(error)")
        }
        return row.map { makeObject(bound, key: key, row: $0) }
    }

    /// Points the link in `column` of `object` at `target` (adding it when unmanaged) or clears it.
    func setLink(_ target: ObjectBase?, on object: ObjectBase, column: Int) {
        verifyThread()
        guard let write = writeState, let management = object.management else {
            preconditionFailure("Attempting to modify object outside of a write transaction - call beginWrite on a Realm instance first.")
        }
        var value = _PersistedValue.null
        if let target {
            guard perform(in: write, {
                value = .link(try managedKey(of: target, update: write.nestedUpdatePolicy, in: write).rawValue)
            }) else { return }
        }
        update(object, management: management, column: column, to: value)
    }

    // MARK: Backlink maintenance

    /// Records the links of a new row.
    func addBacklinks(_ values: [_PersistedValue], of key: ObjectKey, in layout: TableLayout, write: WriteState) throws {
        for column in layout.linkColumns {
            if case .link(let target) = values[column] {
                try backlink(from: key, column: column, in: layout, to: ObjectKey(target), adding: true, write: write)
            }
        }
        for column in layout.mixedColumns {
            try elementBacklinks(of: values[column], from: key, position: nil, column: column, in: layout, adding: true, write: write)
        }
    }

    /// Empties every list and set of the object `key`.
    func removeCollections(of key: ObjectKey, in layout: TableLayout, write: WriteState) throws {
        for collection in layout.lists {
            if layout.storedClass.properties[collection.column].collection == .map {
                try ManagedMap.removeAll(of: key, column: collection.column, in: layout, realm: self, write: write)
            } else if layout.storedClass.properties[collection.column].collection == .set {
                try ManagedSet.removeAll(of: key, column: collection.column, in: layout, realm: self, write: write)
            } else {
                try ManagedList.removeAll(of: key, column: collection.column, in: layout, realm: self, write: write)
            }
        }
    }

    /// The layout of the embedded class `column` links to, or `nil` for a top-level class.
    func embeddedLayout(of column: Int, in layout: TableLayout) -> TableLayout? {
        guard let name = layout.storedClass.properties[column].objectClassName,
              let target = catalog.layouts[name], target.isEmbedded else { return nil }
        return target
    }

    /// Moves the backlinks of a row whose link columns went from `old` to `new`; an embedded
    /// object that was replaced is deleted.
    func updateBacklinks(of key: ObjectKey, in layout: TableLayout, old: [_PersistedValue], new: [_PersistedValue], write: WriteState) throws {
        for column in layout.mixedColumns where old[column] != new[column] {
            let before = Set(Self.linkTargets(in: old[column])), after = Set(Self.linkTargets(in: new[column]))
            for target in before.subtracting(after) {
                try backlink(from: key, column: column, in: layout, to: target.key, targetID: target.classID, adding: false, write: write)
            }
            for target in after.subtracting(before) {
                try backlink(from: key, column: column, in: layout, to: target.key, targetID: target.classID, adding: true, write: write)
            }
        }
        for column in layout.linkColumns where old[column] != new[column] {
            if case .link(let target) = old[column] {
                try backlink(from: key, column: column, in: layout, to: ObjectKey(target), adding: false, write: write)
                if let targetLayout = embeddedLayout(of: column, in: layout) {
                    try deleteRow(ObjectKey(target), in: targetLayout, write: write)
                }
            }
            if case .link(let target) = new[column] {
                try backlink(from: key, column: column, in: layout, to: ObjectKey(target), adding: true, write: write)
            }
        }
    }

    /// Deletes a row, its backlinks, and every link to it; returns whether it existed.
    @discardableResult
    func deleteRow(_ key: ObjectKey, in layout: TableLayout, write: WriteState) throws -> Bool {
        let txn = write.transaction
        guard let row = try layout.row(key, in: txn) else { return false }
        var embedded: [(ObjectKey, TableLayout)] = []
        if !layout.mixedColumns.isEmpty {
            let reader = RowReader(row)
            for column in layout.mixedColumns {
                try elementBacklinks(of: reader.value(column, kind: .mixed), from: key, position: nil, column: column, in: layout,
                                     adding: false, write: write)
            }
        }
        if !layout.linkColumns.isEmpty {
            let reader = RowReader(row)
            let targets = layout.linkColumns.map { reader.value($0, kind: .link) }
            for (column, target) in zip(layout.linkColumns, targets) {
                if case .link(let target) = target {
                    try backlink(from: key, column: column, in: layout, to: ObjectKey(target), adding: false, write: write)
                    if let targetLayout = embeddedLayout(of: column, in: layout) { embedded.append((ObjectKey(target), targetLayout)) }
                }
            }
        }
        try removeCollections(of: key, in: layout, write: write)
        try layout.delete(key, in: write.storage)
        // Embedded objects die with their owner.
        for (target, targetLayout) in embedded { try deleteRow(target, in: targetLayout, write: write) }
        if Coordinator.isLinkTarget(layout.className, in: catalog) {
            try nullifyLinks(to: key, of: layout, write: write)
        }
        return true
    }

    /// Clears every link that points at `key` of `layout`'s class.
    private func nullifyLinks(to key: ObjectKey, of layout: TableLayout, write: WriteState) throws {
        guard let links = try coordinator.existingLinksDatabase(in: write) else { return }
        let txn = write.transaction
        var prefix: [UInt8] = []
        Self.appendBigEndian(UInt64(layout.classID), width: 4, to: &prefix)
        key.append(to: &prefix)
        var sources: [(classID: UInt32, propertyID: UInt32, key: ObjectKey, position: UInt64?)] = []
        let cursor = try txn.openCursor(links)
        var entry = try cursor.seek(atLeast: prefix)
        while let (entryKey, _) = entry, entryKey.count >= 28, entryKey.starts(with: prefix) {
            let position = entryKey.count == 36 ? ObjectKey(bytes: UnsafeRawBufferPointer(rebasing: entryKey[28..<36])).rawValue : nil
            sources.append((UInt32(bigEndianBytes: entryKey[12..<16]), UInt32(bigEndianBytes: entryKey[16..<20]),
                            ObjectKey(bytes: UnsafeRawBufferPointer(rebasing: entryKey[20..<28])), position))
            entry = try cursor.next()
        }
        let catalog = self.catalog
        let target = LinkTarget(classID: layout.classID, key: key)
        for source in sources {
            guard let sourceLayout = catalog.layouts.values.first(where: { $0.classID == source.classID }),
                  let column = sourceLayout.storedClass.properties.firstIndex(where: { $0.id == source.propertyID }) else { continue }
            let collection = sourceLayout.storedClass.properties[column].collection
            if source.position != nil, collection == .map {
                // A map entry keeps its key and loses its value.
                try ManagedMap.clearLinks(to: target, owner: source.key, column: column, in: sourceLayout, realm: self, write: write)
            } else if let position = source.position, collection == .set {
                try removeFromSet(target, owner: source.key, position: position, column: column, in: sourceLayout, write: write)
            } else if let position = source.position {
                try removeFromList(target, owner: source.key, position: position, column: column, in: sourceLayout, write: write)
            } else if try sourceLayout.row(source.key, in: txn) != nil {
                // A to-one link or an `AnyRealmValue` property.
                let old = try currentValues(of: source.key, in: sourceLayout, transaction: txn)
                var new = old
                new[column] = Self.removingLinks(to: target, from: old[column])
                try sourceLayout.replace(source.key, old: old, new: new, in: write.storage)
                try backlink(from: source.key, column: column, in: sourceLayout, to: key, targetID: layout.classID, adding: false, write: write)
            }
        }
    }

    /// Takes the element linking to `target` out of a set.
    private func removeFromSet(_ target: LinkTarget, owner: ObjectKey, position: UInt64, column: Int, in layout: TableLayout,
                               write: WriteState) throws {
        guard let database = layout.lists.first(where: { $0.column == column })?.database else { return }
        let element: _PersistedValue = layout.kinds[column] == .mixed
            ? .mixed(.typedLink(classID: target.classID!, key: target.key.rawValue)) : .link(target.key.rawValue)
        try ManagedSet.remove(element, owner: owner, column: column, in: layout, database: database, realm: self, write: write)
    }

    /// Takes the element at `position` out of a list when it links to `target`, or drops the
    /// links to `target` from the collections nested in it.
    private func removeFromList(_ target: LinkTarget, owner: ObjectKey, position: UInt64, column: Int, in layout: TableLayout,
                                write: WriteState) throws {
        guard let database = layout.lists.first(where: { $0.column == column })?.database else { return }
        let entry = ManagedList.entryKey(owner, position)
        guard let bytes = try write.transaction.value(for: entry, in: database) else { return }
        let value = try bytes.withUnsafeBytes { try ManagedList.decode($0, kind: layout.kinds[column]) }
        try elementBacklinks(of: value, from: owner, position: position, column: column, in: layout, adding: false, write: write)
        let cleared = Self.removingLinks(to: target, from: value)
        if cleared.isNull {
            try write.transaction.delete(entry, in: database)
        } else {
            try write.transaction.put(entry, ManagedList.encode(cleared), in: database)
            try elementBacklinks(of: cleared, from: owner, position: position, column: column, in: layout, adding: true, write: write)
        }
    }

    /// Adds or removes the backlink entry of one link.
    ///
    /// With `counted`, the entry counts the links it stands for (a map's position is a hash of
    /// the key, which two keys may share): its value is the count as a little-endian `UInt32`,
    /// empty for one, and it goes when the count reaches zero.
    func backlink(from source: ObjectKey, column: Int, in layout: TableLayout, to target: ObjectKey,
                  targetID knownTargetID: UInt32? = nil, position: UInt64? = nil, counted: Bool = false,
                  adding: Bool, write: WriteState) throws {
        let property = layout.storedClass.properties[column]
        guard let targetID = knownTargetID ?? property.objectClassName.flatMap({ catalog.layouts[$0]?.classID }) else { return }
        let links = try coordinator.linksDatabase(in: write)
        var key: [UInt8] = []
        key.reserveCapacity(36)
        Self.appendBigEndian(UInt64(targetID), width: 4, to: &key)
        target.append(to: &key)
        Self.appendBigEndian(UInt64(layout.classID), width: 4, to: &key)
        Self.appendBigEndian(UInt64(property.id), width: 4, to: &key)
        source.append(to: &key)
        if let position { ObjectKey(position).append(to: &key) }
        if counted {
            let held = try write.transaction.value(for: key, in: links).map(Self.linkCount) ?? 0
            let count = adding ? held + 1 : held - 1
            if count > 0 {
                try write.transaction.put(key, count == 1 ? [] : withUnsafeBytes(of: UInt32(count).littleEndian, Array.init), in: links)
            } else {
                try write.transaction.delete(key, in: links)
            }
        } else if adding {
            try write.transaction.put(key, [], in: links)
        } else {
            try write.transaction.delete(key, in: links)
        }
    }

    /// The number of links a counted backlink entry stands for.
    private static func linkCount(_ value: [UInt8]) -> Int {
        guard value.count == 4 else { return 1 }
        return Int(value.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self)) })
    }

    private static func appendBigEndian(_ value: UInt64, width: Int, to bytes: inout [UInt8]) {
        for shift in stride(from: (width - 1) * 8, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }
}

extension UInt32 {
    /// Reads four big-endian bytes.
    init(bigEndianBytes bytes: Slice<UnsafeRawBufferPointer>) {
        self = bytes.reduce(0) { $0 << 8 | UInt32($1) }
    }
}
