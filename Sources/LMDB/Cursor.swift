import CLMDB

/// A position in one database of a transaction, for ordered walks and range lookups.
///
/// Key and value buffers the cursor returns point into the memory map: they are valid until
/// the cursor moves, the transaction writes, or it ends.
///
/// ```swift
/// let cursor = try txn.openCursor(db)
/// var entry = try cursor.first()
/// while let (key, value) = entry { use(key, value); entry = try cursor.next() }
/// ```
public final class Cursor {
    /// A key and its value, as buffers into the map.
    public typealias Entry = (key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)

    private let handle: OpaquePointer
    /// The transaction the cursor reads; kept alive by the cursor.
    public let transaction: Transaction
    /// The environment's fault injector, held here so that a step of a walk reads one field.
    private let faults: FaultInjector
    /// The database the cursor walks, whose values may be sealed.
    private let database: Database
    /// The key of the last value that failed to open (``LMDBError/sealBroken``), for messages.
    public private(set) var keyOfBrokenSeal: [UInt8]?
    /// What the cursor has seen of the pages it stood on, checked as it goes. Touched only by
    /// this cursor's own calls, never during another access: it skips the runtime's exclusivity
    /// check, which would cost more than the step.
    @exclusivity(unchecked) private var walk = PageWalk()
    /// Whether an opened (decrypted) value lasts only until the cursor moves: it is then opened
    /// into ``scratch``, not kept for the rest of the transaction (see ``Transaction/openCursor(_:valuesLastUntilMove:)``).
    private let valuesLastUntilMove: Bool
    /// The cursor's own buffer for the value it stands on, when values last until it moves.
    @exclusivity(unchecked) private var scratch: UnsafeMutableRawBufferPointer?

    init(transaction: Transaction, database: Database, valuesLastUntilMove: Bool = false) throws(LMDBError) {
        self.database = database
        self.valuesLastUntilMove = valuesLastUntilMove
        var raw: OpaquePointer?
        try LMDBError.check(mdb_cursor_open(transaction.liveHandle(), database.handle, &raw))
        self.handle = raw!
        self.transaction = transaction
        faults = transaction.environment.faults
    }

    deinit {
        // LMDB frees a write transaction's cursors itself when the transaction ends.
        if transaction.isReadOnly || transaction.handle != nil { mdb_cursor_close(handle) }
        scratch?.deallocate()
    }

    @inline(__always)
    private func get(_ op: MDB_cursor_op, key: UnsafeRawBufferPointer? = nil, opening: Bool = true) throws(LMDBError) -> Entry? {
        var keyVal = MDB_val(mv_size: key?.count ?? 0, mv_data: UnsafeMutableRawPointer(mutating: key?.baseAddress))
        var dataVal = MDB_val()
        let code = faults.take(.get) ?? mdb_cursor_get(handle, &keyVal, &dataVal, op)
        if code == MDB_NOTFOUND {
            // A search sought `key`; a move from an entry or to an end, none.
            guard transaction.searchedPagesAreSound(by: handle, for: op == MDB_SET_KEY || op == MDB_SET_RANGE ? key : nil) else {
                throw .damagedPage
            }
            return nil
        }
        try LMDBError.check(code)
        try transaction.checkInFile(keyVal)
        let sought = key
        let key = UnsafeRawBufferPointer(start: keyVal.mv_data, count: keyVal.mv_size)
        try walk.arrived(at: key, by: op, in: transaction, checks: database.pageChecks, cursor: handle,
                         sought: op == MDB_SET_RANGE ? sought : nil)
        guard opening else { return (key, UnsafeRawBufferPointer(start: nil, count: 0)) }
        try transaction.checkInFile(dataVal)
        let value = UnsafeRawBufferPointer(start: dataVal.mv_data, count: dataVal.mv_size)
        guard database.sealID != 0 else { return (key, value) }
        do {
            if valuesLastUntilMove { return (key, try transaction.openSealed(value, key: key, in: database, into: &scratch)) }
            return (key, try transaction.openSealed(value, key: key, in: database))
        } catch {
            keyOfBrokenSeal = Array(key)
            throw error
        }
    }

    /// Moves `count` entries on (back, with `backwards`), reading nothing of the entries it
    /// passes; returns how many it moved, fewer when the database ends first (the cursor then
    /// stays on the last entry reached).
    ///
    /// In a read-only transaction, whole leaf pages are passed over by their headers
    /// (``Transaction/leafJump(from:over:backwards:)``), checked as a walk would check them:
    /// a million entries cost some ten thousand pages' headers, not a million steps.
    ///
    /// - Throws: ``LMDBError/damagedPage`` for a damaged page on the way.
    public func skip(_ count: Int, backwards: Bool = false) throws(LMDBError) -> Int {
        var keyVal = MDB_val()
        var dataVal = MDB_val()
        let op = backwards ? MDB_PREV : MDB_NEXT
        var moved = 0
        if count > 0, let jump = try transaction.leafJump(from: handle, over: count, backwards: backwards) {
            walk.forget()
            // A search for the key lands on its page, unless the tree routes it elsewhere.
            guard let (key, _) = try get(MDB_SET_KEY, key: jump.key, opening: false),
                  let base = key.baseAddress, transaction.bounds.page(of: base) == jump.page else { throw .damagedPage }
            moved = jump.steps
        }
        // The entries passed are not read: the next step has nothing to keep order with.
        walk.forget()
        while moved < count {
            let code = faults.take(.get) ?? mdb_cursor_get(handle, &keyVal, &dataVal, op)
            if code == MDB_NOTFOUND { break }
            try LMDBError.check(code)
            moved += 1
        }
        return moved
    }

