import Foundation

/// Encodes and reads object rows.
///
/// A row is laid out little-endian as
///
///     [u16 column count n][null bitmap, ⌈n/8⌉ bytes][u32 end offset × n][values]
///
/// Column `c`'s bytes run from the end offset of `c - 1` (0 for the first) to its own end
/// offset, counted from the start of the values. Any one column is thus read in O(1) without
/// decoding the others. Columns past the row's count (added to the schema later) read as null.
/// Integers of every width take 8 bytes, `Float` 4, `Double` and `Date` 8 (the `Double` of
/// `timeIntervalSinceReferenceDate`, exact), `UUID` 16, `ObjectId` 12; strings are UTF-8 as
/// given (no normalisation); decimals (`Decimal128`, and Foundation `Decimal` through it) are
/// IEEE 754 decimal128 in its binary integer decimal (BID) encoding, 16 bytes, low word first.
enum RowCodec {
    /// Writes `values` as a row into `buffer`, replacing its contents.
    static func encode(_ values: [_PersistedValue], into buffer: inout [UInt8]) {
        let size = self.size(of: values)
        buffer.removeAll(keepingCapacity: true)
        buffer.append(contentsOf: repeatElement(0, count: size))
        buffer.withUnsafeMutableBytes { write(values, into: $0) }
    }

    /// The bytes the row of `values` takes.
    static func size(of values: [_PersistedValue]) -> Int {
        var size = 2 + (values.count + 7) / 8 + 4 * values.count
        for value in values { size += byteCount(of: value) }
        return size
    }

    /// Writes the row of `values` into `row`, which holds exactly ``size(of:)`` bytes.
    static func write(_ values: [_PersistedValue], into row: UnsafeMutableRawBufferPointer) {
        let count = values.count
        let bitmapStart = 2
        let offsetsStart = bitmapStart + (count + 7) / 8
        let valuesStart = offsetsStart + 4 * count
        let base = row.baseAddress!
        base.storeBytes(of: UInt16(count).littleEndian, as: UInt16.self)
        for index in bitmapStart..<offsetsStart { base.storeBytes(of: 0, toByteOffset: index, as: UInt8.self) }
        var end = 0
        for (column, value) in values.enumerated() {
            if case .null = value {
                let byte = base.load(fromByteOffset: bitmapStart + column / 8, as: UInt8.self)
                base.storeBytes(of: byte | 1 << UInt8(column % 8), toByteOffset: bitmapStart + column / 8, as: UInt8.self)
            } else {
                end += write(value, to: base + valuesStart + end)
            }
            (base + offsetsStart + 4 * column).storeBytes(of: UInt32(end).littleEndian, as: UInt32.self)
        }
    }

    /// Bytes one value takes in a row.
    @inline(__always)
    static func byteCount(of value: _PersistedValue) -> Int {
        switch value {
        case .null: 0
        case .bool: 1
        case .int, .double, .date, .link: 8
        case .typedLink: 12
        case .mixed(let inner): NestedValueCodec.mixedByteCount(of: inner)
        case .list, .dictionary: NestedValueCodec.byteCount(of: value)
        case .float: 4
        case .uuid: 16
        case .objectId: 12
        case .string(let v): v.utf8.count
        case .data(let v): v.count
        case .decimal: 16
        }
    }

    /// Writes one value's row bytes at `target`; returns how many.
    @inline(__always)
    static func write(_ value: _PersistedValue, to target: UnsafeMutableRawPointer) -> Int {
        switch value {
        case .null: return 0
        case .bool(let v): target.storeBytes(of: v ? 1 : 0, as: UInt8.self); return 1
        case .int(let v): target.storeBytes(of: v.littleEndian, as: Int64.self); return 8
        case .link(let v): target.storeBytes(of: v.littleEndian, as: UInt64.self); return 8
        case .typedLink(let classID, let key):
            target.storeBytes(of: classID.littleEndian, as: UInt32.self)
            (target + 4).storeBytes(of: key.littleEndian, as: UInt64.self)
            return 12
        case .mixed(let inner):
            // The tag says the inner kind; an absent value inside a present mixed one is tag 0.
            target.storeBytes(of: NestedValueCodec.tag(of: inner), as: UInt8.self)
            return 1 + write(inner, to: target + 1)
        case .list, .dictionary: return NestedValueCodec.write(value, to: target)
        case .float(let v): target.storeBytes(of: v.bitPattern.littleEndian, as: UInt32.self); return 4
        case .double(let v): target.storeBytes(of: v.bitPattern.littleEndian, as: UInt64.self); return 8
        case .date(let v):
            target.storeBytes(of: v.timeIntervalSinceReferenceDate.bitPattern.littleEndian, as: UInt64.self); return 8
        case .uuid(let v): withUnsafeBytes(of: v.uuid) { target.copyMemory(from: $0.baseAddress!, byteCount: 16) }; return 16
        case .objectId(let v): withUnsafeBytes(of: v.bytes) { target.copyMemory(from: $0.baseAddress!, byteCount: 12) }; return 12
        case .string(var v):
            return v.withUTF8 { utf8 in
                if let source = utf8.baseAddress { target.copyMemory(from: source, byteCount: utf8.count) }
                return utf8.count
            }
        case .data(let v):
            // One pass over the storage: each access to `Data`'s storage is checked for exclusivity.
            return v.withUnsafeBytes { bytes in
                if let source = bytes.baseAddress { target.copyMemory(from: source, byteCount: bytes.count) }
                return bytes.count
            }
        case .decimal(let v):
            let (low, high) = v.bid
            target.storeBytes(of: low.littleEndian, as: UInt64.self)
            (target + 8).storeBytes(of: high.littleEndian, as: UInt64.self)
            return 16
        }
    }

