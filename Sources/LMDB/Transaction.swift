import CLMDB

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An LMDB transaction: a read-only snapshot or the single writer.
///
/// A transaction that is neither committed nor aborted is aborted when released.
/// Byte buffers handed to closures (``withValue(for:in:_:)``) point into the memory map and are
/// valid only inside the closure.
///
/// ```swift
/// let txn = try env.beginReadTransaction()
/// let age = try txn.withValue(for: key, in: db) { row in row?.load(as: Int32.self) }
/// ```
///
/// Thread rules: a write transaction belongs to the thread that began it and must end on that
/// thread (LMDB's writer lock is a thread-owned mutex). Read transactions may move between
/// threads, but must not be used by two threads at once.
public final class Transaction {
    // `handle`, `resetState` and `epoch` are read on every lookup and written only by this
    // class's begin, renew, reset and end, never during another access: they skip the
    // runtime's exclusivity check, which would cost more than the lookup.
    /// The `MDB_txn` handle, or `nil` once the transaction has ended.
    @exclusivity(unchecked) package private(set) var handle: OpaquePointer?
    /// The environment this transaction reads or writes.
    public let environment: Environment
    /// Whether this is a read-only transaction.
    public let isReadOnly: Bool
    /// Whether a read-only transaction is reset (released its snapshot) and may be renewed.
    ///
    /// Read through a getter, as ``handleEpoch`` is: it is asked on every read of a realm.
    public var isReset: Bool { resetState }
    @exclusivity(unchecked) private var resetState = false
    private let owningThread: pthread_t?
    /// The environment's ``Environment/handleEpoch`` when the transaction began or was renewed.
    ///
    /// Read through a getter: a client module reading the stored property directly would check
    /// exclusivity at runtime on every lookup, not knowing it is unchecked here.
    public var handleEpoch: UInt64 { epoch }
    @exclusivity(unchecked) private var epoch: UInt64
    /// How many changes this transaction has made (puts, deletes, drops): any of them may move
    /// the pages that earlier reads pointed into, so a cache of those pointers is valid only
    /// while this count stays the same.
    public var mutationCount: UInt64 { mutations }
    @exclusivity(unchecked) private var mutations: UInt64 = 0

    /// Counts one change; the cursors of this transaction report theirs here too.
    @inline(__always)
    package func noteMutation() { mutations &+= 1 }

    /// Whether a write call failed: LMDB then refuses the commit (`MDB_BAD_TXN`), which aborts.
    @exclusivity(unchecked) private var failedWrite = false

    /// The failure planned at `point` for this call, if any; a write point's marks the
    /// transaction failed, as a real failure of that call would.
    @inline(__always)
    package func injectedFault(at point: FaultInjector.Point) -> Int32? {
        guard let code = faults.take(point) else { return nil }
        if point.failsTheTransaction { failedWrite = true }
        return code
    }

    /// The environment's fault injector, held here so that a lookup reads one field.
    private let faults: FaultInjector
    /// The environment's map bounds, held here for the same reason.
    package let bounds: MappedFileBounds
    /// Leaf pages the walks of this transaction found sound (``LeafPageCheck``), by address,
    /// in a table of ``checkedPageSlots`` slots chosen by page number: the pages of a snapshot
    /// do not change while it lasts, so each is checked once. Made at the first check, emptied
    /// when the snapshot changes; a transaction shared by threads does not use it.
    @exclusivity(unchecked) private var checkedPages: UnsafeMutablePointer<UInt>?
    private static let checkedPageSlots = 512

    /// Point lookups, and the cursors that serve the ones in key order. Only this class's own
    /// calls touch it, never during another access.
    @exclusivity(unchecked) private var lookups = PointLookups()
    /// Whether the transaction is shared by threads reading at once (``shareAcrossThreads()``):
    /// lookups then keep no cursor, and nothing in the transaction changes as it is read.
    @exclusivity(unchecked) public private(set) var isShared = false
    /// The environment's sealer, when its sealed databases' values are encrypted.
    private let sealer: (any ValueSealer)?
    /// Values this transaction opened from sealed databases (only with a cipher).
    @exclusivity(unchecked) private var opened: OpenedValues?
    /// Whether the sealer is the file's checksums: values keep their plaintext in place and are
    /// checked where they lie, by a direct call on every read, with no reference to retain.
    private let checksRecords: Bool

