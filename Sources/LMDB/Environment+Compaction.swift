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
        let cursor = try beginReadTransaction().openCursor(Database(handle: 0))
        var pages = 0
        var entry = try cursor.first()
        while let (_, record) = entry {
            // A record too short for its count is damage: count nothing from it.
            if record.count >= MemoryLayout<Int>.size {
                let count = record.loadUnaligned(as: Int.self)
                if count > 0 && count <= record.count / MemoryLayout<Int>.size - 1 { pages += count }
            }
            entry = try cursor.next()
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
        var lock = Self.firstByteLock()
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
        var lock = firstByteLock()
        guard fcntl(fd, F_GETLK, &lock) == 0 else { return false }
        return lock.l_type != Int16(F_UNLCK)
    }

    /// Whether another process holds the file's lock file exclusively: a compaction or a
    /// first open setting the file up, which another process's open waits for.
    public static func isLockedExclusivelyElsewhere(path: String) -> Bool {
        let fd = Glibc.open(path + "-lock", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var lock = firstByteLock()
        guard fcntl(fd, F_GETLK, &lock) == 0 else { return false }
        return lock.l_type == Int16(F_WRLCK)
    }

    /// An exclusive lock on the lock file's first byte, the one LMDB locks shared in every
    /// process with the environment open.
    private static func firstByteLock() -> flock {
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 0
        lock.l_len = 1
        return lock
    }
}
