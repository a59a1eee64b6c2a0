import LMDB

/// Reads every record of a file the way Burrow writes them and reports what does not fit:
/// rows whose columns do not decode, index, primary-key and collection entries that disagree
/// with the rows, links to objects that do not exist, backlinks without their link, embedded
/// objects without exactly one owner, object-key counters behind the keys, and change-log
/// records that do not decode.
///
/// It reads one snapshot through the realm's read transaction; every record it reads is
/// checked, never trusted. Damage inside LMDB's own B-tree pages is another matter: LMDB 0.9.24
/// trusts them, and may abort the process reading them, which is why `burrow verify` runs
/// this in a child process.
struct FileVerifier {
    private let realm: RealmCore
    private let catalog: Catalog
    /// The file's classes by id, as links and backlinks name them.
    private let layoutsByID: [UInt32: TableLayout]
    private var txn: Transaction { realm.transaction }
    private var report = Realm.FileVerification()
    /// Backlink entries by the object they point at (class id, key): embedded objects need one.
    private var owners: [UInt32: [UInt64: Int]] = [:]

    /// Told the count of records read so far: once as the check begins, then every
    /// ``progressInterval`` records.
    private let progress: ((Int) -> Void)?
    static let progressInterval = 1024

    init(realm: RealmCore, progress: ((Int) -> Void)? = nil) {
        self.realm = realm
        self.progress = progress
        catalog = realm.catalog
        layoutsByID = Dictionary(catalog.layouts.values.map { ($0.classID, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Checks the whole file.
    static func verify(_ realm: RealmCore, progress: ((Int) -> Void)? = nil) -> Realm.FileVerification {
        var verifier = FileVerifier(realm: realm, progress: progress)
        verifier.run()
        return verifier.report
    }

    private mutating func run() {
        // The file is open and the check begins: a watchdog counts from here.
        progress?(0)
        let layouts = catalog.layouts.values.sorted { $0.className < $1.className }
        for layout in layouts {
            attempt("class '\(layout.className)'") { try $0.checkTable(layout) }
        }
        attempt("the backlink index") { try $0.checkBacklinks() }
        for layout in layouts where layout.isEmbedded {
            attempt("embedded class '\(layout.className)'") { try $0.checkOwners(of: layout) }
        }
        attempt("the change log") { try $0.checkChangeLog() }
    }

    /// Runs one check; an error it throws (LMDB's, or damage where a record could not be read
    /// on) is reported, and the other checks go on.
    private mutating func attempt(_ subject: String, _ check: (inout FileVerifier) throws -> Void) {
        do {
            try check(&self)
        } catch {
            report.note("\(subject): \(error)")
        }
    }

    // MARK: Tables

    private mutating func checkTable(_ layout: TableLayout) throws {
        let name = layout.className
        var objects = 0
        var highestKey: UInt64?
        var decodedRows = 0
        let cursor = try txn.openCursor(layout.rows)
        var entry = try advance(cursor, in: name) { try $0.first() }
        while let (keyBytes, row) = entry {
            countRead()
            defer { objects += 1 }
            guard keyBytes.count == 8 else {
                report.note("\(name): a row has a key of \(keyBytes.count) bytes instead of 8")
                entry = try advance(cursor, in: name) { try $0.next() }
                continue
            }
            let key = ObjectKey(bytes: keyBytes)
            highestKey = max(highestKey ?? 0, key.rawValue)
            if let values = decodedRow(row, key: key, of: layout) {
                try checkEntries(of: values, key: key, in: layout)
                decodedRows += 1
            }
            entry = try advance(cursor, in: name) { try $0.next() }
        }
        report.objectCounts[name] = objects
        let counted = try txn.count(in: layout.rows)
        if counted != objects { report.note("\(name): the table holds \(counted) objects by its count, but \(objects) were read") }
        // Every object has one entry in each index (null values too); what a row that did not
        // decode should have had is unknown, so the counts are compared only when all did.
        for index in layout.secondaryIndexes where decodedRows == objects {
            let count = try entryCount(of: index.database)
            if count != objects {
                report.note("\(name).\(layout.storedClass.properties[index.column].name): the index holds \(count) entries for \(objects) objects")
            }
        }
        if let primaryKeys = layout.primaryKeys, decodedRows == objects {
            let count = try entryCount(of: primaryKeys)
            if count != objects { report.note("\(name): the primary-key index holds \(count) entries for \(objects) objects") }
        }
        for (column, database) in layout.lists {
            try checkCollection(column: column, database: database, of: layout)
        }
        if !layout.usesPrimaryKeyAsObjectKey, let highestKey {
            let next = try FileHeader.number(FileHeader.nextObjectKeyKey(classID: layout.classID), in: realm.coordinator.metadata.database,
                                             txn: txn, absent: 0)
            if next <= highestKey { report.note("\(name): the next object key is \(next), but object \(highestKey) exists") }
        }
    }

    /// The row's values, or `nil` (with the damage reported) when a column does not decode.
    private mutating func decodedRow(_ row: UnsafeRawBufferPointer, key: ObjectKey, of layout: TableLayout) -> [_PersistedValue]? {
        guard RowReader.isWellFormed(row) else {
            report.note("\(layout.className) object \(key.rawValue): the row of \(row.count) bytes is too short for its header")
            return nil
        }
        let reader = RowReader(row, key: key)
        var values: [_PersistedValue] = []
        for (column, kind) in layout.kinds.enumerated() {
            do {
                values.append(try reader.checkedValue(column, kind: kind))
            } catch {
                report.note("\(layout.className) object \(key.rawValue), property '\(layout.storedClass.properties[column].name)': \(error)")
                return nil
            }
        }
        return values
    }

    /// Whether a set or map entry's key is the one its content gives: the same key, or for a
    /// truncated one, that key followed by a number.
    private static func entryKey(_ key: [UInt8], belongsTo expected: [UInt8]) -> Bool {
        SetEntries.isTruncated(expected) ? key.count == expected.count + 8 && key.starts(with: expected) : key == expected
    }

    /// Checks what a row's values imply elsewhere: its index and primary-key entries, and the
    /// objects its links reach.
    private mutating func checkEntries(of values: [_PersistedValue], key: ObjectKey, in layout: TableLayout) throws {
        let subject = "\(layout.className) object \(key.rawValue)"
        for index in layout.secondaryIndexes {
            var entry: [UInt8] = []
            IndexKeyEncoder.append(values[index.column], to: &entry, hashingWith: layout.cipher)
            key.append(to: &entry)
            if try !exists(entry, in: index.database) {
                report.note("\(subject): the index of '\(layout.storedClass.properties[index.column].name)' has no entry for its value")
            }
        }
        if let primaryKeys = layout.primaryKeys, let column = layout.primaryKeyColumn {
            var entry: [UInt8] = []
            layout.primaryKeyEntry(values[column], key: key, into: &entry)
            let leadsHere = try entry.withUnsafeBytes { bytes in
                try txn.unsafeValue(for: bytes, in: primaryKeys).map { $0.count == 8 && ObjectKey(bytes: $0) == key } ?? false
            }
            if !leadsHere {
                report.note("\(subject): the primary-key index does not lead to it")
            }
        }
        for (column, value) in values.enumerated() where !value.isNull {
            let property = layout.storedClass.properties[column]
            for target in LinkTarget.all(in: value) {
                try checkLink(to: target, className: property.objectClassName, from: "\(subject), property '\(property.name)'")
            }
        }
    }

    /// Reports a link to an object that does not exist.
    private mutating func checkLink(to target: LinkTarget, className: String?, from subject: String) throws {
        let layout = target.classID.flatMap { layoutsByID[$0] } ?? className.flatMap { catalog.layouts[$0] }
        guard let layout else {
            return report.note("\(subject): links to an object of a class the file does not have")
        }
        if try layout.row(target.key, in: txn) == nil {
            report.note("\(subject): links to \(layout.className) object \(target.key.rawValue), which does not exist")
        }
    }

    // MARK: Collections

    private mutating func checkCollection(column: Int, database: Database, of layout: TableLayout) throws {
        let property = layout.storedClass.properties[column]
        let subject = "\(layout.className).\(property.name)"
        let cursor = try txn.openCursor(database)
        var entry = try advance(cursor, in: subject) { try $0.first() }
        while let (keyBytes, valueBytes) = entry {
            countRead()
            entry = try advance(cursor, in: subject) { try $0.next() }
            guard keyBytes.count > 8 else {
                report.note("\(subject): an entry has a key of \(keyBytes.count) bytes")
                continue
            }
            let owner = ObjectKey(bytes: keyBytes)
            guard try layout.row(owner, in: txn) != nil else {
                report.note("\(subject): an entry belongs to object \(owner.rawValue), which does not exist")
                continue
            }
            let key = Array(keyBytes)
            let value: _PersistedValue
            do {
                switch property.collection {
                case .map:
                    let decoded = try MapEntries.decode(valueBytes, kind: property.kind)
                    let expected = MapEntries.key(owner, decoded.key, hashingWith: layout.cipher)
                    if !Self.entryKey(key, belongsTo: expected) {
                        report.note("\(subject) of object \(owner.rawValue): the entry for key '\(decoded.key)' is stored under another key")
                    }
                    value = decoded.value
                case .set:
                    value = try ListEntries.decode(valueBytes, kind: property.kind)
                    let expected = SetEntries.key(owner, value, hashingWith: layout.cipher)
                    if !Self.entryKey(key, belongsTo: expected) {
                        report.note("\(subject) of object \(owner.rawValue): an element is stored under another value's key")
                    }
                default:
                    if key.count != 16 { report.note("\(subject) of object \(owner.rawValue): an element has a key of \(key.count) bytes") }
                    value = try ListEntries.decode(valueBytes, kind: property.kind)
                }
            } catch {
                report.note("\(subject) of object \(owner.rawValue): \(error)")
                continue
            }
            for target in LinkTarget.all(in: value) {
                try checkLink(to: target, className: property.objectClassName, from: "\(subject) of object \(owner.rawValue)")
            }
        }
    }

    // MARK: Backlinks

    /// Every backlink entry names a source object and a target object that exist.
    private mutating func checkBacklinks() throws {
        guard let links = catalog.links(visibleTo: txn) else { return }
        let cursor = try txn.openCursor(links)
        var entry = try advance(cursor, in: "the backlinks") { try $0.first() }
        while let (key, _) = entry {
            countRead()
            entry = try advance(cursor, in: "the backlinks") { try $0.next() }
            guard key.count == 28 || key.count == 36 else {
                report.note("the backlink index: an entry has a key of \(key.count) bytes")
                continue
            }
            // The key's layout: `TableWriter.backlink(from:column:in:to:...)`.
            let targetClass = UInt32(bigEndianBytes: key[0..<4]), sourceClass = UInt32(bigEndianBytes: key[12..<16])
            let target = ObjectKey(bytes: UnsafeRawBufferPointer(rebasing: key[4..<12])).rawValue
            let source = ObjectKey(bytes: UnsafeRawBufferPointer(rebasing: key[20..<28])).rawValue
            guard let targetLayout = layoutsByID[targetClass], let sourceLayout = layoutsByID[sourceClass] else {
                report.note("the backlink index: an entry names a class the file does not have")
                continue
            }
            if try targetLayout.row(ObjectKey(target), in: txn) == nil {
                report.note("the backlink index: \(targetLayout.className) object \(target), linked from \(sourceLayout.className) object \(source), does not exist")
            }
            if try sourceLayout.row(ObjectKey(source), in: txn) == nil {
                report.note("the backlink index: \(sourceLayout.className) object \(source), linking to \(targetLayout.className) object \(target), does not exist")
            } else {
                owners[targetClass, default: [:]][target, default: 0] += 1
            }
        }
    }

    /// Every embedded object has exactly one owner.
    private mutating func checkOwners(of layout: TableLayout) throws {
        let counts = owners[layout.classID] ?? [:]
        let cursor = try txn.openCursor(layout.rows)
        var entry = try advance(cursor, in: layout.className) { try $0.first() }
        while let (key, _) = entry {
            entry = try advance(cursor, in: layout.className) { try $0.next() }
            guard key.count == 8 else { continue }
            let owned = counts[ObjectKey(bytes: key).rawValue] ?? 0
            if owned != 1 {
                report.note("\(layout.className) object \(ObjectKey(bytes: key).rawValue): an embedded object with \(owned) owners instead of one")
            }
        }
    }

    /// The entry `move` takes `cursor` to, passing over the records that fail their
    /// authentication check or their checksum, each noted as a problem of `subject`.
    private mutating func advance(_ cursor: Cursor, in subject: String, _ move: (Cursor) throws -> Cursor.Entry?) throws -> Cursor.Entry? {
        do {
            return try move(cursor)
        } catch LMDBError.sealBroken {
            countRead()
            let key = cursor.keyOfBrokenSeal ?? []
            let named = key.count == 8 ? "object \(key.reduce(UInt64(0)) { $0 << 8 | UInt64($1) })" : "the record under key \(key.map { String(format: "%02x", $0) }.joined())"
            report.note("\(subject): \(named) \(TableLayout.brokenSealReason(encrypted: realm.coordinator.environment.isEncrypted))")
            return try advance(cursor, in: subject) { try $0.next() }
        }
    }

    // MARK: Change log

    private mutating func checkChangeLog() throws {
        let prefix = MetadataStore.changeRecordPrefix
        let metadata = realm.coordinator.metadata
        let cursor = try txn.openCursor(metadata.database)
        var entry = try cursor.seek(atLeast: prefix)
        while let (key, value) = entry, key.starts(with: prefix) {
            countRead()
            entry = try cursor.next()
            guard key.count == prefix.count + 8 else {
                report.note("the change log: a record has a key of \(key.count) bytes")
                continue
            }
            do {
                _ = try ChangeLogRecord.decode(try metadata.openedRecord(value, key: key, in: txn))
            } catch {
                let version = ObjectKey(bytes: UnsafeRawBufferPointer(rebasing: key[prefix.count...])).rawValue
                report.note("the change log: the record of version \(version): \(error)")
            }
        }
    }

    // MARK: Helpers

    /// Counts a record read, and tells ``progress`` every ``progressInterval`` records.
    @inline(__always)
    private mutating func countRead() {
        report.recordsRead += 1
        if let progress, report.recordsRead % Self.progressInterval == 0 { progress(report.recordsRead) }
    }

    private func exists(_ key: [UInt8], in database: Database) throws -> Bool {
        try key.withUnsafeBytes { try txn.unsafeValue(for: $0, in: database) } != nil
    }

    private mutating func entryCount(of database: Database) throws -> Int {
        var count = 0
        let cursor = try txn.openCursor(database)
        var entry = try cursor.first()
        while entry != nil {
            count += 1
            countRead()
            entry = try cursor.next()
        }
        return count
    }
}
