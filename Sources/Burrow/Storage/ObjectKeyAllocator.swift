import LMDB

/// Hands out the object keys of classes whose objects are not keyed by an integer primary key:
/// per class, a key past both the file's stored counter and every key this process handed out,
/// so that a cancelled write never lets a key be used again for another object while stale
/// accessors might still hold it. One per file in a process.
///
/// A write's keys are claimed in its ``StorageWrite``; ``persist(_:)`` stores the counters it
/// moved before the commit, and ``settle(_:)`` raises this process's marks after it, whether or
/// not it committed.
final class ObjectKeyAllocator: Sendable {
    private let metadata: MetadataStore
    /// The next key per class id that this process may hand out, at the least.
    private let highWater = Locked<[UInt32: UInt64]>([:])

    init(metadata: MetadataStore) {
        self.metadata = metadata
    }

    /// A fresh key for `layout`'s class, never handed out before.
    ///
    /// - Throws: `LMDBError` reading the class's stored counter.
    func next(for layout: TableLayout, in write: StorageWrite) throws -> ObjectKey {
        let id = layout.classID
        let next: UInt64
        if let pending = write.nextKeys[id] {
            next = pending
        } else {
            let stored = try metadata.nextObjectKey(classID: id, in: write.transaction)
            next = max(stored, highWater.withLock { $0[id] ?? 1 })
        }
        write.nextKeys[id] = next + 1
        return ObjectKey(next)
    }

    /// Stores the counters `write` moved, in its transaction.
    func persist(_ write: StorageWrite) throws {
        for (id, next) in write.nextKeys {
            try metadata.writeNextObjectKey(next, classID: id, in: write.transaction)
        }
    }

    /// Raises this process's marks past the keys `write` handed out, once it has ended.
    func settle(_ write: StorageWrite) {
        guard !write.nextKeys.isEmpty else { return }
        highWater.withLock { highWater in
            for (id, next) in write.nextKeys { highWater[id] = max(highWater[id] ?? 1, next) }
        }
    }
}
