import LMDB

/// Runs a query over one table at one version: the candidates (the whole table in key order,
/// the keys an index path names, or the members of a collection in its order), the predicate's
/// row test, then the sort, distinct and slice steps in the order they were added.
///
/// A pure function of the table, the transaction and the query: ``ResultsCore`` keeps the
/// compiled query and the keys of each version.
struct QueryExecutor {
    /// The table queried.
    let layout: TableLayout
    /// The version read.
    let transaction: Transaction
    /// The catalog key paths of steps are resolved in (`dog.owner.name` crosses tables).
    let catalog: Catalog

    /// A query made ready for a table: its row test and its access path. A class, so that the
    /// results holding one copy a reference, not its closure and key arrays.
    final class Prepared {
        /// Follows links for the row test; `nil` when there is no row test.
        let links: LinkResolver?
        /// The row test; `nil` when every candidate matches (no predicate, or an index answers
        /// it exactly).
        let test: RowPredicate?
        /// Where the candidates come from.
        let path: QueryPlanner.AccessPath
        /// An index path whose entries are the matches for counting them, though the objects
        /// read are still checked against `test`: a lone `==` on an encrypted file's index,
        /// whose keyed hashes of values stored whole do not collide.
        let countablePath: QueryPlanner.AccessPath?

        init(links: LinkResolver?, test: RowPredicate?, path: QueryPlanner.AccessPath, countablePath: QueryPlanner.AccessPath? = nil) {
            self.links = links
            self.test = test
            self.path = path
            self.countablePath = countablePath
        }

        /// No predicate: every object of the table.
        static var everything: Prepared { Prepared(links: nil, test: nil, path: .scan) }
    }

    /// Binds, plans and compiles `predicate` for `layout`, with the link resolver `links` makes
    /// when it has a row test. `key == value` answered exactly by an index needs no row test
    /// when the table's objects are the candidates (a collection's members are tested row by
    /// row).
    ///
    /// - Throws: ``Realm/Error`` `invalidQuery` when the predicate does not fit the table.
    static func prepare(_ predicate: PredicateNode, for layout: TableLayout, links makeLinks: () -> LinkResolver, readsTable: Bool) throws -> Prepared {
        let planner = QueryPlanner(layout: layout)
        if readsTable, let path = planner.exactEqualityPath(predicate) {
            return Prepared(links: nil, test: nil, path: path)
        }
        let bound = try PredicateBinder(storedClass: layout.storedClass).bind(predicate)
        if readsTable, let path = planner.exactEqualityPath(bound) {
            return Prepared(links: nil, test: nil, path: path)
        }
        let links = makeLinks()
        let test = try PredicateCompiler(storedClass: layout.storedClass, links: links).compile(bound)
        return Prepared(links: links, test: test, path: planner.plan(bound), countablePath: readsTable ? planner.hashedEqualityPath(bound) : nil)
    }

    /// The keys of the objects matching `prepared`, after `steps`. `members`: the candidates
    /// of a collection, in its order; `nil` for the whole table.
    ///
    /// - Throws: `LMDBError` or ``StorageError`` from reading.
    func keys(_ prepared: Prepared, members: [ObjectKey]?, steps: [ResultsQuery.Step]) throws -> [ObjectKey] {
        guard layout.isVisible(to: transaction) else { return [] }
        prepared.links?.transaction = transaction
        defer { prepared.links?.transaction = nil }
        let test = prepared.test
        var steps = steps[...]
        var keys: [ObjectKey]
        if let members {
            keys = try members.filter { key in
                guard let test else { return true }
                return try layout.row(key, in: transaction).map { test(RowReader($0, key: key)) } ?? false
            }
        } else if case .sort(let descriptors)? = steps.first,
                  // An index path without a row test names the keys: only a scan walks in order.
                  test != nil || prepared.path.isScan,
                  let walk = IndexOrderWalk(layout: layout, descriptors: descriptors),
                  case let page = Self.page(after: steps.dropFirst()),
                  let walked = try walk.keys(in: transaction, matching: test, skipping: page?.offset ?? 0, stopAfter: page?.limit) {
            // The walk has sorted, and cut the page that follows, if any.
            keys = walked
            steps = steps.dropFirst(page == nil ? 1 : 2)
        } else if test == nil, prepared.path.isScan, let page = Self.page(after: steps) {
            // Every object in table order, then a page: read from the table where the page
            // begins, what lies before it passed over.
            keys = try pageOfTable(offset: page.offset, limit: page.limit)
            steps = steps.dropFirst()
        } else {
            keys = try matchingKeys(test: test, path: prepared.path)
        }
        while let step = steps.popFirst() {
            if case .sort(let descriptors) = step, let page = Self.page(after: steps), let limit = page.limit {
                // Only the page that follows is put in order.
                keys = try sorted(keys, by: descriptors, page: PageSelection.page(offset: page.offset, limit: limit))
                steps = steps.dropFirst()
            } else {
                keys = try apply(step, to: keys)
            }
        }
        try prepared.links?.throwFailure()
        return keys
    }

