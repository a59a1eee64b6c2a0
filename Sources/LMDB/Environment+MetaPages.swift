import CLMDB

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension Environment {
    /// Refuses a file whose meta pages LMDB 0.9.24 would trust into a crash.
    ///
    /// LMDB checks each meta page's magic and version, then takes the one with the higher
    /// transaction id and follows its roots without checking them: a damaged root, depth, page
    /// size or flag makes it read outside the file or misread a page (SIGBUS, SIGSEGV or an
    /// assertion). Both meta pages are checked here, before LMDB maps the file, together with
    /// the page each root of the newer one names and the two pages' transaction ids. A file too
    /// short to hold two meta pages is left to LMDB.
    ///
    /// - Throws: ``LMDBError/corrupted`` for damage, ``LMDBError/invalid`` for a file that
    ///   is not LMDB's.
    package static func checkMetaPages(atPath path: String) throws(LMDBError) {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }  // missing or unreadable: LMDB reports it
        defer { close(fd) }
        var file = Glibc.stat()
        guard fstat(fd, &file) == 0, file.st_size > 0 else { return }
        let reader = PageReader(fd: fd, fileSize: Int(file.st_size))
        guard let first = reader.bytes(at: 0, count: MetaPage.size) else { return }
        let pageSize = Int(MetaPage.load(UInt32.self, first, MetaPage.freePad))
        guard (512...65_536).contains(pageSize), pageSize & (pageSize - 1) == 0 else {
            throw MetaPage.magicMatches(first) ? .corrupted : .invalid
        }
        guard let second = reader.bytes(at: pageSize, count: MetaPage.size) else { throw .corrupted }
        // Commits write the two meta pages in turn, so their ids are one apart (both 0 in a
        // file never written): a damaged id would make LMDB open an old version instead.
        let ids = [first, second].map { MetaPage.load(UInt64.self, $0, MetaPage.transactionID) }
        // LMDB follows the newer meta page only. The older one's roots are read only when the
        // two are equal: another process's commit in progress may already have written other
        // data into the pages of the version before the newer one (it writes its pages before
        // its meta page), and this check holds no reader slot that would keep them.
        let newer = ids[1] > ids[0] ? 1 : 0
        for (index, meta) in [first, second].enumerated() {
            try MetaPage.check(meta, index: index, pageSize: pageSize, reader: reader, readsRoots: index == newer || ids[0] == ids[1])
        }
        guard max(ids[0], ids[1]) - min(ids[0], ids[1]) <= 1 else { throw .corrupted }
    }
}

/// Reads pages of a file by offset, without mapping it.
private struct PageReader {
    let fd: Int32
    let fileSize: Int

    func bytes(at offset: Int, count: Int) -> [UInt8]? {
        guard offset >= 0, count > 0, offset <= fileSize - count else { return nil }
        var buffer = [UInt8](repeating: 0, count: count)
        let read = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(offset)) }
        return read == count ? buffer : nil
    }
}

/// The layout of LMDB 0.9.24's meta page on a 64-bit machine: a 16-byte page header, then
/// `MDB_meta` (magic, version, address, map size, the free and main databases' `MDB_db`,
/// last page, transaction id).
private enum MetaPage {
    static let size = 152
    static let pageNumber = 0, pageFlags = 10
    static let magic = 16, version = 20
    /// `MDB_db` of the free-page database, whose `md_pad` holds the page size, and of the main one.
    static let freePad = 40, freeDatabase = 40, mainDatabase = 88
    static let lastPage = 136, transactionID = 144

    static let metaFlag: UInt16 = 0x08, branchFlag: UInt16 = 0x01, leafFlag: UInt16 = 0x02
    static let invalidPage = UInt64.max
    /// The flags that change how a database's keys and values are read (`MDB_REVERSEKEY`,
    /// `MDB_DUPSORT`, `MDB_INTEGERKEY`, `MDB_DUPFIXED`, `MDB_INTEGERDUP`, `MDB_REVERSEDUP`): the
    /// free-page database has `MDB_INTEGERKEY` alone, a Burrow file's main database none.
    static let keyFlags: UInt16 = 0x7E
    static let freeFlags: UInt16 = 0x08

    static func load<T: FixedWidthInteger>(_ type: T.Type, _ bytes: [UInt8], _ offset: Int) -> T {
        bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) }
    }

    static func magicMatches(_ meta: [UInt8]) -> Bool { load(UInt32.self, meta, magic) == 0xBEEF_C0DE }

    static func check(_ meta: [UInt8], index: Int, pageSize: Int, reader: PageReader, readsRoots: Bool) throws(LMDBError) {
        guard magicMatches(meta) else { throw index == 0 ? .invalid : .corrupted }
        guard load(UInt32.self, meta, version) == 1, load(UInt64.self, meta, pageNumber) == UInt64(index),
              load(UInt16.self, meta, pageFlags) & metaFlag != 0,
              Int(load(UInt32.self, meta, freePad)) == pageSize else { throw .corrupted }
        let last = load(UInt64.self, meta, lastPage)
        guard last >= 1, last < UInt64(reader.fileSize / pageSize) else { throw .corrupted }
        try checkDatabase(meta, at: freeDatabase, flags: freeFlags, lastPage: last, pageSize: pageSize, reader: readsRoots ? reader : nil)
        try checkDatabase(meta, at: mainDatabase, flags: 0, lastPage: last, pageSize: pageSize, reader: readsRoots ? reader : nil)
    }

    /// One `MDB_db`: flags, depth, page counts, and, with `reader`, the root page it names.
    private static func checkDatabase(_ meta: [UInt8], at offset: Int, flags: UInt16, lastPage: UInt64, pageSize: Int,
                                      reader: PageReader?) throws(LMDBError) {
        let depth = load(UInt16.self, meta, offset + 6)
        let pages = [8, 16, 24].map { load(UInt64.self, meta, offset + $0) }
        let root = load(UInt64.self, meta, offset + 40)
        guard load(UInt16.self, meta, offset + 4) & keyFlags == flags else { throw .corrupted }
        if root == invalidPage {
            guard depth == 0, pages.allSatisfy({ $0 == 0 }), load(UInt64.self, meta, offset + 32) == 0 else { throw .corrupted }
            return
        }
        guard (1...32).contains(depth), root >= 2, root <= lastPage,
              pages.allSatisfy({ $0 <= lastPage }) else { throw .corrupted }
        guard let reader else { return }
        guard let page = reader.bytes(at: Int(root) * pageSize, count: 16) else { throw .corrupted }
        let kind = load(UInt16.self, page, pageFlags) & (branchFlag | leafFlag)
        let lower = Int(load(UInt16.self, page, 12)), upper = Int(load(UInt16.self, page, 14))
        guard load(UInt64.self, page, pageNumber) == root, kind == (depth == 1 ? leafFlag : branchFlag),
              lower >= 16, lower <= upper, upper <= pageSize else { throw .corrupted }
    }
}