    init(environment: Environment, readOnly: Bool, parent: Transaction? = nil) throws(LMDBError) {
        self.environment = environment
        self.isReadOnly = readOnly
        // A nested transaction never holds LMDB's writer lock (its outermost one does): it may
        // end on any thread.
        self.owningThread = readOnly || parent != nil ? nil : pthread_self()
        isNested = parent != nil
        faults = environment.faults
        bounds = environment.bounds
        let sealer = environment.options.sealer.flatMap { $0.isActive ? $0 : nil }
        self.sealer = sealer
        checksRecords = sealer is RecordChecksums
        opened = sealer == nil || checksRecords ? nil : OpenedValues()
        epoch = environment.handleEpoch
        let begun = try environment.rawBegin(flags: readOnly ? UInt32(MDB_RDONLY) : 0, parent: parent?.liveHandle())
        handle = begun
        snapshotID = mdb_txn_id(begun)
        if readOnly { try retakeMislabeledSnapshot() }
    }

    deinit {
        checkedPages?.deallocate()
        if let handle {
            // LMDB's writer lock is a mutex owned by the thread that began the write: released
            // from any other thread, it stays locked and every later writer waits forever.
            if let owningThread, pthread_equal(owningThread, pthread_self()) == 0 {
                preconditionFailure("A write transaction was released on another thread than the one that began it; commit or abort it on its own thread first.")
            }
            releaseLookupCursors()
            mdb_txn_abort(handle)
            if !isReset { environment.transactionEnded() }
        }
    }

    /// Whether this is a transaction nested in another write (``beginNestedTransaction()``).
    public let isNested: Bool

    /// Begins a write transaction nested in this one: its changes join this transaction's
    /// when it commits, and vanish alone when it aborts; this transaction is left as it was.
    ///
    /// ```swift
    /// let child = try txn.beginNestedTransaction()
    /// try child.put(key, value, in: db)
    /// child.abort()          // txn never saw the put
    /// ```
    /// While the nested transaction lives, this one must not be used (LMDB's rule). Unlike its
    /// outermost transaction, a nested one holds no thread-owned lock: it may begin, be used and
    /// end on any thread, one thread at a time.
    /// - Throws: ``LMDBError`` from `mdb_txn_begin` (out of memory).
    public func beginNestedTransaction() throws(LMDBError) -> Transaction {
        precondition(!isReadOnly, "Only a write transaction can have nested transactions.")
        // LMDB shadows the parent's cursors while a child lives: the lookup cursors go first.
        releaseLookupCursors()
        let child = try Transaction(environment: environment, readOnly: false, parent: self)
        child.parent = self
        return child
    }

    /// The transaction this one is nested in, told of the changes this one commits.
    private weak var parent: Transaction?

    /// Whether the transaction can still be used.
    public var isActive: Bool { handle != nil && !isReset }

    /// The id of the snapshot this transaction reads (for a write: the id it will commit as);
    /// 0 once it has ended.
    ///
    /// Kept from the begin or the last renew, where LMDB fixes it: handle checks read it on
    /// every row lookup.
    public var id: Int { handle == nil ? 0 : snapshotID }
    @exclusivity(unchecked) private var snapshotID = 0

    @inline(__always)
    package func liveHandle() -> OpaquePointer {
        guard let handle, !isReset else {
            preconditionFailure("LMDB transaction used after it ended.")
        }
        return handle
    }

    private func checkOwningThread(_ action: String) {
        if let owningThread, pthread_equal(owningThread, pthread_self()) == 0 {
            preconditionFailure("A write transaction must \(action) on the thread that began it.")
        }
    }

    // MARK: Ending

    /// Commits the transaction. After a failed commit the transaction is gone as well.
    ///
    /// - Throws: ``LMDBError/noSpace``, ``LMDBError/mapFull`` or another `errno` from writing.
    public func commit() throws(LMDBError) {
        let handle = liveHandle()
        checkOwningThread("commit")
        releaseLookupCursors()
        opened?.release()
        self.handle = nil
        environment.transactionEnded()
        // A planned commit failure is the durable commit's: a nested transaction's commit only
        // joins its parent.
        if let code = (isNested ? nil : faults.take(.commit)) ?? (failedWrite ? MDB_BAD_TXN : nil) {
            _ = faults.take(.abort)
            mdb_txn_abort(handle)
            throw LMDBError(code: code)
        }
        try LMDBError.check(mdb_txn_commit(handle))
        parent?.mutations &+= mutations
    }

    /// Abandons every change and ends the transaction. Does nothing if already ended.
    public func abort() {
        guard let handle else { return }
        checkOwningThread("abort")
        releaseLookupCursors()
        opened?.release()
        self.handle = nil
        _ = faults.take(.abort)
        mdb_txn_abort(handle)
        if !isReset { environment.transactionEnded() }
    }

