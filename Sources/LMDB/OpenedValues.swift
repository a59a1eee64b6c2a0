/// The opened (decrypted) values a transaction has read from sealed databases.
///
/// LMDB hands out pointers into its map, valid until the transaction writes or ends, and for a
/// read transaction for as long as it reads the same version (a reset and renewal that finds
/// no newer version reads the same pages). An opened value must live as long, so it is kept
/// here until the transaction ends or is renewed at another version.
///
/// A read transaction's snapshot never changes, so each value is opened once and found again
/// by its database and key: memory stays bounded by what the snapshot holds. A write
/// transaction changes values, so it opens each read afresh.
final class OpenedValues: @unchecked Sendable {
    private struct State {
        /// Chunks values are placed in, the one being filled last.
        var chunks: [UnsafeMutableRawBufferPointer] = []
        /// Bytes taken of the last chunk.
        var used = 0
        /// Values longer than a chunk, each in an allocation of its own.
        var large: [UnsafeMutableRawBufferPointer] = []
        /// The values remembered by database and key.
        var remembered = OpenedValueTable()
    }

    /// Bytes of each chunk values are placed in, unless one value needs more.
    private static let chunkSize = 1 << 16

    // Shared transactions are read by several threads at once.
    private let state = Locked(State())

    deinit { release() }

    /// The plaintext of `sealed`, stored under `key` in `database`.
    ///
    /// - Throws: ``LMDBError/sealBroken`` when it does not open.
    func open(_ sealed: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer, database: Database,
              sealer: any ValueSealer, remember: Bool) throws(LMDBError) -> UnsafeRawBufferPointer {
        if sealed.isEmpty { return sealed }
        let size = sealed.count - sealer.sealingOverhead
        guard size >= 0 else { throw .sealBroken }
        let opened: UnsafeRawBufferPointer? = state.withLock { state in
            if remember, let known = state.remembered.value(database: database.sealID, key: key) { return known }
            let place = Self.place(size, in: &state)
            guard sealer.open(sealed, into: place, database: database.sealID, key: key) else { return nil }
            let value = UnsafeRawBufferPointer(place)
            if remember { state.remembered.insert(value, database: database.sealID, key: key) }
            return value
        }
        guard let opened else { throw .sealBroken }
        return opened
    }

    /// Keeps a copy of `plaintext`, the opened value of `key` in `database`, as ``open(_:key:database:sealer:remember:)``
    /// keeps what it opens with `remember`; does nothing when one is kept already.
    func keep(_ plaintext: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer, database: Database) {
        state.withLock { state in
            guard state.remembered.value(database: database.sealID, key: key) == nil else { return }
            let place = Self.place(plaintext.count, in: &state)
            if !plaintext.isEmpty { place.copyMemory(from: plaintext) }
            state.remembered.insert(UnsafeRawBufferPointer(place), database: database.sealID, key: key)
        }
    }

    /// The value of `key` in `database` as opened and remembered before, if it was.
    func remembered(key: UnsafeRawBufferPointer, database: Database) -> UnsafeRawBufferPointer? {
        state.withLock { $0.remembered.value(database: database.sealID, key: key) }
    }

    /// Frees every opened value: the transaction ended, or was renewed at another version.
    func release() {
        state.withLock { state in
            for chunk in state.chunks + state.large { chunk.deallocate() }
            state = State()
        }
    }

    /// `size` bytes for one value: the rest of the last chunk, a new chunk, or for a value
    /// longer than a chunk an allocation of its own.
    private static func place(_ size: Int, in state: inout State) -> UnsafeMutableRawBufferPointer {
        if size > chunkSize {
            let own = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
            state.large.append(own)
            return own
        }
        if state.chunks.isEmpty || state.chunks[state.chunks.count - 1].count - state.used < size {
            state.chunks.append(.allocate(byteCount: chunkSize, alignment: 16))
            state.used = 0
        }
        defer { state.used += size }
        return UnsafeMutableRawBufferPointer(rebasing: state.chunks[state.chunks.count - 1][state.used..<(state.used + size)])
    }
}
