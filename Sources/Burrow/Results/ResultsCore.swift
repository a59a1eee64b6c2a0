import LMDB

/// The shared state of a ``Results`` value: what it selects, and the object keys it found in
/// the realm's current generation.
final class ResultsCore {
    let realm: RealmCore
    let info: ClassInfo
    let predicate: PredicateNode?

    private var cachedKeys: [ObjectKey] = []
    private var cachedGeneration: UInt64 = 0
    private var compiled: (layout: TableLayout, test: RowPredicate)?

    init(realm: RealmCore, info: ClassInfo, predicate: PredicateNode?) {
        self.realm = realm
        self.info = info
        self.predicate = predicate
    }

    /// The class resolved against the file, or `nil` while the file has no table for it.
    var bound: BoundClass? { realm.bound(info) }

    /// A core selecting the objects of this one that also match `node`.
    func filtered(by node: PredicateNode) -> ResultsCore {
        let combined = predicate.map { PredicateNode.and($0, node) } ?? node
        return ResultsCore(realm: realm, info: info, predicate: combined)
    }

    /// The predicate bound to `layout`; traps on a query that does not fit the schema.
    private func test(for layout: TableLayout) -> RowPredicate? {
        guard let predicate else { return nil }
        if let compiled, compiled.layout === layout { return compiled.test }
        do {
            let test = try PredicateCompiler(storedClass: layout.storedClass).compile(predicate)
            compiled = (layout, test)
            return test
        } catch {
            preconditionFailure(error.message)
        }
    }

    /// Checks the predicate against the class now, so that a bad query traps at `filter`.
    func validate() {
        let layout = bound?.layout
        let storedClass = layout?.storedClass ?? StoredClass(id: 0, info: info)
        guard let predicate else { return }
        do {
            _ = try PredicateCompiler(storedClass: storedClass).compile(predicate)
        } catch {
            preconditionFailure(error.message)
        }
    }

    /// The matching object keys in the realm's current generation, in key order.
    var keys: [ObjectKey] {
        realm.verifyThread()
        if cachedGeneration == realm.generation { return cachedKeys }
        cachedKeys = evaluate()
        cachedGeneration = realm.generation
        return cachedKeys
    }

    private func evaluate() -> [ObjectKey] {
        guard let layout = bound?.layout else { return [] }
        let txn = realm.transaction
        guard layout.isVisible(to: txn) else { return [] }
        let test = self.test(for: layout)
        do {
            var keys: [ObjectKey] = []
            if test == nil { keys.reserveCapacity(try layout.count(in: txn)) }
            let cursor = try txn.openCursor(layout.rows)
            var entry = try cursor.first()
            while let (key, row) = entry {
                if test?(RowReader(row)) ?? true { keys.append(ObjectKey(bytes: key)) }
                entry = try cursor.next()
            }
            return keys
        } catch {
            preconditionFailure("Cannot read '\(realm.coordinator.path)': \(error)")
        }
    }

    /// How many objects match: O(1) for a whole class.
    var count: Int {
        realm.verifyThread()
        guard predicate == nil else { return keys.count }
        guard let layout = bound?.layout else { return 0 }
        do {
            return try layout.count(in: realm.transaction)
        } catch {
            preconditionFailure("Cannot read '\(realm.coordinator.path)': \(error)")
        }
    }

    /// The first (or last) matching object's key without evaluating the whole results when
    /// there is no predicate.
    func edgeKey(last: Bool) -> ObjectKey? {
        realm.verifyThread()
        guard predicate == nil else { return last ? keys.last : keys.first }
        guard let layout = bound?.layout, layout.isVisible(to: realm.transaction) else { return nil }
        do {
            let cursor = try realm.transaction.openCursor(layout.rows)
            return try (last ? cursor.last() : cursor.first()).map { ObjectKey(bytes: $0.key) }
        } catch {
            preconditionFailure("Cannot read '\(realm.coordinator.path)': \(error)")
        }
    }

    /// A managed accessor for `key`.
    func object(for key: ObjectKey) -> ObjectBase {
        guard let bound else { preconditionFailure("Object has been deleted or invalidated.") }
        return realm.makeObject(bound, key: key)
    }

    /// Deletes every matching object inside `write`.
    func deleteAll(in write: WriteState) {
        guard let layout = bound?.layout else { return }
        if predicate == nil {
            realm.perform(in: write) { try layout.removeAll(in: write.transaction) }
        } else {
            for key in keys {
                realm.perform(in: write) { try layout.delete(key, in: write) }
            }
        }
        realm.advanceGeneration()
    }
}
