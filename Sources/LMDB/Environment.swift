import CLMDB
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One open LMDB environment: a memory-mapped file and its lock file.
///
/// LMDB allows one `MDB_env` per file per process, so environments come from
/// ``open(path:options:)``, which hands back the environment already open for the same
/// file (matched by device and inode) instead of opening it twice. The environment is closed
/// when the last reference goes away.
///
/// ```swift
/// let env = try Environment.open(path: "/tmp/a.mdb", options: .init())
/// let txn = try env.beginTransaction()
/// let db = try txn.openDatabase(named: "objects", create: true)
/// try txn.put(key, value, in: db)
/// try txn.commit()
/// ```
///
/// Every environment is opened with `MDB_NOTLS` (read transactions are not tied to threads)
/// and `MDB_NOSUBDIR` (the path names the data file; the lock file is `<path>-lock`).
public final class Environment: @unchecked Sendable {
    /// How to open an environment.
    public struct Options: Sendable {
        /// Address space reserved for the map, in bytes. The file grows only as pages are used.
        public var mapSize: Int = 1 << 36
        /// Reader slots: the most read transactions live at once across all processes.
        public var maxReaders: UInt32 = 1022
        /// The most named databases the environment may hold.
        public var maxDatabases: UInt32 = 4096
        /// Open without write access (`MDB_RDONLY`); the file must exist.
        public var readOnly = false
        /// Skip `fsync` at commit (`MDB_NOSYNC`): a crash may lose the last commits.
        public var noSync = false
        /// Mode of the data and lock files when they are created.
        public var fileMode: mode_t = 0o644
        /// Seals the values of databases opened with `sealed: true` (see ``ValueSealer``).
        public var sealer: (any ValueSealer)?
        /// Whether opening clears the reader slots of dead processes (`mdb_reader_check`). A
        /// tool that reports on the reader table leaves them, to show them.
        public var clearsStaleReaders = true

        /// Default options: 64 GiB of address space, 1022 readers, 4096 databases.
        public init() {}
    }

    /// The identity of a file on this machine, which survives renames and links: every path
    /// that reaches the file (a symlink, a hard link, `./x` and `x`) has the same one.
    public struct FileIdentity: Hashable, Sendable {
        let device: UInt64
        let inode: UInt64

        /// The identity of the file at `path`, or `nil` when it cannot be found.
        public init?(path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }

    /// Environments open in this process, by file identity.
    private static let registry = WeakRegistry<FileIdentity, Environment>()

    /// The `MDB_env` handle. Owned by this object; closed in `deinit`.
    package let handle: OpaquePointer
    /// The path the environment was opened with.
    public let path: String
    /// The options the environment was opened with.
    public let options: Options
    /// The identity of the environment's data file.
    public let identity: FileIdentity
    /// Failures tests plan for this environment's calls.
    package let faults = FaultInjector()

    /// Counts live transactions in this process, and guards map resizing: LMDB allows
    /// `mdb_env_set_mapsize` only while no transaction of the process is active.
    private let gate = Locked<Int>(0)
    private let handleEpochValue = Atomic<UInt64>(0)

    /// Where the map lies and how much of it the file fills, checked before any read.
    package let bounds: MappedFileBounds

    private init(handle: OpaquePointer, path: String, options: Options, identity: FileIdentity) {
        self.handle = handle
        bounds = MappedFileBounds(handle: handle)
        self.path = path
        self.options = options
        self.identity = identity
    }

    deinit {
        // Closed under the registry's lock, which `open` waits on: LMDB allows one environment
        // per file in a process, so a new one must not open before this one has closed.
        let handle = handle
        Self.registry.remove(identity) { mdb_env_close(handle) }
    }

