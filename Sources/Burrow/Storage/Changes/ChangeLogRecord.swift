/// The change log's record of one commit: the net change of each class it changed
/// (``ChangeRuns``), in the byte form README's design section documents.
///
/// ```
/// record   := version(u8 = 1) classCount(varint) class*
/// class    := classID(varint) flags(u8: 1 = emptied) keyList(deletions) keyList(insertions)
///             runCount(varint) run*
/// keyList  := rangeCount(varint) (gap(varint) lengthMinusOne(varint))*
/// run      := gap(varint) lengthMinusOne(varint) propertyCount(varint) propertyID(varint)*
/// ```
/// Keys ascend; a gap is the distance from the end of the previous range (from 0 for the
/// first). A run is consecutive keys whose same properties changed. Decoding trusts nothing:
/// a record that does not parse, or names keys out of order, is damage.
enum ChangeLogRecord {
    static let version: UInt8 = 1

    static func encode(_ changes: [UInt32: ChangeRuns]) -> [UInt8] {
        var bytes: [UInt8] = [version]
        Varint.append(UInt64(changes.count), to: &bytes)
        for classID in changes.keys.sorted() {
            let change = changes[classID]!
            Varint.append(UInt64(classID), to: &bytes)
            bytes.append(change.cleared ? 1 : 0)
            appendRanges(change.deletions, to: &bytes)
            appendRanges(change.insertions, to: &bytes)
            Varint.append(UInt64(change.modifications.count), to: &bytes)
            var next: UInt64 = 0
            for run in change.modifications {
                appendRange(run.keys, after: &next, to: &bytes)
                Varint.append(UInt64(run.properties.count), to: &bytes)
                for property in run.properties { Varint.append(UInt64(property), to: &bytes) }
            }
        }
        return bytes
    }

    private static func appendRanges(_ ranges: [ClosedRange<UInt64>], to bytes: inout [UInt8]) {
        Varint.append(UInt64(ranges.count), to: &bytes)
        var next: UInt64 = 0
        for keys in ranges { appendRange(keys, after: &next, to: &bytes) }
    }

    /// Appends `keys`, which start at `next` or above, and moves `next` past them. (A range
    /// ending at the greatest key is the last: nothing can follow it.)
    private static func appendRange(_ keys: ClosedRange<UInt64>, after next: inout UInt64, to bytes: inout [UInt8]) {
        Varint.append(keys.lowerBound - next, to: &bytes)
        Varint.append(keys.upperBound - keys.lowerBound, to: &bytes)
        next = keys.upperBound &+ 1
    }

    /// The changes a record holds, by class.
    ///
    /// - Throws: ``StorageError/damaged(_:)`` for anything but a well-formed record.
    static func decode(_ bytes: UnsafeRawBufferPointer) throws(StorageError) -> [UInt32: ObjectChanges] {
        var reader = Varint.Reader(bytes)
        guard try reader.byte() == version else { throw StorageError.damaged("a change log record has an unknown format") }
        let classCount = try reader.count(atMost: bytes.count)
        var changes: [UInt32: ObjectChanges] = [:]
        var budget = mostKeys
        for _ in 0..<classCount {
            let classID = try reader.uint32()
            let flags = try reader.byte()
            guard flags <= 1, changes[classID] == nil else { throw StorageError.damaged("a change log record repeats or misstates a class") }
            var runs = ChangeRuns(cleared: flags == 1)
            for keys in try ranges(&reader, limit: bytes.count, budget: &budget) { runs.delete(keys) }
            for keys in try ranges(&reader, limit: bytes.count, budget: &budget) { runs.insert(keys) }
            var next: UInt64? = 0
            for _ in 0..<(try reader.count(atMost: bytes.count)) {
                let keys = try range(&reader, after: &next, budget: &budget)
                var properties: [UInt32] = []
                for _ in 0..<(try reader.count(atMost: bytes.count)) {
                    let property = try reader.uint32()
                    guard properties.last.map({ $0 < property }) ?? true else { throw StorageError.damaged("a change log record lists properties out of order") }
                    properties.append(property)
                }
                guard !properties.isEmpty else { throw StorageError.damaged("a change log record has a run with no property") }
                runs.modify(keys, properties: properties)
            }
            changes[classID] = ObjectChanges(runs)
        }
        guard reader.isAtEnd else { throw StorageError.damaged("a change log record has trailing bytes") }
        return changes
    }

    /// The most object keys a record is read into, over all its classes: a damaged length must
    /// not allocate without bound. A commit that changed more objects reads as unknown changes, which
    /// readers treat as a gap in the log (they compare versions instead).
    static let mostKeys: UInt64 = 1 << 24

    private static func ranges(_ reader: inout Varint.Reader, limit: Int, budget: inout UInt64) throws(StorageError) -> [ClosedRange<UInt64>] {
        var ranges: [ClosedRange<UInt64>] = []
        var next: UInt64? = 0
        for _ in 0..<(try reader.count(atMost: limit)) { ranges.append(try range(&reader, after: &next, budget: &budget)) }
        return ranges
    }

    /// Reads a range starting at `next` or above (`nil` once a range ended at the greatest
    /// key), and moves `next` past it.
    private static func range(_ reader: inout Varint.Reader, after next: inout UInt64?, budget: inout UInt64) throws(StorageError) -> ClosedRange<UInt64> {
        let gap = try reader.uint64()
        let lengthMinusOne = try reader.uint64()
        guard let floor = next, gap <= UInt64.max - floor, lengthMinusOne <= UInt64.max - (floor + gap), lengthMinusOne < budget else {
            throw StorageError.damaged("a change log record has a key range out of bounds")
        }
        budget -= lengthMinusOne + 1
        let keys = (floor + gap)...(floor + gap + lengthMinusOne)
        next = keys.upperBound == .max ? nil : keys.upperBound + 1
        return keys
    }
}