    /// Moves to the first entry.
    public func first() throws(LMDBError) -> Entry? { try get(MDB_FIRST) }
    /// Moves to the last entry.
    public func last() throws(LMDBError) -> Entry? { try get(MDB_LAST) }
    /// Moves to the next entry.
    public func next() throws(LMDBError) -> Entry? { try get(MDB_NEXT) }
    /// Moves to the previous entry.
    public func previous() throws(LMDBError) -> Entry? { try get(MDB_PREV) }
    /// The entry under the cursor.
    public func current() throws(LMDBError) -> Entry? { try get(MDB_GET_CURRENT) }

    /// Moves to the first entry and gives its key only, for walks that need only keys: the
    /// value is neither checked nor opened (a sealed value is not decrypted, nor its checksum
    /// computed).
    public func firstKey() throws(LMDBError) -> UnsafeRawBufferPointer? { try get(MDB_FIRST, opening: false)?.key }
    /// Moves to the next entry and gives its key only, as ``firstKey()`` does.
    public func nextKey() throws(LMDBError) -> UnsafeRawBufferPointer? { try get(MDB_NEXT, opening: false)?.key }
    /// The key of the entry under the cursor only, as ``firstKey()`` gives it.
    public func currentKey() throws(LMDBError) -> UnsafeRawBufferPointer? { try get(MDB_GET_CURRENT, opening: false)?.key }

    /// Moves to `key` exactly.
    public func seek(exactly key: UnsafeRawBufferPointer) throws(LMDBError) -> Entry? { try get(MDB_SET_KEY, key: key) }
    /// Moves to the first entry whose key is at least `key`.
    public func seek(atLeast key: UnsafeRawBufferPointer) throws(LMDBError) -> Entry? { try get(MDB_SET_RANGE, key: key) }

    /// Moves to the first entry whose key is at least `key`.
    public func seek(atLeast key: [UInt8]) throws -> Entry? {
        try key.withUnsafeBytes { bytes in try seek(atLeast: bytes) }
    }

    /// Stores `value` under `key` through the cursor (`.append` and `.current` are cheapest).
    @inline(__always)
    public func put(_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer, flags: PutFlags = []) throws(LMDBError) {
        if database.sealID != 0 {
            return try transaction.withSealed(value, key: key, in: database) { (sealed) throws(LMDBError) in try putStored(key, sealed, flags: flags) }
        }
        try putStored(key, value, flags: flags)
    }

    @inline(__always)
    private func putStored(_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer, flags: PutFlags) throws(LMDBError) {
        var keyVal = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var dataVal = MDB_val(mv_size: value.count, mv_data: UnsafeMutableRawPointer(mutating: value.baseAddress))
        if let code = transaction.injectedFault(at: .cursorPut) { throw LMDBError(code: code) }
        transaction.noteMutation()
        walk.forget()
        try LMDBError.check(mdb_cursor_put(handle, &keyVal, &dataVal, flags.rawValue))
    }

    /// Reserves `size` bytes under `key` and lets `fill` write them in place.
    @inline(__always)
    package func put(_ key: UnsafeRawBufferPointer, reserving size: Int, flags: PutFlags = [],
                     fill: (UnsafeMutableRawBufferPointer) -> Void) throws(LMDBError) {
        try transaction.sealing(size, key: key, in: database, fill: fill) { (stored) throws(LMDBError) in
            try putReserving(key, stored, flags: flags)
        }
    }

    @inline(__always)
    private func putReserving(_ key: UnsafeRawBufferPointer, _ size: Int, flags: PutFlags) throws(LMDBError) -> UnsafeMutableRawBufferPointer {
        var keyVal = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var dataVal = MDB_val(mv_size: size, mv_data: nil)
        if let code = transaction.injectedFault(at: .cursorPut) { throw LMDBError(code: code) }
        transaction.noteMutation()
        walk.forget()
        try LMDBError.check(mdb_cursor_put(handle, &keyVal, &dataVal, flags.rawValue | UInt32(MDB_RESERVE)))
        return UnsafeMutableRawBufferPointer(start: dataVal.mv_data, count: size)
    }

    /// Removes the entry under the cursor.
    public func deleteCurrent() throws(LMDBError) {
        transaction.releaseLookupCursors()
        if let code = transaction.injectedFault(at: .delete) { throw LMDBError(code: code) }
        transaction.noteMutation()
        walk.forget()
        try LMDBError.check(mdb_cursor_del(handle, 0))
    }
}
