import Foundation
import LMDB

/// Gathers a ``Realm/FileReport`` from one read snapshot of a realm: page counts of each
/// class's databases from LMDB's statistics, the free list, and the reader table.
struct FileReporter {
    let realm: RealmCore

    func report() throws -> Realm.FileReport {
        let txn = realm.transaction
        let environment = realm.coordinator.environment
        let pageSize = environment.pageSize
        let catalog = realm.catalog
        var classes: [Realm.FileReport.ClassSpace] = []
        var classPages = 0
        for layout in catalog.layouts.values.sorted(by: { $0.className < $1.className }) {
            let rows = try txn.statistics(of: layout.rows)
            let indexPages = try layout.secondaryIndexes.reduce(0) { try $0 + txn.statistics(of: $1.database).pages }
                + (try layout.primaryKeys.map { try txn.statistics(of: $0).pages } ?? 0)
            let collectionPages = try layout.lists.reduce(0) { try $0 + txn.statistics(of: $1.database).pages }
            classPages += rows.pages + indexPages + collectionPages
            classes.append(.init(className: layout.className, isEmbedded: layout.isEmbedded, objectCount: rows.entries,
                                 rowBytes: rows.pages * pageSize, indexBytes: indexPages * pageSize, collectionBytes: collectionPages * pageSize))
        }
        let lastPage = environment.usedBytes / pageSize
        let freePages = try txn.freePageCount()
        let fileBytes = (try? FileManager.default.attributesOfItem(atPath: environment.path)[.size] as? Int) ?? environment.usedBytes
        let usedPages = max(0, lastPage - freePages)
        // LMDB's two meta pages, its free list's own pages and the main database's are part
        // of the rest, with Burrow's metadata, change log and backlinks.
        let metadataPages = max(0, usedPages - classPages)
        let latest = environment.lastTransactionID
        let ownSnapshot = txn.id
        let ownProcess = getpid()
        let readers = environment.readerTable()
            .filter { !($0.processID == ownProcess && $0.transactionID == ownSnapshot) }
            .map { reader in
                Realm.FileReport.Reader(processID: reader.processID, isProcessAlive: Self.isAlive(reader.processID),
                                        version: reader.transactionID, versionsBehind: max(0, latest - reader.transactionID))
            }
        let header = try realm.coordinator.schemaVersion(in: txn)
        return Realm.FileReport(formatVersion: try realm.coordinator.metadata.formatVersion(in: txn), schemaVersion: header, fileBytes: fileBytes, pageSize: pageSize,
                                usedBytes: usedPages * pageSize, freeBytes: max(0, fileBytes - usedPages * pageSize), latestVersion: latest,
                                classes: classes, metadataBytes: metadataPages * pageSize, readerSlots: environment.readerSlotCount,
                                readers: readers)
    }

    /// Whether process `id` exists (one of another user's counts: `kill` then fails with EPERM).
    private static func isAlive(_ id: Int32) -> Bool {
        kill(id, 0) == 0 || errno == EPERM
    }
}