    /// Releases a read transaction's snapshot and reader slot, keeping the handle for ``renew()``.
    public func reset() {
        precondition(isReadOnly, "Only a read transaction can be reset.")
        guard let handle, !isReset else { return }
        releaseLookupCursors()
        // Opened values stay: a renewal that finds the same version reads the same pages, and
        // what was read from them before may still be in use.
        mdb_txn_reset(handle)
        resetState = true
        forgetCheckedPages()
        environment.transactionEnded()
    }

    /// Moves a reset read transaction to the latest committed version.
    public func renew() throws(LMDBError) {
        precondition(isReadOnly, "Only a read transaction can be renewed.")
        guard let handle else { preconditionFailure("LMDB transaction used after it ended.") }
        if !isReset { reset() }
        let previousSnapshot = snapshotID
        defer { if snapshotID != previousSnapshot { opened?.release() } }
        epoch = environment.handleEpoch
        if let code = faults.take(.renew) { throw LMDBError(code: code) }
        var code = mdb_txn_renew(handle)
        if code == MDB_MAP_RESIZED {
            // Another process grew the file past this process's map. It can be remapped while
            // no snapshot of this process points into it (this one is reset now); otherwise
            // this throws `mapResized`.
            try environment.adoptResizedMap()
            code = mdb_txn_renew(handle)
        }
        try LMDBError.check(code)
        snapshotID = mdb_txn_id(handle)
        resetState = false
        environment.transactionRenewed()
        try retakeMislabeledSnapshot()
    }

    /// How many times a snapshot that may not be the one its id names is taken again.
    private static let relabelAttempts = 64

    /// Takes the snapshot again while it may hold a newer version than its id says.
    ///
    /// LMDB 0.9.24 sets up a reader in two steps: it reads the latest id, then copies the
    /// database roots from the meta page that id selects (of two, by parity). A reader held up
    /// between the steps while two commits land copies the roots of the second from the same
    /// page: it reads version N+2 labelled N (about 5 renewals in a million with a writer
    /// committing and the CPUs busy). Everything keyed by version (frozen realms, the change
    /// log, the never-go-back check) would then be wrong. Right after the copy, a file whose
    /// newest id is at most one past the snapshot's shows that page was not rewritten; a newer
    /// one, so the snapshot is taken again. The retries are bounded: under a writer that commits
    /// twice in every retry, the last snapshot is kept.
    private func retakeMislabeledSnapshot() throws(LMDBError) {
        guard let handle else { return }
        var attempts = 0
        while environment.lastTransactionID > snapshotID + 1, attempts < Self.relabelAttempts {
            attempts += 1
            mdb_txn_reset(handle)
            let code = mdb_txn_renew(handle)
            guard code == MDB_SUCCESS else {
                // The transaction is reset now: account for it as `reset()` does.
                resetState = true
                environment.transactionEnded()
                throw LMDBError(code: code)
            }
            snapshotID = mdb_txn_id(handle)
        }
    }

    // MARK: Sharing

    /// Makes a read transaction safe for any number of threads to read at once, for good.
    ///
    /// LMDB changes a read transaction's state in two places only: the first use of each named
    /// database in it (it loads the database's root and clears a "stale" flag), and cursors a
    /// transaction keeps. This touches every database open in the environment once, here, and
    /// stops keeping lookup cursors, so that from then on reads leave the transaction as it is.
    /// Databases opened after the transaction began are not part of its snapshot anyway.
    public func shareAcrossThreads() {
        precondition(isReadOnly, "Only a read transaction can be shared across threads.")
        let handle = liveHandle()
        releaseLookupCursors()
        var stat = MDB_stat()
        for dbi in 2..<environment.options.maxDatabases { _ = mdb_stat(handle, MDB_dbi(dbi), &stat) }
        isShared = true
    }

    /// Swaps the snapshots of two live read transactions of one environment: each then reads
    /// what the other read.
    ///
    /// A snapshot cannot be reopened once released, so this is how a version that one holder
    /// reads can be handed to another while the first moves to a newer version.
    public func exchangeSnapshot(with other: Transaction) {
        precondition(isReadOnly && other.isReadOnly && environment === other.environment,
                     "Only read transactions of one environment can exchange snapshots.")
        precondition(isActive && other.isActive && !isShared && !other.isShared, "Cannot exchange an inactive or shared snapshot.")
        releaseLookupCursors()
        other.releaseLookupCursors()
        swap(&handle, &other.handle)
        swap(&snapshotID, &other.snapshotID)
        swap(&epoch, &other.epoch)
        swap(&opened, &other.opened)
    }

    // MARK: Databases