    /// Decodes the row bytes of one non-null value of `kind`.
    ///
    /// - Throws: ``StorageError`` when the bytes cannot be a value of `kind` (a wrong width, an
    ///   unreadable decimal): nothing is made up in their place.
    static func decode(_ bytes: UnsafeRawBufferPointer, kind: _StorageKind) throws(StorageError) -> _PersistedValue {
        func expect(_ widths: Int...) throws(StorageError) {
            guard widths.contains(bytes.count) else {
                throw .damaged("a stored \(kind) value is \(bytes.count) bytes long")
            }
        }
        switch kind {
        case .bool: try expect(1); return .bool(bytes[0] != 0)
        case .int: try expect(8); return .int(Int64(littleEndian: bytes.loadUnaligned(as: Int64.self)))
        case .link:
            try expect(8, 12)
            if bytes.count == 12 {
                return .typedLink(classID: UInt32(littleEndian: bytes.loadUnaligned(as: UInt32.self)),
                                  key: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 4, as: UInt64.self)))
            }
            return .link(UInt64(littleEndian: bytes.loadUnaligned(as: UInt64.self)))
        case .mixed: return .mixed(try NestedValueCodec.decodeMixed(bytes))
        case .float: try expect(4); return .float(Float(bitPattern: UInt32(littleEndian: bytes.loadUnaligned(as: UInt32.self))))
        case .double: try expect(8); return .double(Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(as: UInt64.self))))
        case .date:
            try expect(8)
            return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(as: UInt64.self)))))
        case .string: return .string(String(decoding: bytes, as: UTF8.self))
        case .data: return .data(Data(bytes))
        case .uuid: try expect(16); return .uuid(UUID(uuid: bytes.loadUnaligned(as: uuid_t.self)))
        case .objectId:
            guard let id = ObjectId(bytes: bytes) else { throw .damaged("a stored ObjectId is \(bytes.count) bytes long") }
            return .objectId(id)
        case .decimal:
            try expect(16)
            let low = UInt64(littleEndian: bytes.loadUnaligned(as: UInt64.self))
            let high = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            guard let decimal = Decimal128(bid: low, high: high) else {
                throw .damaged("a stored Decimal128 has non-canonical bits \(String(high, radix: 16)) \(String(low, radix: 16))")
            }
            return .decimal(decimal)
        }
    }

    /// Appends the row bytes of one non-null value.
    static func append(_ value: _PersistedValue, to buffer: inout [UInt8]) {
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: byteCount(of: value)))
        buffer.withUnsafeMutableBytes { _ = write(value, to: $0.baseAddress! + start) }
    }
}

/// Reads columns of one encoded row in place. Valid only while its bytes are.
///
/// The bytes come from the file and are not trusted: every offset and width is checked before
/// it is used, and damage traps with a message naming the object instead of reading past the
/// row or decoding garbage. ``checkedValue(_:kind:)`` throws instead, for paths that can.
struct RowReader {
    let bytes: UnsafeRawBufferPointer
    /// The key of the object whose row this is (for predicates that read its lists).
    let key: ObjectKey
    /// Whether this row stands for no object at all (the target of a `nil` link): every
    /// property reads as `nil`, and the object has no lists, sets, maps or linking objects
    /// to read.
    private(set) var isAbsent = false
    let columnCount: Int
    private let bitmapStart = 2
    private let offsetsStart: Int
    private let valuesStart: Int