    /// The keys of the table's objects from position `offset` on, at most `limit` of them, in
    /// key order: the rows before the page are passed over a leaf page at a time
    /// (``Cursor/skip(_:backwards:)``), and only the page's keys are read.
    private func pageOfTable(offset: Int, limit: Int?) throws -> [ObjectKey] {
        let limit = limit ?? .max
        guard limit > 0 else { return [] }
        let cursor = try transaction.openCursor(layout.rows)
        var key = try cursor.firstKey()
        if offset > 0, key != nil {
            guard try cursor.skip(offset) == offset else { return [] }
            key = try cursor.currentKey()
        }
        var keys: [ObjectKey] = []
        while let bytes = key {
            keys.append(try ObjectKey(checking: bytes, in: layout.className))
            guard keys.count < limit else { break }
            key = try cursor.nextKey()
        }
        return keys
    }

    /// The page the next step cuts, when it is a slice.
    private static func page(after steps: ArraySlice<ResultsQuery.Step>) -> (offset: Int, limit: Int?)? {
        guard case .slice(let offset, let limit)? = steps.first else { return nil }
        return (offset, limit)
    }

    /// The keys matching `test`, in object key order.
    private func matchingKeys(test: RowPredicate?, path: QueryPlanner.AccessPath) throws -> [ObjectKey] {
        let planner = QueryPlanner(layout: layout)
        if let candidates = try planner.candidates(path, in: transaction) {
            guard let test, !path.isCovered else { return candidates }
            return try candidates.filter { key in
                guard let row = try layout.row(key, in: transaction) else {
                    try planner.verifyMissing(key, of: path)
                    return false
                }
                if test(RowReader(row, key: key)) { return true }
                try planner.verifyRejected(key, row: row, of: path)
                return false
            }
        }
        var keys: [ObjectKey] = []
        let count = try layout.count(in: transaction)
        if test == nil { keys.reserveCapacity(count) }
        // On an encrypted file, each row is decrypted into the cursor's buffer for the test, and
        // only the rows that match are kept for the transaction, to be read as objects next.
        let cursor = try transaction.openCursor(layout.rows, valuesLastUntilMove: true)
        var read = 0
        do {
            if let test {
                var entry = try cursor.first()
                while let (key, row) = entry {
                    let objectKey = try ObjectKey(checking: key, in: layout.className)
                    if test(RowReader(row, key: objectKey)) {
                        keys.append(objectKey)
                        transaction.keepOpened(row, key: key, in: layout.rows)
                    }
                    read += 1
                    entry = try cursor.next()
                }
            } else {
                // Every object: only the keys are read. Each row is checked (or decrypted) where
                // it is read, rather than here too.
                var key = try cursor.firstKey()
                while let bytes = key {
                    keys.append(try ObjectKey(checking: bytes, in: layout.className))
                    read += 1
                    key = try cursor.nextKey()
                }
            }
        } catch LMDBError.sealBroken {
            throw layout.brokenSeal(at: cursor)
        }
        // LMDB keeps each table's count in its header: a damaged page that hides rows from the
        // walk shows as a walk shorter (or longer) than the count.
        guard read == count else {
            throw StorageError.damaged("the table of '\(layout.className)' holds \(count) objects by its count, but \(read) were read")
        }
        return keys
    }

    private func apply(_ step: ResultsQuery.Step, to keys: [ObjectKey]) throws -> [ObjectKey] {
        switch step {
        case .slice(let offset, let limit):
            let start = min(offset, keys.count)
            let end = limit.map { start + min(keys.count - start, $0) } ?? keys.count
            return Array(keys[start..<end])
        case .sort(let descriptors):
            return try sorted(keys, by: descriptors, page: nil)
        case .distinct(let names):
            // An object with an empty link on the way to a distinct key path is left out, as
            // realm-core leaves it out.
            let values = try reachedKeyPathValues(keys, paths: names)
            let width = names.count
            var seen = Set<ArraySlice<_PersistedValue?>>()
            return keys.indices.filter { index in
                let own = values[index * width..<(index + 1) * width]
                return !own.contains(nil) && seen.insert(own).inserted
            }.map { keys[$0] }
        }
    }

