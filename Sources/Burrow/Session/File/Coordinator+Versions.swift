import Foundation
import LMDB

extension Coordinator {
    /// The versions the file keeps now, from the oldest a reader holds to the newest, and the
    /// readers holding the oldest.
    func keptVersions() -> (count: Int, oldest: Int, holders: [Environment.Reader]) {
        let latest = environment.lastTransactionID
        let readers = environment.activeReaders()
        guard let oldest = readers.map(\.transactionID).min(), oldest <= latest else { return (1, latest, []) }
        return (latest - oldest + 1, oldest, readers.filter { $0.transactionID == oldest })
    }

    /// Throws `limitExceeded` when the file would keep more than `limit` versions once `adding`
    /// new ones are committed.
    func verifyVersionLimit(_ limit: UInt?, adding: Int, doing operation: FileOperation) throws(Realm.Error) {
        guard let limit else { return }
        let kept = keptVersions()
        let count = kept.holders.isEmpty ? 1 : kept.count + adding
        guard count > Int(limit) else { return }
        throw Realm.Error(.limitExceeded,
                          "Cannot \(operation.action) '\(path)': the file would keep \(count) versions, more than "
                          + "maximumNumberOfActiveVersions (\(limit)). The oldest, version \(kept.oldest), is held by "
                          + describe(kept.holders, at: kept.oldest) + ": refresh, invalidate or release it.",
                          fileURL: URL(fileURLWithPath: path))
    }

    /// Who holds version `id`, in words: frozen values and realms of this process, other processes.
    private func describe(_ holders: [Environment.Reader], at id: Int) -> String {
        let own = getpid()
        var parts: [String] = []
        if hasFrozenRealm(at: id) { parts.append("frozen values in this process") }
        let threads = holders.filter { $0.processID == own }.map { String($0.thread, radix: 16) }
        if !threads.isEmpty, parts.isEmpty || threads.count > 1 {
            let unresolved = referenceSnapshots.load(ordering: .relaxed) > 0 ? " or a thread-safe reference not yet resolved" : ""
            parts.append("a realm not refreshed\(unresolved) on thread\(threads.count == 1 ? "" : "s") \(threads.joined(separator: ", ")) of this process")
        }
        let others = Set(holders.map(\.processID)).subtracting([own]).sorted()
        if !others.isEmpty { parts.append("process\(others.count == 1 ? "" : "es") \(others.map(String.init).joined(separator: ", "))") }
        return parts.joined(separator: " and ")
    }
}
