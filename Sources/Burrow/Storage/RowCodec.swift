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
/// given (no normalisation), `Decimal` its exact decimal text.
enum RowCodec {
    /// Writes `values` as a row into `buffer`, replacing its contents.
    static func encode(_ values: [_PersistedValue], into buffer: inout [UInt8]) {
        let count = values.count
        let bitmapSize = (count + 7) / 8
        let headerSize = 2 + bitmapSize + 4 * count
        buffer.removeAll(keepingCapacity: true)
        buffer.append(contentsOf: repeatElement(0, count: headerSize))
        withUnsafeBytes(of: UInt16(count).littleEndian) { buffer.replaceSubrange(0..<2, with: $0) }
        for (column, value) in values.enumerated() {
            if value == .null {
                buffer[2 + column / 8] |= 1 << UInt8(column % 8)
            } else {
                append(value, to: &buffer)
            }
            let end = UInt32(buffer.count - headerSize).littleEndian
            let slot = 2 + bitmapSize + 4 * column
            withUnsafeBytes(of: end) { buffer.replaceSubrange(slot..<slot + 4, with: $0) }
        }
    }

    /// Appends the row bytes of one non-null value.
    static func append(_ value: _PersistedValue, to buffer: inout [UInt8]) {
        switch value {
        case .null: break
        case .bool(let v): buffer.append(v ? 1 : 0)
        case .int(let v): appendFixed(v.littleEndian, to: &buffer)
        case .float(let v): appendFixed(v.bitPattern.littleEndian, to: &buffer)
        case .double(let v): appendFixed(v.bitPattern.littleEndian, to: &buffer)
        case .date(let v): appendFixed(v.timeIntervalSinceReferenceDate.bitPattern.littleEndian, to: &buffer)
        case .string(let v): buffer.append(contentsOf: v.utf8)
        case .data(let v): buffer.append(contentsOf: v)
        case .uuid(let v): withUnsafeBytes(of: v.uuid) { buffer.append(contentsOf: $0) }
        case .objectId(let v): withUnsafeBytes(of: v.bytes) { buffer.append(contentsOf: $0) }
        case .decimal(let v): buffer.append(contentsOf: v.description.utf8)
        }
    }

    @inline(__always)
    private static func appendFixed<T: FixedWidthInteger>(_ value: T, to buffer: inout [UInt8]) {
        withUnsafeBytes(of: value) { buffer.append(contentsOf: $0) }
    }
}

/// Reads columns of one encoded row in place. Valid only while its bytes are.
struct RowReader {
    let bytes: UnsafeRawBufferPointer
    let columnCount: Int
    private let bitmapStart = 2
    private let offsetsStart: Int
    private let valuesStart: Int

    @inline(__always)
    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        columnCount = Int(UInt16(littleEndian: bytes.loadUnaligned(as: UInt16.self)))
        offsetsStart = 2 + (columnCount + 7) / 8
        valuesStart = offsetsStart + 4 * columnCount
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

    /// The raw bytes of `column`.
    @inline(__always)
    func columnBytes(_ column: Int) -> UnsafeRawBufferPointer {
        guard column < columnCount else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        let start = column == 0 ? 0 : end(column - 1)
        return UnsafeRawBufferPointer(rebasing: bytes[(valuesStart + start)..<(valuesStart + end(column))])
    }

    /// Where `column`'s bytes start, for fixed-width loads.
    @inline(__always)
    private func start(_ column: Int) -> Int {
        valuesStart + (column == 0 ? 0 : end(column - 1))
    }

    /// An integer column (any width), assuming it is not null.
    @inline(__always)
    func int(_ column: Int) -> Int64 {
        Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: start(column), as: Int64.self))
    }

    /// A `Double` or `Date` column's `Double`, assuming it is not null.
    @inline(__always)
    func double(_ column: Int) -> Double {
        Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: start(column), as: UInt64.self)))
    }

    /// A `Float` column, assuming it is not null.
    @inline(__always)
    func float(_ column: Int) -> Float {
        Float(bitPattern: UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: start(column), as: UInt32.self)))
    }

    /// A `Bool` column, assuming it is not null.
    @inline(__always)
    func bool(_ column: Int) -> Bool {
        bytes[start(column)] != 0
    }

    /// Decodes `column` as a value of `kind`.
    func value(_ column: Int, kind: _StorageKind) -> _PersistedValue {
        if isNull(column) { return .null }
        switch kind {
        case .bool: return .bool(bool(column))
        case .int: return .int(int(column))
        case .float: return .float(float(column))
        case .double: return .double(double(column))
        case .date: return .date(Date(timeIntervalSinceReferenceDate: double(column)))
        case .string: return .string(String(decoding: columnBytes(column), as: UTF8.self))
        case .data: return .data(Data(columnBytes(column)))
        case .uuid:
            let raw = columnBytes(column)
            return .uuid(UUID(uuid: raw.loadUnaligned(as: uuid_t.self)))
        case .objectId:
            return .objectId(ObjectId(bytes: columnBytes(column)) ?? ObjectId())
        case .decimal:
            let text = String(decoding: columnBytes(column), as: UTF8.self)
            return .decimal(Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) ?? .nan)
        }
    }
}
