import CLMDB
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where an environment's map lies in memory, and how much of it the file fills: the check
/// that keeps a damaged length from reading past the file's end.
///
/// LMDB hands out pointers into its map with the lengths its pages record, and trusts them. A
/// damaged length (a node's data size, an overflow page count) can name bytes past the end of
/// the file: the map is larger than the file, and touching a page past its end is a SIGBUS
/// that no caller can catch. Every key and value read is checked here before anyone reads it.
package final class MappedFileBounds: Sendable {
    private let handle: UnsafeSendableHandle
    private let mapStart = Atomic<UInt>(0)
    private let mapEnd = Atomic<UInt>(0)
    /// The end of the file in the map, as last measured; the file only grows while it is open.
    private let fileEnd = Atomic<UInt>(0)
    /// The size of LMDB's pages, less one: the mask of an address's offset in its page.
    private let pageOffsetMask = Atomic<UInt>(4_095)

    init(handle: OpaquePointer) {
        self.handle = UnsafeSendableHandle(pointer: handle)
        remeasure()
    }

    /// Finds the map again (after LMDB moved or grew it) and measures the file.
    ///
    /// LMDB does not say where its map is (`mdb_env_info` gives the address only for a fixed
    /// map): the process's own table of mappings does, as the mapping of this file from its
    /// first byte. Where that table cannot be read, reads are not checked.
    func remeasure() {
        var fd: Int32 = -1
        var file = stat()
        guard mdb_env_get_fd(handle.pointer, &fd) == MDB_SUCCESS, fstat(fd, &file) == 0,
              let mapping = Self.mapping(device: file.st_dev, inode: file.st_ino) else {
            mapStart.store(0, ordering: .relaxed)
            mapEnd.store(0, ordering: .relaxed)
            return
        }
        var stat = MDB_stat()
        if mdb_env_stat(handle.pointer, &stat) == MDB_SUCCESS, stat.ms_psize > 0, stat.ms_psize & (stat.ms_psize - 1) == 0 {
            pageOffsetMask.store(UInt(stat.ms_psize) - 1, ordering: .relaxed)
        }
        mapStart.store(mapping.lowerBound, ordering: .relaxed)
        mapEnd.store(mapping.upperBound, ordering: .relaxed)
        fileEnd.store(mapping.lowerBound, ordering: .relaxed)
        _ = measureFile()
    }

    /// The addresses of this process's mapping of the file `device`/`inode` from offset 0, read
    /// from `/proc/self/maps` (lines such as `7f2a…-7f3a… r--s 00000000 08:01 1234 /path`).
    private static func mapping(device: dev_t, inode: ino_t) -> Range<UInt>? {
        let fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var text: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            text += chunk[..<count]
        }
        // glibc's encoding of device numbers (its `major` and `minor` are macros).
        let raw = UInt64(device)
        let major = ((raw >> 8) & 0xFFF) | ((raw >> 32) & ~0xFFF)
        let minor = (raw & 0xFF) | ((raw >> 12) & ~0xFF)
        let wantedDevice = String(major, radix: 16).leftPadded(to: 2) + ":" + String(minor, radix: 16).leftPadded(to: 2)
        for line in text.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: " "), maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count >= 5, UInt64(String(decoding: fields[4], as: UTF8.self)) == UInt64(inode),
                  String(decoding: fields[3], as: UTF8.self) == wantedDevice,
                  UInt64(String(decoding: fields[2], as: UTF8.self), radix: 16) == 0 else { continue }
            let range = fields[0].split(separator: UInt8(ascii: "-"))
            guard range.count == 2, let start = UInt(String(decoding: range[0], as: UTF8.self), radix: 16),
                  let end = UInt(String(decoding: range[1], as: UTF8.self), radix: 16), start < end else { continue }
            return start..<end
        }
        return nil
    }

    /// Whether `count` bytes at `base` can be read: they lie inside the file's part of the map,
    /// or, for a write transaction (`inMapOnly` false), outside the map altogether (the pages a
    /// write has changed live in memory LMDB allocated).
    @inline(__always)
    package func allows(_ base: UnsafeMutableRawPointer?, count: Int, inMapOnly: Bool) -> Bool {
        guard let base else { return count == 0 }
        let start = UInt(bitPattern: base)
        let mapStart = mapStart.load(ordering: .relaxed), mapEnd = mapEnd.load(ordering: .relaxed)
        guard start >= mapStart, start < mapEnd else { return !inMapOnly }
        let (end, overflow) = start.addingReportingOverflow(UInt(count))
        if overflow || end > mapEnd { return false }
        if end <= fileEnd.load(ordering: .relaxed) { return true }
        // The file may have grown since it was measured (this process's commits, others').
        return end <= measureFile()
    }

    /// The address of the page holding `pointer` (a key LMDB handed out): the same for every
    /// key of one page.
    @inline(__always)
    package func page(of pointer: UnsafeRawPointer) -> UInt {
        UInt(bitPattern: pointer) & ~pageOffsetMask.load(ordering: .relaxed)
    }

    /// The leaf page at address `page` (``page(of:)``), with its number and the page size, when
    /// it lies in the file's part of the map; `nil` for a page a write transaction changed,
    /// which lives in memory LMDB allocated.
    @inline(__always)
    package func pageInFile(_ page: UInt) -> (pointer: UnsafeRawPointer, number: UInt, size: Int)? {
        let mapStart = mapStart.load(ordering: .relaxed)
        let size = pageOffsetMask.load(ordering: .relaxed) + 1
        guard mapStart != 0, page >= mapStart, page &+ size <= fileEnd.load(ordering: .relaxed),
              let pointer = UnsafeRawPointer(bitPattern: page) else { return nil }
        return (pointer, (page - mapStart) / size, Int(size))
    }

    /// The address of page `number`, when it lies in the file's part of the map.
    @inline(__always)
    package func pageInFile(number: UInt) -> (pointer: UnsafeRawPointer, size: Int)? {
        let size = pageOffsetMask.load(ordering: .relaxed) + 1
        let (offset, overflow) = number.multipliedReportingOverflow(by: size)
        guard !overflow, let (pointer, _, size) = pageInFile(mapStart.load(ordering: .relaxed) &+ offset) else { return nil }
        return (pointer, size)
    }

    /// Whether the leaf page at address `page` has the shape of a sound one
    /// (``LeafPageCheck/isSound(_:number:size:)``); a page outside the file is not checked.
    package func leafPageIsSound(_ page: UInt) -> Bool {
        guard let (pointer, number, size) = pageInFile(page) else { return true }
        return LeafPageCheck.isSound(pointer, number: number, size: size)
    }

    /// Measures the file again; returns where it ends in the map.
    private func measureFile() -> UInt {
        var fd: Int32 = -1
        var file = stat()
        guard mdb_env_get_fd(handle.pointer, &fd) == MDB_SUCCESS, fstat(fd, &file) == 0 else {
            return fileEnd.load(ordering: .relaxed)
        }
        let end = mapStart.load(ordering: .relaxed) &+ UInt(max(0, file.st_size))
        _ = fileEnd.max(end, ordering: .relaxed)
        return end
    }
}

private extension String {
    /// The string with zeros before it up to `width` characters.
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

/// An `MDB_env` pointer, which LMDB lets any thread pass to `mdb_env_info` and `mdb_env_get_fd`.
private struct UnsafeSendableHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