    /// Opens the environment at `path`, or returns the one this process already has open.
    ///
    /// A new environment clears reader slots left by dead processes (`mdb_reader_check`),
    /// unless ``Options/clearsStaleReaders`` is false.
    /// When the file is already open, `options` are ignored and the open one is returned.
    ///
    /// - Throws: ``LMDBError`` — ``LMDBError/noSuchFile`` when `readOnly` and the file is
    ///   missing, ``LMDBError/invalid`` for a file that is not LMDB's,
    ///   ``LMDBError/permissionDenied``, ``LMDBError/versionMismatch``, or another `errno`.
    public static func open(path: String, options: Options = Options()) throws(LMDBError) -> Environment {
        try registry.object(for: FileIdentity(path: path)) { () throws(LMDBError) in
            if !options.readOnly { try reserveLockFile(path + "-lock", readers: options.maxReaders, mode: options.fileMode) }
            let handle: OpaquePointer
            do throws(LMDBError) {
                handle = try openHandle(path: path, options: options, withoutLock: false)
            } catch .permissionDenied where options.readOnly {
                // A reader in a folder it cannot write (a shipped data folder) cannot make or
                // open LMDB's lock file; it reads without one, as LMDB does on a read-only mount.
                // (When the file itself is unreadable, this open fails the same way.)
                handle = try openHandle(path: path, options: options, withoutLock: true)
            }
            if options.clearsStaleReaders {
                var dead: Int32 = 0
                mdb_reader_check(handle, &dead)
            }
            guard let identity = FileIdentity(path: path) else {
                mdb_env_close(handle)
                throw LMDBError(code: errno == 0 ? ENOENT : errno)
            }
            return (identity, Environment(handle: handle, path: path, options: options, identity: identity))
        }
    }

    /// A new `MDB_env` opened on `path`; `withoutLock` opens it with `MDB_NOLOCK` (read-only
    /// opens only: with no reader table, writers elsewhere do not see this process's readers).
    private static func openHandle(path: String, options: Options, withoutLock: Bool) throws(LMDBError) -> OpaquePointer {
        var raw: OpaquePointer?
        try LMDBError.check(mdb_env_create(&raw))
        guard let handle = raw else { throw LMDBError(code: ENOMEM) }
        do throws(LMDBError) {
            try LMDBError.check(mdb_env_set_mapsize(handle, options.mapSize))
            try LMDBError.check(mdb_env_set_maxreaders(handle, options.maxReaders))
            try LMDBError.check(mdb_env_set_maxdbs(handle, MDB_dbi(options.maxDatabases)))
            var flags = UInt32(MDB_NOSUBDIR | MDB_NOTLS)
            if options.readOnly { flags |= UInt32(MDB_RDONLY) }
            if options.noSync { flags |= UInt32(MDB_NOSYNC) }
            if withoutLock { flags |= UInt32(MDB_NOLOCK) }
            try checkMetaPages(atPath: path)
            try LMDBError.check(mdb_env_open(handle, path, flags, options.fileMode))
            keepFileFromChildProcesses(handle)
            try checkFileHoldsItsPages(handle)
        } catch {
            mdb_env_close(handle)
            throw error
        }
        return handle
    }