    /// Opens the named database (`nil`: the main one), creating it when `create` is true.
    ///
    /// Open each database once per process, early, and keep the handle: LMDB forbids opening
    /// databases from two transactions at once.
    /// - Throws: ``LMDBError/notFound`` when it does not exist and `create` is false.
    /// With `sealed`, the database's values pass through the environment's
    /// ``Environment/Options/sealer`` (when it has one).
    public func openDatabase(named name: String?, create: Bool = false, sealed: Bool = false) throws(LMDBError) -> Database {
        var dbi: MDB_dbi = 0
        let flags = create ? UInt32(MDB_CREATE) : 0
        let code: Int32 = if let injected = faults.take(.openDatabase) {
            injected
        } else if let name {
            mdb_dbi_open(liveHandle(), name, flags, &dbi)
        } else {
            mdb_dbi_open(liveHandle(), nil, flags, &dbi)
        }
        try LMDBError.check(code)
        guard sealed, sealer != nil, let name else { return Database(handle: dbi) }
        return Database(handle: dbi, sealID: Database.sealID(ofName: name))
    }

    /// Number of entries in `database`, read from its header (O(1)).
    public func count(in database: Database) throws(LMDBError) -> Int {
        var stat = MDB_stat()
        try LMDBError.check(mdb_stat(liveHandle(), database.handle, &stat))
        return stat.ms_entries
    }

    /// Removes every entry of `database`; with `delete`, removes the database itself.
    public func drop(_ database: Database, delete: Bool = false) throws(LMDBError) {
        let handle = liveHandle()
        releaseLookupCursors()
        if let code = injectedFault(at: .drop) { throw LMDBError(code: code) }
        noteMutation()
        try LMDBError.check(mdb_drop(handle, database.handle, delete ? 1 : 0))
    }

    // MARK: Reading

    /// The bytes stored under `key`, valid only until this transaction writes or ends.
    ///
    /// Internal to the package: callers decode or copy before either happens.
    @inline(__always)
    package func unsafeValue(for key: UnsafeRawBufferPointer, in database: Database) throws(LMDBError) -> UnsafeRawBufferPointer? {
        var keyVal = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var dataVal = MDB_val()
        let handle = liveHandle()
        let code = if let injected = faults.take(.get) {
            injected
        } else if !isShared, let lookup = try lookups.cursor(for: key, in: database.handle, of: handle) {
            lookup.followsLast && Self.next(of: lookup.cursor, is: key, &dataVal)
                ? MDB_SUCCESS : mdb_cursor_get(lookup.cursor, &keyVal, &dataVal, MDB_SET)
        } else {
            mdb_get(handle, database.handle, &keyVal, &dataVal)
        }
        if code == MDB_NOTFOUND {
            try confirmAbsent(key, in: database)
            return nil
        }
        try LMDBError.check(code)
        try checkInFile(dataVal)
        let value = UnsafeRawBufferPointer(start: dataVal.mv_data, count: dataVal.mv_size)
        return database.sealID == 0 ? value : try openSealed(value, key: key, in: database)
    }

    /// Moves `cursor` to its next entry; whether that entry's key is `key` (its value is then
    /// in `data`). When it is not, the caller searches: the cursor has moved anyway.
    @inline(__always)
    private static func next(of cursor: OpaquePointer, is key: UnsafeRawBufferPointer, _ data: inout MDB_val) -> Bool {
        var found = MDB_val()
        return mdb_cursor_get(cursor, &found, &data, MDB_NEXT) == MDB_SUCCESS && equal(found, key)
    }

    @inline(__always)
    private static func equal(_ stored: MDB_val, _ key: UnsafeRawBufferPointer) -> Bool {
        stored.mv_size == key.count && memcmp(stored.mv_data, key.baseAddress!, key.count) == 0
    }

    /// Whether the leaf page at address `page` (``MappedFileBounds/page(of:)``) has the shape of
    /// a sound one, checked once while this transaction's snapshot lasts.
    @inline(__always)
    package func leafPageIsSound(_ page: UInt) -> Bool {
        if hasChecked(page) { return true }
        guard bounds.leafPageIsSound(page) else { return false }
        noteChecked(page)
        return true
    }

    /// Whether the page at address `page` was found sound while this snapshot lasts.
    @inline(__always)
    func hasChecked(_ page: UInt) -> Bool {
        guard !isShared, let checkedPages else { return false }
        return checkedPages[Self.checkedPageSlot(page)] == page
    }