    /// `keys` in the order `descriptors` give, ties in key order; with `page`, only the keys
    /// at those positions of that order, found without ordering the others.
    private func sorted(_ keys: [ObjectKey], by descriptors: [SortDescriptor], page: Range<Int>?) throws -> [ObjectKey] {
        guard !descriptors.isEmpty else { return page.map { Array(keys[$0.clamped(to: keys.indices)]) } ?? keys }
        let values = try reachedKeyPathValues(keys, paths: descriptors.map(\.keyPath))
        let width = descriptors.count
        let ascending = descriptors.map(\.ascending)
        var entries = keys.indices.map { SortEntry(values[$0 * width], index: $0) }
        func precedes(_ a: SortEntry, _ b: SortEntry) -> Bool {
            let first = SortEntry.order(a, b).map { ascending[0] ? $0 : -$0 }
                ?? Self.sortOrder(values[a.index * width], values[b.index * width], ascending: ascending[0])
            if first != 0 { return first < 0 }
            for position in 1..<width {
                let result = Self.sortOrder(values[a.index * width + position], values[b.index * width + position], ascending: ascending[position])
                if result != 0 { return result < 0 }
            }
            return a.index < b.index
        }
        let kept = PageSelection.order(&entries, page: page, by: precedes)
        return entries[kept].map { keys[$0.index] }
    }

    /// The order of two objects' values for one sort key, `-1` when the first comes first. An
    /// object with an empty link on the way to the key path (`nil`) sorts after every other
    /// ascending, before them descending, as realm-core sorts it; a null value at the end of
    /// the path sorts first.
    static func sortOrder(_ a: _PersistedValue?, _ b: _PersistedValue?, ascending: Bool) -> Int {
        let result: Int
        switch (a, b) {
        case (nil, nil): return 0
        case (nil, _): result = 1
        case (_, nil): result = -1
        case (let x?, let y?): result = sortOrder(x, y)
        }
        return ascending ? result : -result
    }

    /// The values `paths` name for each object of `keys`, one after another (the values of
    /// the object at index `i` at `i * paths.count`), `nil` where a link on the way is empty;
    /// traps for a path the table does not have (the query was checked when it was made).
    private func reachedKeyPathValues(_ keys: [ObjectKey], paths: [String]) throws -> [_PersistedValue?] {
        let readers = self.readers(of: paths)
        var values: [_PersistedValue?] = []
        values.reserveCapacity(keys.count * paths.count)
        try layout.forEachRow(of: keys, in: transaction) { key, row in
            guard let row else { return values.append(contentsOf: repeatElement(nil, count: readers.count)) }
            let rowReader = RowReader(row, key: key)
            for reader in readers { values.append(try reader.reachedValue(of: rowReader, in: transaction)) }
        }
        return values
    }

    private func readers(of paths: [String]) -> [KeyPathReader] {
        paths.map { path -> KeyPathReader in
            switch KeyPathReader.make(path, on: layout.storedClass, catalog: catalog) {
            case .success(let reader): return reader
            case .failure(let error): burrowPreconditionFailure(error.message)
            }
        }
    }

    /// The values of `column` for each object of `keys`, in order; `.null` for a key with no row.
    func values(of column: Int, for keys: [ObjectKey]) throws -> [_PersistedValue] {
        let kind = layout.kinds[column]
        var values: [_PersistedValue] = []
        values.reserveCapacity(keys.count)
        try layout.forEachRow(of: keys, in: transaction) { _, row in
            values.append(row.map { RowReader($0).value(column, kind: kind) } ?? .null)
        }
        return values
    }

    /// The position in `keys` of the first object matching `test`.
    func firstIndex(in keys: [ObjectKey], matching test: RowPredicate, links: LinkResolver) throws -> Int? {
        links.transaction = transaction
        defer { links.transaction = nil }
        let found = try keys.firstIndex { key in
            try layout.row(key, in: transaction).map { test(RowReader($0, key: key)) } ?? false
        }
        try links.throwFailure()
        return found
    }

    /// Sort order: null first, then by value (strings by their UTF-8 bytes).
    static func sortOrder(_ a: _PersistedValue, _ b: _PersistedValue) -> Int {
        switch (a.isNull, b.isNull) {
        case (true, true): 0
        case (true, false): -1
        case (false, true): 1
        case (false, false): ValueComparator.compare(a, b) ?? ValueComparator.sign(sortRank(a), sortRank(b))
        }
    }

    /// Where values of different kinds sort (in an `AnyRealmValue` property or collection), as
    /// realm-core orders them: booleans, numbers, strings, data, object ids, UUIDs, objects,
    /// dates.
    private static func sortRank(_ value: _PersistedValue) -> Int {
        switch value {
        case .mixed(let inner): sortRank(inner)
        case .bool: 0
        case .int, .float, .double, .decimal: 1
        case .string: 2
        case .data: 3
        case .objectId: 4
        case .uuid: 5
        case .typedLink: 6
        case .link: 7
        case .date: 8
        default: 9
        }
    }
}
