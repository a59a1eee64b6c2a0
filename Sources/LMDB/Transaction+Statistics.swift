import CLMDB

/// How many entries and pages a database holds (`mdb_stat`).
public struct DatabaseStatistics: Sendable, Equatable {
    public let entries: Int
    /// The B-tree's depth.
    public let depth: Int
    public let branchPages: Int
    public let leafPages: Int
    /// Pages of values too large for a leaf page.
    public let overflowPages: Int

    /// Every page the database takes.
    public var pages: Int { branchPages + leafPages + overflowPages }
}

extension Transaction {
    /// The entries and pages of `database` in this transaction's snapshot.
    public func statistics(of database: Database) throws(LMDBError) -> DatabaseStatistics {
        var stat = MDB_stat()
        try LMDBError.check(mdb_stat(liveHandle(), database.handle, &stat))
        return DatabaseStatistics(entries: stat.ms_entries, depth: Int(stat.ms_depth), branchPages: stat.ms_branch_pages,
                                  leafPages: stat.ms_leaf_pages, overflowPages: stat.ms_overflow_pages)
    }

    /// The pages of the file that no version in this snapshot uses: those LMDB's free list
    /// names (reusable once no reader holds a version that used them), as `mdb_stat -f` counts.
    ///
    /// - Throws: ``LMDBError`` (`corrupted`) when a free-list record is malformed.
    public func freePageCount() throws(LMDBError) -> Int {
        var cursor: OpaquePointer?
        // Database 0 is LMDB's free list: each record a transaction id and the pages it freed,
        // a count then that many page numbers.
        try LMDBError.check(mdb_cursor_open(liveHandle(), 0, &cursor))
        defer { mdb_cursor_close(cursor) }
        var key = MDB_val(), value = MDB_val()
        var total = 0
        var code = mdb_cursor_get(cursor, &key, &value, MDB_FIRST)
        while code == MDB_SUCCESS {
            let size = MemoryLayout<Int>.size
            try checkInFile(value)
            guard value.mv_size >= size, let base = value.mv_data else { throw LMDBError.corrupted }
            let count = base.loadUnaligned(as: Int.self)
            guard count >= 0, count <= (value.mv_size - size) / size else { throw LMDBError.corrupted }
            total += count
            code = mdb_cursor_get(cursor, &key, &value, MDB_NEXT)
        }
        guard code == MDB_NOTFOUND else { throw LMDBError(code: code) }
        return total
    }
}