    /// Remembers that the page at address `page` was found sound.
    func noteChecked(_ page: UInt) {
        guard !isShared else { return }
        if checkedPages == nil {
            checkedPages = UnsafeMutablePointer<UInt>.allocate(capacity: Self.checkedPageSlots)
            checkedPages!.initialize(repeating: 0, count: Self.checkedPageSlots)
        }
        checkedPages![Self.checkedPageSlot(page)] = page
    }

    /// The slot of a page's address: its page number, for 4 KiB pages (other sizes spread less
    /// evenly, and stay correct).
    @inline(__always)
    private static func checkedPageSlot(_ page: UInt) -> Int {
        Int(truncatingIfNeeded: page >> 12) & (checkedPageSlots - 1)
    }

    /// Empties the table of checked pages: the snapshot is released (``reset()``, which every
    /// renewal follows), and with it what lies at each address of the map.
    private func forgetCheckedPages() {
        checkedPages?.update(repeating: 0, count: Self.checkedPageSlots)
    }

    /// Throws ``LMDBError/pastEndOfFile`` when `value` names bytes past the end of the file (a
    /// damaged length in a page), before anything reads them.
    @inline(__always)
    package func checkInFile(_ value: MDB_val) throws(LMDBError) {
        guard bounds.allows(value.mv_data, count: value.mv_size, inMapOnly: isReadOnly) else { throw LMDBError.pastEndOfFile }
    }

    // MARK: Sealed values

    /// The plaintext of a value read from a sealed database, valid as long as the value was.
    package func openSealed(_ value: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer,
                            in database: Database) throws(LMDBError) -> UnsafeRawBufferPointer {
        if checksRecords {
            guard database.sealID != 0, !value.isEmpty else { return value }
            guard RecordChecksums.verify(value, database: database.sealID, key: key) else { throw .sealBroken }
            return UnsafeRawBufferPointer(start: value.baseAddress, count: value.count - RecordChecksums.size)
        }
        guard let sealer, let opened, database.sealID != 0 else { return value }
        return try opened.open(value, key: key, database: database, sealer: sealer, remember: isReadOnly)
    }

    /// `value` of `database` opened as ``openSealed(_:key:in:)`` opens it, but decrypted into
    /// `buffer` (grown as needed) rather than kept for the transaction: valid until `buffer` is
    /// used again. A value that needs no decryption is returned where it lies, and one this
    /// read transaction opened and kept before is returned where it was kept.
    ///
    /// - Throws: ``LMDBError/sealBroken`` when it does not open.
    @inline(__always)
    package func openSealed(_ value: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer, in database: Database,
                            into buffer: inout UnsafeMutableRawBufferPointer?) throws(LMDBError) -> UnsafeRawBufferPointer {
        // Only a cipher's transactions open values (checksums leave them where they lie).
        guard let sealer, let opened, database.sealID != 0 else { return try openSealed(value, key: key, in: database) }
        if value.isEmpty { return value }
        if isReadOnly, let known = opened.remembered(key: key, database: database) { return known }
        let size = value.count - sealer.sealingOverhead
        guard size >= 0 else { throw .sealBroken }
        if (buffer?.count ?? 0) < size {
            buffer?.deallocate()
            buffer = .allocate(byteCount: max(size, 256), alignment: 16)
        }
        let place = UnsafeMutableRawBufferPointer(rebasing: buffer![0..<size])
        guard sealer.open(value, into: place, database: database.sealID, key: key) else { throw .sealBroken }
        return UnsafeRawBufferPointer(place)
    }

    /// Keeps `value`, opened from `database` into a buffer that does not last (by a cursor whose
    /// values last until it moves), for the rest of this read transaction, as a point read keeps
    /// what it opens: for values about to be read again. Does nothing for a write transaction or
    /// a value that needed no decryption.
    package func keepOpened(_ value: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer, in database: Database) {
        guard isReadOnly, let opened, database.sealID != 0, !value.isEmpty else { return }
        opened.keep(value, key: key, database: database)
    }

    /// Calls `body` with `value` sealed for `key` in `database` (as it is when not sealed).
    package func withSealed<Result>(_ value: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer, in database: Database,
                                    _ body: (UnsafeRawBufferPointer) throws(LMDBError) -> Result) throws(LMDBError) -> Result {
        guard database.sealID != 0, let sealer, !value.isEmpty else { return try body(value) }
        let sealed = UnsafeMutableRawBufferPointer.allocate(byteCount: value.count + sealer.sealingOverhead, alignment: 16)
        defer { sealed.deallocate() }
        sealer.seal(value, into: sealed, database: database.sealID, key: key)
        return try body(UnsafeRawBufferPointer(sealed))
    }