    /// Marks the file's main descriptor close-on-exec. LMDB 0.9 opens its lock file and its
    /// synchronous write descriptor with `O_CLOEXEC` but not the main one, so every program the
    /// process starts would inherit the file open for writing: the file could not be replaced
    /// under it, nor its disk remounted read-only, while the child lived.
    private static func keepFileFromChildProcesses(_ handle: OpaquePointer) {
        var fd: Int32 = -1
        guard mdb_env_get_fd(handle, &fd) == MDB_SUCCESS, fd >= 0 else { return }
        let flags = fcntl(fd, F_GETFD)
        if flags >= 0 { _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
    }

    /// Refuses a file shorter than the last page its meta page names: LMDB maps the file and
    /// would touch those pages past its end, a SIGBUS. A truncated file is damage.
    private static func checkFileHoldsItsPages(_ handle: OpaquePointer) throws(LMDBError) {
        var info = MDB_envinfo()
        var stat = MDB_stat()
        var fd: Int32 = -1
        guard mdb_env_info(handle, &info) == MDB_SUCCESS, mdb_env_stat(handle, &stat) == MDB_SUCCESS,
              mdb_env_get_fd(handle, &fd) == MDB_SUCCESS else { return }
        var file = Glibc.stat()
        guard fstat(fd, &file) == 0 else { throw LMDBError(code: errno) }
        let (pages, overflow) = (info.me_last_pgno + 1).multipliedReportingOverflow(by: Int(stat.ms_psize))
        if overflow || Int(file.st_size) < pages { throw LMDBError.corrupted }
    }

    /// Allocates a new lock file's blocks before LMDB maps it: on a full disk LMDB's
    /// `ftruncate` leaves a sparse file whose first write through the map is a SIGBUS. A lock
    /// file at least as large as LMDB asks for is used as it is (LMDB fits more readers in it).
    private static func reserveLockFile(_ lockPath: String, readers: UInt32, mode: mode_t) throws(LMDBError) {
        // LMDB's reader slots are a cache line each, after a header of a few cache lines.
        let size = (Int(readers) * 64 + 4096 + 4095) / 4096 * 4096
        // Only a new one: other processes size an existing one by their own reader count.
        let fd = Glibc.open(lockPath, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { return }  // it exists, or LMDB reports the problem with the file
        defer { close(fd) }
        let code = posix_fallocate(fd, 0, off_t(size))
        if code == ENOSPC || code == EDQUOT {
            unlink(lockPath)
            throw LMDBError(code: code)
        }
    }

    /// Whether the data file this environment has open was deleted since: no name refers to it
    /// any more, so what is written to it is lost when the environment closes. A file renamed
    /// or linked elsewhere keeps its data and is not deleted.
    public var dataFileWasDeleted: Bool {
        var fd: Int32 = -1
        var file = Glibc.stat()
        guard mdb_env_get_fd(handle, &fd) == MDB_SUCCESS, fstat(fd, &file) == 0 else { return false }
        return file.st_nlink == 0
    }

    /// Whether this process has an environment open for the file at `path`.
    public static func isOpen(path: String) -> Bool {
        guard let identity = FileIdentity(path: path) else { return false }
        return registry.contains(identity)
    }

    /// How many environments this process has open.
    public static var openCount: Int {
        registry.count
    }

    // MARK: Transactions

    /// Begins a read-only transaction: a snapshot of the latest committed version.
    ///
    /// - Throws: ``LMDBError/readersFull`` when every reader slot is taken (after clearing
    ///   slots of dead processes once), or another ``LMDBError``.
    public func beginReadTransaction() throws(LMDBError) -> Transaction {
        try Transaction(environment: self, readOnly: true)
    }

    /// Begins a write transaction, waiting for any other writer (thread or process) to finish.
    ///
    /// The transaction belongs to the calling thread: commit or abort it on the same thread.
    public func beginTransaction() throws(LMDBError) -> Transaction {
        try Transaction(environment: self, readOnly: false)
    }

    /// Runs `mdb_txn_begin`, clearing stale readers once on `MDB_READERS_FULL` and adopting
    /// another process's larger map on `MDB_MAP_RESIZED`.
    package func rawBegin(flags: UInt32, parent: OpaquePointer? = nil) throws(LMDBError) -> OpaquePointer {
        if let parent {
            // Nested: no lock to take, no snapshot to set up; only memory can run out.
            var txn: OpaquePointer?
            try LMDBError.check(mdb_txn_begin(handle, parent, flags, &txn))
            gate.withLock { $0 += 1 }
            return txn!
        }
        var attempt = 0
        while true {
            var txn: OpaquePointer?
            let code = faults.take(.begin) ?? mdb_txn_begin(handle, nil, flags, &txn)
            if code == MDB_SUCCESS, let txn {
                gate.withLock { $0 += 1 }
                return txn
            }
            attempt += 1
            guard attempt < 3 else { throw LMDBError(code: code) }
            switch code {
            case MDB_READERS_FULL:
                var dead: Int32 = 0
                mdb_reader_check(handle, &dead)
                if dead == 0 { throw LMDBError(code: code) }
            case MDB_MAP_RESIZED:
                try adoptResizedMap()
            default:
                throw LMDBError(code: code)
            }
        }
    }

    /// Records that a transaction of this environment ended (commit, abort or reset).
    package func transactionEnded() {
        gate.withLock { $0 -= 1 }
    }

    /// Records that a reset read transaction was renewed.
    package func transactionRenewed() {
        gate.withLock { $0 += 1 }
    }

    /// A counter that moves each time this process makes database handles opened in a read
    /// transaction available; a transaction that began before a move cannot use those handles
    /// (LMDB fixes a transaction's handles when it begins).
    public var handleEpoch: UInt64 { handleEpochValue.load(ordering: .acquiring) }

    /// Publishes `epoch` (one past ``handleEpoch``) once the handles it stands for are usable.
    public func publishHandleEpoch(_ epoch: UInt64) { handleEpochValue.store(epoch, ordering: .releasing) }

    /// Live transactions of this process in this environment.
    public var activeTransactionCount: Int { gate.withLock { $0 } }

    // MARK: Map size

    /// The map size in force, in bytes.
    public var mapSize: Int { gate.withLock { _ in info.me_mapsize } }

    /// LMDB's facts of the environment. They are read from the meta pages, through the map:
    /// callers hold `gate`, under which the map is never moved.
    private var info: MDB_envinfo {
        var info = MDB_envinfo()
        mdb_env_info(handle, &info)
        return info
    }

    /// Grows the map to `newSize` bytes.
    ///
    /// LMDB allows this only while no transaction of this process is active.
    /// - Throws: ``LMDBError/busy`` when a transaction is live; the caller ends its
    ///   transactions and tries again.
    public func growMap(to newSize: Int) throws(LMDBError) {
        try gate.withLock { active throws(LMDBError) in
            guard active == 0 else { throw LMDBError.busy }
            if let code = faults.take(.growMap) { throw LMDBError(code: code) }
            try LMDBError.check(mdb_env_set_mapsize(handle, max(newSize, info.me_mapsize)))
            bounds.remeasure()
        }
    }

    /// Whether the map holds the latest version: `false` once another process grew the file
    /// past this process's map. LMDB then refuses new transactions (`MDB_MAP_RESIZED`) until
    /// the file is remapped, which it allows only while no transaction of this process is open.
    public var mapHoldsLatestVersion: Bool { mapFill <= 1 }

    /// How much of the map the latest version takes: the pages up to its last over the map's
    /// pages (above 1 once another process grew the file past this process's map).
    public var mapFill: Double {
        let extent = extent
        return (Double(extent.lastPage) + 1) / Double(max(1, extent.mapSize / extent.pageSize))
    }

    /// The latest version's last page, the map's size and the page size, read at once.
    private var extent: (lastPage: Int, mapSize: Int, pageSize: Int) {
        gate.withLock { _ in
            var stat = MDB_stat()
            mdb_env_stat(handle, &stat)
            let info = info
            return (info.me_last_pgno, info.me_mapsize, Int(stat.ms_psize))
        }
    }

    /// Remaps the file at the size another process gave it; throws `mapResized` while any
    /// transaction of this process is active (their pages are in the current mapping).
    package func adoptResizedMap() throws(LMDBError) {
        try gate.withLock { active throws(LMDBError) in
            guard active == 0 else { throw LMDBError.mapResized }
            try LMDBError.check(mdb_env_set_mapsize(handle, 0))
            bounds.remeasure()
        }
    }

    // MARK: Facts

    /// The database page size, in bytes.
    public var pageSize: Int {
        var stat = MDB_stat()
        // It reads the meta page too, through the map.
        gate.withLock { _ in _ = mdb_env_stat(handle, &stat) }
        return Int(stat.ms_psize)
    }

    /// The largest key LMDB accepts in this environment (511 bytes with the default build).
    public var maxKeySize: Int { Int(mdb_env_get_maxkeysize(handle)) }

    /// The id of the last committed transaction: it moves with every commit, from any process.
    public var lastTransactionID: Int { gate.withLock { _ in info.me_last_txnid } }

    /// Bytes of the file in use: pages up to the last one written.
    public var usedBytes: Int {
        let extent = extent
        let (bytes, overflow) = (extent.lastPage + 1).multipliedReportingOverflow(by: extent.pageSize)
        return overflow ? .max : bytes
    }

    /// Clears reader slots held by processes that died; returns how many were cleared.
    @discardableResult
    public func checkReaders() -> Int {
        var dead: Int32 = 0
        mdb_reader_check(handle, &dead)
        return Int(dead)
    }

    /// Flushes the data to disk, even when opened with `noSync`.
    public func sync() throws(LMDBError) {
        try LMDBError.check(mdb_env_sync(handle, 1))
    }

    /// Writes a copy of the environment to `path`, leaving out free pages when `compact`.
    ///
    /// - Throws: ``LMDBError/fileExists`` when `path` exists (LMDB never overwrites), or an
    ///   `errno` such as ``LMDBError/noSpace``.
    public func copy(to path: String, compact: Bool) throws(LMDBError) {
        if access(path, F_OK) == 0 { throw LMDBError.fileExists }
        let fd = Glibc.open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, options.fileMode)
        guard fd >= 0 else { throw LMDBError(code: errno) }
        let code = faults.take(.copy) ?? mdb_env_copyfd2(handle, fd, compact ? UInt32(MDB_CP_COMPACT) : 0)
        let syncCode = code == MDB_SUCCESS && fsync(fd) != 0 ? errno : 0
        close(fd)
        if code != MDB_SUCCESS || syncCode != 0 {
            unlink(path)
            throw LMDBError(code: code != MDB_SUCCESS ? code : syncCode)
        }
    }
}
