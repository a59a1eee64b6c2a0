import LMDB

/// Reads matching objects in the order of one sort property by walking its index (or, for an
/// integer primary key, the table itself), so that sorting costs nothing and a page stops
/// reading once it is full.
///
/// Equal values come in object key order, as a stable sort of the table would leave them, in
/// both directions.
struct IndexOrderWalk {
    private enum Source {
        case rows
        case index(Database, objectKeyIsSuffix: Bool)
    }

    private let layout: TableLayout
    private let source: Source
    private let ascending: Bool

    /// A walk for `descriptors`, or `nil` when they are not one indexed property.
    init?(layout: TableLayout, descriptors: [SortDescriptor]) {
        guard descriptors.count == 1,
              let column = layout.storedClass.properties.firstIndex(where: { $0.name == descriptors[0].keyPath }) else { return nil }
        self.layout = layout
        ascending = descriptors[0].ascending
        if column == layout.primaryKeyColumn {
            if layout.usesPrimaryKeyAsObjectKey {
                source = .rows
            } else if let primaryKeys = layout.primaryKeys {
                source = .index(primaryKeys, objectKeyIsSuffix: false)
            } else {
                return nil
            }
        } else if let index = layout.secondaryIndexes.first(where: { $0.column == column }) {
            source = .index(index.database, objectKeyIsSuffix: true)
        } else {
            return nil
        }
    }

    /// The keys of objects passing `test`, in sort order, leaving out the first `skip` of them
    /// and stopping once `stopAfter` are kept; `nil` when the index cannot give the exact order
    /// (a value too long to store whole). Skipped objects are never gathered: with no test they
    /// are passed over a leaf page at a time (``Cursor/skip(_:backwards:)``), otherwise walked
    /// past, so a deep page costs at most a walk of the index.
    func keys(in txn: Transaction, matching test: RowPredicate?, skipping skip: Int = 0, stopAfter: Int?) throws -> [ObjectKey]? {
        let database: Database
        var suffix = false
        switch source {
        case .rows: database = layout.rows
        case .index(let index, let objectKeyIsSuffix): database = index; suffix = objectKeyIsSuffix
        }
        let cursor = try txn.openCursor(database)
        // A value too long to store whole sorts after every short one whatever its bytes, so a
        // walk that stops early could miss it: leave such indexes to a real sort.
        if case .index = source, let (first, _) = try cursor.seek(atLeast: [2]), IndexKeyEncoder.isTruncated(first) {
            return nil
        }
        var keys: [ObjectKey] = []
        var skipped = 0
        func keep(_ key: ObjectKey) {
            if skipped < skip { skipped += 1 } else { keys.append(key) }
        }
        var run: [ObjectKey] = []      // equal values met walking backwards, to put in key order
        var runValue: [UInt8] = []
        let limit = stopAfter ?? .max
        var entry = try ascending ? cursor.first() : cursor.last()
        if test == nil, skip > 0, entry != nil {
            // Every object is kept: the ones before the page are passed over unread (no value
            // too long to store whole is among them: checked above).
            let moved = try cursor.skip(skip, backwards: !ascending)
            skipped = moved
            entry = moved == skip ? try cursor.current() : nil
            if !ascending && suffix, let (key, _) = entry {
                // Walking backwards, equal values come in falling object key order, and each run
                // is put back in rising order: start at the run of the entry reached, and pass
                // over its entries before that one again when the run is put in order.
                let before = try Self.entriesAfter(key, inRunOf: cursor)
                skipped -= before
                entry = try cursor.current()
            }
        }
        while let (key, value) = entry {
            if case .index = source, IndexKeyEncoder.isTruncated(key) { return nil }
            let objectKey: ObjectKey
            switch source {
            case .rows: objectKey = try ObjectKey(checking: key, in: layout.className)
            case .index: objectKey = suffix ? try ObjectKey(suffixOf: key, in: layout.className)
                                            : try ObjectKey(checking: value, in: layout.className)
            }
            let passes = try test.map { test in
                if case .rows = source { return test(RowReader(value, key: objectKey)) }
                return try layout.row(objectKey, in: txn).map { test(RowReader($0, key: objectKey)) } ?? false
            } ?? true
            if passes {
                if ascending || !suffix {
                    keep(objectKey)
                } else {
                    let valuePart = Array(key[..<(key.count - 8)])
                    if valuePart != runValue {
                        run.reversed().forEach(keep)
                        run.removeAll(keepingCapacity: true)
                        runValue = valuePart
                        if keys.count >= limit { break }
                    }
                    run.append(objectKey)
                }
                if keys.count >= limit { break }
            }
            entry = try ascending ? cursor.next() : cursor.previous()
        }
        run.reversed().forEach(keep)
        return Array(keys.prefix(limit))
    }

    /// How many entries after the one with `key`, where `cursor` stands, share its value (the
    /// key but for its last 8 bytes, the object key); leaves the cursor on the last of them.
    private static func entriesAfter(_ key: UnsafeRawBufferPointer, inRunOf cursor: Cursor) throws -> Int {
        let value = Array(key[..<(key.count - 8)])
        var count = 0
        while let (next, _) = try cursor.next() {
            guard next.count == value.count + 8, next.starts(with: value) else {
                _ = try cursor.previous()
                return count
            }
            count += 1
        }
        _ = try cursor.last()
        return count
    }
}
