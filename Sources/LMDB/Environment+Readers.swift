import CLMDB

extension Environment {
    /// One slot of LMDB's reader table: a read transaction of some process, and the version it reads.
    public struct Reader: Sendable, Equatable {
        public let processID: Int32
        /// The thread's id as LMDB records it (`pthread_self()` of the thread that took the slot).
        public let thread: UInt
        /// The transaction id of the version it reads.
        public let transactionID: Int
    }

    /// How many reader slots the lock file has: LMDB rounds the number asked for up to fill
    /// the lock file's pages.
    public var readerSlotCount: Int {
        var count: UInt32 = 0
        mdb_env_get_maxreaders(handle, &count)
        return Int(count)
    }

    /// The readers holding a version now, in every process, after clearing the slots of dead
    /// processes. Reset transactions (which hold a slot but no version) are left out.
    public func activeReaders() -> [Reader] {
        checkReaders()
        return readerTable()
    }

    /// The readers holding a version now, in every process, as the reader table has them:
    /// slots of processes that died are listed too (their ``Reader/processID`` is gone).
    public func readerTable() -> [Reader] {
        let collected = ReaderTableLines()
        mdb_reader_list(handle, { message, context in
            guard let message, let context else { return 0 }
            Unmanaged<ReaderTableLines>.fromOpaque(context).takeUnretainedValue().lines.append(String(cString: message))
            return 0
        }, Unmanaged.passUnretained(collected).toOpaque())
        return collected.lines.compactMap(Self.reader(from:))
    }

    /// Reads one line of `mdb_reader_list` ("pid thread txnid"; "-" for a reset slot, and a
    /// header line, both left out).
    static func reader(from line: String) -> Reader? {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count == 3, let processID = Int32(fields[0]), let thread = UInt(fields[1], radix: 16),
              let transactionID = Int(fields[2].filter { $0 != "\n" }) else { return nil }
        return Reader(processID: processID, thread: thread, transactionID: transactionID)
    }
}

/// The lines `mdb_reader_list` prints, gathered by its callback.
private final class ReaderTableLines {
    var lines: [String] = []
}