    /// For a sealed database, the plaintext `fill` writes, which the caller seals into the
    /// reserved bytes and then deallocates; `nil` when the database is not sealed.
    private func plaintextToSeal(_ size: Int, in database: Database,
                                 fill: (UnsafeMutableRawBufferPointer) -> Void) -> UnsafeMutableRawBufferPointer? {
        guard database.sealID != 0, sealer != nil, size > 0 else { return nil }
        let plaintext = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        fill(plaintext)
        return plaintext
    }

    /// Seals `plaintext` for `key` in `database` into `sealed`, ``ValueSealer/sealingOverhead`` longer.
    private func seal(_ plaintext: UnsafeMutableRawBufferPointer, into sealed: UnsafeMutableRawBufferPointer,
                      key: UnsafeRawBufferPointer, in database: Database) {
        sealer?.seal(UnsafeRawBufferPointer(plaintext), into: sealed, database: database.sealID, key: key)
    }

    /// Extra bytes a sealed value takes.
    private var sealingOverhead: Int { sealer?.sealingOverhead ?? 0 }

    /// Whether values reserved in `database` are written in place and their checksum added after.
    private func sealsInPlace(in database: Database) -> Bool { database.sealID != 0 && checksRecords }

    /// Lets `fill` write `size` bytes at the start of `reserved`, then adds their checksum after them.
    private func sealInPlace(_ reserved: UnsafeMutableRawBufferPointer, _ size: Int, key: UnsafeRawBufferPointer, in database: Database,
                             fill: (UnsafeMutableRawBufferPointer) -> Void) {
        let plaintext = UnsafeMutableRawBufferPointer(rebasing: reserved[..<size])
        fill(plaintext)
        RecordChecksums.seal(UnsafeRawBufferPointer(plaintext), into: reserved, database: database.sealID, key: key)
    }

    /// Calls `body` with the bytes stored under `key`, or `nil` when there are none.
    ///
    /// The buffer points into the memory map; it is valid only inside `body`.
    public func withValue<Result>(
        for key: [UInt8], in database: Database,
        _ body: (UnsafeRawBufferPointer?) throws -> Result
    ) throws -> Result {
        let value = try key.withUnsafeBytes { keyBytes in
            try unsafeValue(for: keyBytes, in: database)
        }
        return try body(value)
    }

    /// A copy of the bytes stored under `key`, or `nil`.
    public func value(for key: [UInt8], in database: Database) throws -> [UInt8]? {
        try withValue(for: key, in: database) { bytes in bytes.map { Array($0) } }
    }

    // MARK: Writing

    /// Stores `value` under `key`.
    ///
    /// - Throws: ``LMDBError/keyExists`` with `.noOverwrite` or `.append` out of order,
    ///   ``LMDBError/mapFull``, ``LMDBError/badValueSize`` for a key over ``Environment/maxKeySize``.
    @inline(__always)
    package func put(_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer, in database: Database, flags: PutFlags = []) throws(LMDBError) {
        if database.sealID != 0 {
            return try withSealed(value, key: key, in: database) { (sealed) throws(LMDBError) in try putStored(key, sealed, in: database, flags: flags) }
        }
        try putStored(key, value, in: database, flags: flags)
    }

    @inline(__always)
    private func putStored(_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer, in database: Database, flags: PutFlags) throws(LMDBError) {
        var keyVal = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var dataVal = MDB_val(mv_size: value.count, mv_data: UnsafeMutableRawPointer(mutating: value.baseAddress))
        if let code = injectedFault(at: .put) { throw LMDBError(code: code) }
        noteMutation()
        try LMDBError.check(mdb_put(liveHandle(), database.handle, &keyVal, &dataVal, flags.rawValue))
    }

    /// Stores `size` bytes under `key`, which usually holds a value already, written by `fill`
    /// where they are stored. Right after a lookup of a key near it (the usual read-then-write
    /// of a row), the lookup cursor stands on it and overwrites it, in the same place when the
    /// size is unchanged (`MDB_CURRENT | MDB_RESERVE`); a checksummed database's checksum is
    /// added in place. `fill` must not read the value being replaced: its bytes may be the ones
    /// it writes.
    package func replace(_ key: UnsafeRawBufferPointer, reserving size: Int, in database: Database,
                         fill: (UnsafeMutableRawBufferPointer) -> Void) throws(LMDBError) {
        try sealing(size, key: key, in: database, fill: fill) { (stored) throws(LMDBError) in
            try replaceReserving(key, stored, in: database)
        }
    }

