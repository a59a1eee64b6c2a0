import CLMDB

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension Environment {
    /// Takes this process's turn among the processes writing the file, waiting while another
    /// process has it: an `fcntl` write lock on one byte of the data file, far past its end.
    ///
    /// LMDB's own writer mutex makes a thread wait inside `mdb_txn_begin`; a process that holds
    /// this turn first finds that mutex free (unless a program that is not Burrow writes), so
    /// the wait for another process can happen on a thread of the caller's choosing. LMDB's
    /// `fcntl` locks are all on the lock file, and the lock goes with the process if it dies.
    /// Locks belong to the process, not the thread: one thread of the process at a time may
    /// hold the turn (``Burrow``'s writer gate sees to it).
    public func lockWriterTurn() {
        var lock = Self.writerTurnLock(F_WRLCK)
        while fcntl(dataFileDescriptor, F_SETLKW, &lock) != 0 {
            precondition(errno == EINTR, "Cannot take the writer's turn on '\(path)': \(String(cString: strerror(errno)))")
        }
    }

    /// Takes this process's turn only if no other process has it; returns whether it did.
    public func tryLockWriterTurn() -> Bool {
        var lock = Self.writerTurnLock(F_WRLCK)
        while fcntl(dataFileDescriptor, F_SETLK, &lock) != 0 {
            if errno == EINTR { continue }
            precondition(errno == EAGAIN || errno == EACCES, "Cannot take the writer's turn on '\(path)': \(String(cString: strerror(errno)))")
            return false
        }
        return true
    }

    /// Gives the turn back.
    public func unlockWriterTurn() {
        var lock = Self.writerTurnLock(F_UNLCK)
        _ = fcntl(dataFileDescriptor, F_SETLK, &lock)
    }

    /// The data file's descriptor, which LMDB owns and closes: closing any other descriptor of
    /// the file would drop every `fcntl` lock of the process on it.
    private var dataFileDescriptor: Int32 {
        var fd: Int32 = -1
        mdb_env_get_fd(handle, &fd)
        return fd
    }

    private static func writerTurnLock(_ type: Int32) -> flock {
        var lock = flock()
        lock.l_type = Int16(type)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 1 << 40
        lock.l_len = 1
        return lock
    }
}