    @inline(__always)
    init(_ bytes: UnsafeRawBufferPointer, key: ObjectKey = ObjectKey(0)) {
        self.bytes = bytes
        self.key = key
        let count = bytes.count >= 2 ? Int(UInt16(littleEndian: bytes.loadUnaligned(as: UInt16.self))) : 0
        columnCount = count
        offsetsStart = 2 + (count + 7) / 8
        valuesStart = offsetsStart + 4 * count
        if bytes.count < 2 || valuesStart > bytes.count { StorageError.trap(headerDamage) }
    }

    /// The row of no object, as a `nil` link reaches: no columns, and nothing to read beyond it.
    static func withAbsentObject<T>(_ body: (RowReader) throws -> T) rethrows -> T {
        try absentRow.withUnsafeBytes { bytes in
            var reader = RowReader(bytes)
            reader.isAbsent = true
            return try body(reader)
        }
    }

    /// A row with no columns.
    private static let absentRow: [UInt8] = [0, 0]

    /// Whether the row's header and offset table fit in its bytes.
    static func isWellFormed(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 2 else { return false }
        let count = Int(UInt16(littleEndian: bytes.loadUnaligned(as: UInt16.self)))
        return 2 + (count + 7) / 8 + 4 * count <= bytes.count
    }

    private var headerDamage: StorageError {
        .damaged("the row of object \(key.rawValue) is \(bytes.count) bytes long, too short for its header")
    }

    /// Whether `column` holds null (or is missing from this row).
    @inline(__always)
    func isNull(_ column: Int) -> Bool {
        guard column < columnCount else { return true }
        return bytes[bitmapStart + column / 8] & (1 << UInt8(column % 8)) != 0
    }

    @inline(__always)
    private func end(_ column: Int) -> Int {
        Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offsetsStart + 4 * column, as: UInt32.self)))
    }

    /// Where `column`'s bytes lie in the row, checked against the row's size.
    @inline(__always)
    private func span(_ column: Int) -> Range<Int> {
        let start = valuesStart + (column == 0 ? 0 : end(column - 1))
        let end = valuesStart + end(column)
        guard start <= end, end <= bytes.count else { StorageError.trap(spanDamage(column)) }
        return start..<end
    }

    private func spanDamage(_ column: Int) -> StorageError {
        .damaged("column \(column) of the row of object \(key.rawValue) lies outside its \(bytes.count) bytes")
    }

    /// The raw bytes of `column`.
    @inline(__always)
    func columnBytes(_ column: Int) -> UnsafeRawBufferPointer {
        guard column < columnCount else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(rebasing: bytes[span(column)])
    }

    /// Where a fixed-width column of `width` bytes starts, checking its width.
    @inline(__always)
    private func start(_ column: Int, width: Int) -> Int {
        let span = span(column)
        guard span.count == width else {
            StorageError.trap(.damaged("column \(column) of the row of object \(key.rawValue) holds \(span.count) bytes instead of \(width)"))
        }
        return span.lowerBound
    }

    /// An integer column (any width), assuming it is not null.
    @inline(__always)
    func int(_ column: Int) -> Int64 {
        Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: start(column, width: 8), as: Int64.self))
    }

    /// A `Double` or `Date` column's `Double`, assuming it is not null.
    @inline(__always)
    func double(_ column: Int) -> Double {
        Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: start(column, width: 8), as: UInt64.self)))
    }

    /// A `Float` column, assuming it is not null.
    @inline(__always)
    func float(_ column: Int) -> Float {
        Float(bitPattern: UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: start(column, width: 4), as: UInt32.self)))
    }

    /// A `Bool` column, assuming it is not null.
    @inline(__always)
    func bool(_ column: Int) -> Bool {
        bytes[start(column, width: 1)] != 0
    }

    /// Decodes `column` as a value of `kind`; traps on damage.
    func value(_ column: Int, kind: _StorageKind) -> _PersistedValue {
        if isNull(column) { return .null }
        switch kind {
        case .bool: return .bool(bool(column))
        case .int: return .int(int(column))
        case .link: return .link(UInt64(bitPattern: int(column)))
        case .double: return .double(double(column))
        default:
            do {
                return try RowCodec.decode(columnBytes(column), kind: kind)
            } catch {
                StorageError.trap(error)
            }
        }
    }

    /// Decodes `column` as a value of `kind`, for paths that report damage by throwing.
    ///
    /// - Throws: ``StorageError`` when the row or the value is damaged.
    func checkedValue(_ column: Int, kind: _StorageKind) throws(StorageError) -> _PersistedValue {
        guard column < columnCount else { return .null }
        let start = valuesStart + (column == 0 ? 0 : end(column - 1))
        let end = valuesStart + end(column)
        guard start <= end, end <= bytes.count else { throw spanDamage(column) }
        if isNull(column) { return .null }
        return try RowCodec.decode(UnsafeRawBufferPointer(rebasing: bytes[start..<end]), kind: kind)
    }
}