    /// Reserves `size` bytes over the value of `key` (or for a new one); returns them.
    private func replaceReserving(_ key: UnsafeRawBufferPointer, _ size: Int, in database: Database) throws(LMDBError) -> UnsafeMutableRawBufferPointer {
        guard let cursor = try lookupCursor(at: key, in: database) else {
            return try putReserving(key, size, in: database, flags: [])
        }
        var keyVal = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var dataVal = MDB_val(mv_size: size, mv_data: nil)
        if let code = injectedFault(at: .cursorPut) { throw LMDBError(code: code) }
        noteMutation()
        try LMDBError.check(mdb_cursor_put(cursor, &keyVal, &dataVal, UInt32(MDB_CURRENT | MDB_RESERVE)))
        return UnsafeMutableRawBufferPointer(start: dataVal.mv_data, count: size)
    }

    /// The lookup cursor of `database` standing on `key`, or `nil` when `key` is absent or not
    /// near the database's last lookup. After reading `key` (the usual read-then-write of a
    /// row) the cursor stands on it already, which `MDB_GET_CURRENT` confirms without a search.
    private func lookupCursor(at key: UnsafeRawBufferPointer, in database: Database) throws(LMDBError) -> OpaquePointer? {
        guard let cursor = try lookups.cursor(for: key, in: database.handle, of: liveHandle())?.cursor else { return nil }
        var keyVal = MDB_val()
        var dataVal = MDB_val()
        if mdb_cursor_get(cursor, &keyVal, &dataVal, MDB_GET_CURRENT) == MDB_SUCCESS, Self.equal(keyVal, key) {
            return cursor
        }
        keyVal = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        let code = mdb_cursor_get(cursor, &keyVal, &dataVal, MDB_SET)
        if code == MDB_NOTFOUND { return nil }
        try LMDBError.check(code)
        return cursor
    }

    /// Stores `value` under `key` (see ``PutFlags`` for the modes).
    public func put(_ key: [UInt8], _ value: [UInt8], in database: Database, flags: PutFlags = []) throws {
        try key.withUnsafeBytes { keyBytes in
            try value.withUnsafeBytes { valueBytes in
                try put(keyBytes, valueBytes, in: database, flags: flags)
            }
        }
    }

    /// Reserves `size` bytes under `key` and lets `fill` write them in place (`MDB_RESERVE`).
    @inline(__always)
    package func put(_ key: UnsafeRawBufferPointer, reserving size: Int, in database: Database, flags: PutFlags = [],
                     fill: (UnsafeMutableRawBufferPointer) -> Void) throws(LMDBError) {
        try sealing(size, key: key, in: database, fill: fill) { (stored) throws(LMDBError) in
            try putReserving(key, stored, in: database, flags: flags)
        }
    }

    /// Stores the `size` bytes `fill` writes for `key` in the bytes `reserve` reserves for a
    /// given count: as they are in a plain database, followed by their checksum in a
    /// checksummed one, sealed from a plaintext copy in an encrypted one.
    @inline(__always)
    package func sealing(_ size: Int, key: UnsafeRawBufferPointer, in database: Database,
                         fill: (UnsafeMutableRawBufferPointer) -> Void,
                         reserve: (Int) throws(LMDBError) -> UnsafeMutableRawBufferPointer) throws(LMDBError) {
        if size > 0, sealsInPlace(in: database) {
            sealInPlace(try reserve(size + RecordChecksums.size), size, key: key, in: database, fill: fill)
        } else if let plaintext = plaintextToSeal(size, in: database, fill: fill) {
            defer { plaintext.deallocate() }
            seal(plaintext, into: try reserve(size + sealingOverhead), key: key, in: database)
        } else {
            fill(try reserve(size))
        }
    }

    @inline(__always)
    private func putReserving(_ key: UnsafeRawBufferPointer, _ size: Int, in database: Database,
                              flags: PutFlags) throws(LMDBError) -> UnsafeMutableRawBufferPointer {
        var keyVal = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var dataVal = MDB_val(mv_size: size, mv_data: nil)
        if let code = injectedFault(at: .put) { throw LMDBError(code: code) }
        noteMutation()
        try LMDBError.check(mdb_put(liveHandle(), database.handle, &keyVal, &dataVal, flags.rawValue | UInt32(MDB_RESERVE)))
        return UnsafeMutableRawBufferPointer(start: dataVal.mv_data, count: size)
    }

    /// Removes `key`; returns whether it was there.
    @inline(__always)
    @discardableResult
    package func delete(_ key: UnsafeRawBufferPointer, in database: Database) throws(LMDBError) -> Bool {
        var keyVal = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        let handle = liveHandle()
        releaseLookupCursors()
        if let code = injectedFault(at: .delete) { throw LMDBError(code: code) }
        noteMutation()
        let code = mdb_del(handle, database.handle, &keyVal, nil)
        if code == MDB_NOTFOUND { return false }
        try LMDBError.check(code)
        return true
    }

