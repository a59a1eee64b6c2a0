import CLMDB

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension Environment {
    /// Pages on LMDB's free list (database 0): space the file holds that no committed version
    /// uses, counting those that only old readers still see.
    ///
    /// Each free-list record is an ID list whose first word is its page count.
    public func freePageCount() throws(LMDBError) -> Int {
        var raw: OpaquePointer?
        try LMDBError.check(mdb_txn_begin(handle, nil, UInt32(MDB_RDONLY), &raw))
        guard let txn = raw else { throw LMDBError(code: ENOMEM) }
        defer { mdb_txn_abort(txn) }
        var rawCursor: OpaquePointer?
        try LMDBError.check(mdb_cursor_open(txn, 0, &rawCursor))
        guard let cursor = rawCursor else { throw LMDBError(code: ENOMEM) }
        defer { mdb_cursor_close(cursor) }
        var key = MDB_val(), data = MDB_val()
        var pages = 0
        while true {
            let code = mdb_cursor_get(cursor, &key, &data, MDB_NEXT)
            if code == MDB_NOTFOUND { break }
            try LMDBError.check(code)
            // A record too short for its count is damage: count nothing from it.
            guard data.mv_size >= MemoryLayout<Int>.size, let bytes = data.mv_data else { continue }
            let count = bytes.loadUnaligned(as: Int.self)
            if count > 0 && count <= data.mv_size / MemoryLayout<Int>.size - 1 { pages += count }
        }
        return pages
    }

    /// Takes the lock file's exclusive lock when no other process has the environment open,
    /// and returns the descriptor that holds it; `nil` when another process has it open.
    ///
    /// Every process with the environment open holds a shared `fcntl` lock on the lock file's
    /// first byte (LMDB's own). This process's lock turns exclusive only when no other
    /// process holds one, and then keeps any other process from opening the environment until
    /// it is released: their `mdb_env_open` waits on that byte. POSIX locks belong to the
    /// process and end when any of its descriptors of the file closes, so LMDB's own lock
    /// ends with this one: whatever this returns, the caller must close this environment
    /// (and open it again to go on) before anything else uses it.
    public func lockExclusively() -> Int32? {
        let fd = Glibc.open(path + "-lock", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 0
        lock.l_len = 1
        guard fcntl(fd, F_SETLK, &lock) == 0 else {
            close(fd)
            return nil
        }
        return fd
    }
}

extension Environment {
    /// Whether a process has the environment at `path` open, for a file this process does not
    /// have open: LMDB's shared lock on the lock file's first byte is held by every process
    /// with it open.
    public static func isOpenElsewhere(path: String) -> Bool {
        precondition(!isOpen(path: path), "isOpenElsewhere(path:) is for files this process does not have open.")
        let fd = Glibc.open(path + "-lock", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 0
        lock.l_len = 1
        guard fcntl(fd, F_GETLK, &lock) == 0 else { return false }
        return lock.l_type != Int16(F_UNLCK)
    }
}
