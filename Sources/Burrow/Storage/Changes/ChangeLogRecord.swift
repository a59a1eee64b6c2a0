/// The change log's record of one commit: the ``ObjectChanges`` of each class it changed, in
/// the byte form README's design section documents.
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

    static func encode(_ changes: [UInt32: ObjectChanges]) -> [UInt8] {
        var bytes: [UInt8] = [version]
        Varint.append(UInt64(changes.count), to: &bytes)
        for classID in changes.keys.sorted() {
            let change = changes[classID]!
            Varint.append(UInt64(classID), to: &bytes)
            bytes.append(change.cleared ? 1 : 0)
            appendKeys(change.deletions, to: &bytes)
            appendKeys(change.insertions, to: &bytes)
            appendRuns(change.modifications, to: &bytes)
        }
        return bytes
    }

    private static func appendKeys(_ keys: [UInt64], to bytes: inout [UInt8]) {
        var ranges: [(start: UInt64, length: UInt64)] = []
        for key in keys {
            if let last = ranges.last, last.start &+ last.length == key {
                ranges[ranges.count - 1].length += 1
            } else {
                ranges.append((key, 1))
            }
        }
        Varint.append(UInt64(ranges.count), to: &bytes)
        var end: UInt64 = 0
        for range in ranges {
            Varint.append(range.start - end, to: &bytes)
            Varint.append(range.length - 1, to: &bytes)
            end = range.start + range.length
        }
    }

    private static func appendRuns(_ modifications: [(key: UInt64, properties: [UInt32])], to bytes: inout [UInt8]) {
        var runs: [(start: UInt64, length: UInt64, properties: [UInt32])] = []
        for (key, properties) in modifications {
            if let last = runs.last, last.start &+ last.length == key, last.properties == properties {
                runs[runs.count - 1].length += 1
            } else {
                runs.append((key, 1, properties))
            }
        }
        Varint.append(UInt64(runs.count), to: &bytes)
        var end: UInt64 = 0
        for run in runs {
            Varint.append(run.start - end, to: &bytes)
            Varint.append(run.length - 1, to: &bytes)
            Varint.append(UInt64(run.properties.count), to: &bytes)
            for property in run.properties { Varint.append(UInt64(property), to: &bytes) }
            end = run.start + run.length
        }
    }

    /// The changes a record holds, by class.
    ///
    /// - Throws: ``StorageError/damaged(_:)`` for anything but a well-formed record.
    static func decode(_ bytes: UnsafeRawBufferPointer) throws(StorageError) -> [UInt32: ObjectChanges] {
        var reader = Varint.Reader(bytes)
        guard try reader.byte() == version else { throw StorageError.damaged("a change log record has an unknown format") }
        let classCount = try reader.count(atMost: bytes.count)
        var changes: [UInt32: ObjectChanges] = [:]
        for _ in 0..<classCount {
            let classID = try reader.uint32()
            let flags = try reader.byte()
            guard flags <= 1, changes[classID] == nil else { throw StorageError.damaged("a change log record repeats or misstates a class") }
            var budget = mostKeys
            let deletions = try keys(&reader, limit: bytes.count, budget: &budget)
            let insertions = try keys(&reader, limit: bytes.count, budget: &budget)
            let modifications = try runs(&reader, limit: bytes.count, budget: &budget)
            changes[classID] = ObjectChanges(cleared: flags == 1, deletions: deletions, insertions: insertions, modifications: modifications)
        }
        guard reader.isAtEnd else { throw StorageError.damaged("a change log record has trailing bytes") }
        return changes
    }

    /// The most object keys a record is read into: a damaged length must not allocate without
    /// bound. A commit that changed more objects of one class reads as unknown changes, which
    /// readers treat as a gap in the log (they compare versions instead).
    static let mostKeys: UInt64 = 1 << 24

    private static func keys(_ reader: inout Varint.Reader, limit: Int, budget: inout UInt64) throws(StorageError) -> [UInt64] {
        var keys: [UInt64] = []
        var end: UInt64 = 0
        for _ in 0..<(try reader.count(atMost: limit)) {
            let (start, length) = try range(&reader, after: end, budget: &budget)
            keys.append(contentsOf: start..<(start + length))
            end = start + length
        }
        return keys
    }

    private static func runs(_ reader: inout Varint.Reader, limit: Int, budget: inout UInt64) throws(StorageError) -> [(key: UInt64, properties: [UInt32])] {
        var modifications: [(key: UInt64, properties: [UInt32])] = []
        var end: UInt64 = 0
        for _ in 0..<(try reader.count(atMost: limit)) {
            let (start, length) = try range(&reader, after: end, budget: &budget)
            var properties: [UInt32] = []
            for _ in 0..<(try reader.count(atMost: limit)) {
                let property = try reader.uint32()
                guard properties.last.map({ $0 < property }) ?? true else { throw StorageError.damaged("a change log record lists properties out of order") }
                properties.append(property)
            }
            guard !properties.isEmpty else { throw StorageError.damaged("a change log record has a run with no property") }
            for key in start..<(start + length) { modifications.append((key, properties)) }
            end = start + length
        }
        return modifications
    }

    private static func range(_ reader: inout Varint.Reader, after end: UInt64, budget: inout UInt64) throws(StorageError) -> (UInt64, UInt64) {
        let gap = try reader.uint64()
        let length = try reader.uint64() &+ 1
        guard length != 0, length <= budget, gap <= UInt64.max - end, end + gap <= UInt64.max - length else {
            throw StorageError.damaged("a change log record has a key range out of bounds")
        }
        budget -= length
        return (end + gap, length)
    }
}