    /// Removes `key`; returns whether it was there.
    @discardableResult
    public func delete(_ key: [UInt8], in database: Database) throws -> Bool {
        try key.withUnsafeBytes { keyBytes in try delete(keyBytes, in: database) }
    }

    /// Opens a cursor over `database`, valid while this transaction lives.
    ///
    /// A sealed value of an encrypted file is decrypted where the cursor reads it, and by
    /// default kept until the transaction ends (and a read transaction's found again when read
    /// again), like every value LMDB hands out. With `valuesLastUntilMove`, it is decrypted into
    /// the cursor's own buffer instead, valid only until the cursor moves: for walks that read
    /// each value once, which would otherwise keep every value of the walk in memory.
    ///
    /// ```swift
    /// let cursor = try txn.openCursor(rows, valuesLastUntilMove: true)
    /// var entry = try cursor.first()
    /// while let (key, value) = entry { count += test(value) ? 1 : 0; entry = try cursor.next() }
    /// ```
    ///
    /// - Throws: ``LMDBError`` when LMDB cannot open the cursor.
    public func openCursor(_ database: Database, valuesLastUntilMove: Bool = false) throws(LMDBError) -> Cursor {
        try Cursor(transaction: self, database: database, valuesLastUntilMove: valuesLastUntilMove)
    }

    // MARK: Lookup cursors

    /// Closes the lookup cursors: before the transaction ends or resets, and before anything
    /// is deleted. (Once a write transaction has ended, LMDB has freed them itself.)
    func releaseLookupCursors() {
        lookups.reset(closing: isReadOnly || handle != nil)
    }
}

/// Flags for ``Transaction/put(_:_:in:flags:)``.
public struct PutFlags: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Fail with ``LMDBError/keyExists`` instead of replacing a value (`MDB_NOOVERWRITE`).
    public static let noOverwrite = PutFlags(rawValue: UInt32(MDB_NOOVERWRITE))
    /// The key sorts after every existing key: skip the search (`MDB_APPEND`).
    public static let append = PutFlags(rawValue: UInt32(MDB_APPEND))
    /// Replace the item under the cursor (`MDB_CURRENT`, cursors only).
    public static let current = PutFlags(rawValue: UInt32(MDB_CURRENT))
}

/// A handle to a named database inside an environment; cheap to copy, valid for the
/// environment's lifetime once the transaction that opened it has committed.
public struct Database: Hashable, Sendable {
    /// The `MDB_dbi` value.
    public let handle: UInt32
    /// What binds the values of a sealed database to it (see ``ValueSealer``); 0 when its
    /// values are stored as they are.
    public let sealID: UInt64
    /// How a cursor checks the leaf pages it reaches in this database (``PageWalk``). Not part of
    /// the handle's identity.
    public private(set) var pageChecks = PageChecks.stepsInOrder

    /// How a cursor checks the leaf pages of a database against damage to their structure.
    public enum PageChecks: Sendable {
        /// Each page's header, and the keys' order at every step: for databases of lookups
        /// (indexes), where a damaged key shows as a step out of order.
        case stepsInOrder
        /// Each page's header, and the keys' order at each step from one page to the next: for
        /// databases whose keys every read checks anyway (rows, whose seals cover their keys).
        case headersOnly
        /// Each page whole, once while a snapshot lasts: for databases read as runs that a seek
        /// finds (a collection's elements after their owner's key), where a page missing an
        /// entry would shorten the run without any step showing it.
        case wholePages
    }

    /// Wraps a raw `MDB_dbi` value.
    public init(handle: UInt32, sealID: UInt64 = 0) {
        self.handle = handle
        self.sealID = sealID
    }

    /// The same database, whose cursors check its pages as `checks` says.
    ///
    /// ```swift
    /// let elements = try txn.openDatabase(named: "c1.2", sealed: true).checkingPages(.wholePages)
    /// ```
    public func checkingPages(_ checks: PageChecks) -> Database {
        var database = self
        database.pageChecks = checks
        return database
    }

    /// Whether two values name the same database: the same handle, sealed the same way (how
    /// cursors check its pages is not compared).
    public static func == (left: Database, right: Database) -> Bool {
        left.handle == right.handle && left.sealID == right.sealID
    }

    /// Hashes what ``==`` compares: the handle and the seal.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(handle)
        hasher.combine(sealID)
    }
}
