import Foundation
import LMDB

/// Ending a migration: what removed properties leave behind goes, indexes are rebuilt, unused
/// databases are deleted, and the new schema is recorded with the write that commits it all.
extension MigrationRun {
    /// Completes the migration and commits it with the schema version `version`.
    ///
    /// - Throws: ``Realm/Error``: `schemaMismatch` when two objects share a primary-key value,
    ///   and the errors of writing.
    func finish(schemaVersion version: UInt64) throws {
        try discardRemovedProperties()
        try embedConvertedClasses()
        oldSnapshot.abort()
        for layout in rebuilt.values where session.layouts[layout.className] != nil {
            do {
                try layout.rebuildIndexes(in: tables.storage)
            } catch let duplicate as DuplicatePrimaryKey {
                throw Realm.Error(.schemaMismatch,
                                  "Primary key property '\(duplicate.className).\(duplicate.property)' has duplicate values after migration: \(duplicate.value.displayText).",
                                  fileURL: URL(fileURLWithPath: path))
            }
        }
        try dropUnusedDatabases()
        try metadata.write(session.schema, schemaGeneration: try metadata.schemaGeneration(in: write) + 1, in: write)
        try metadata.writeLayoutEpoch(try metadata.layoutEpoch(in: write) + 1, in: write)
        try metadata.writeSchemaVersion(version, in: write)
        for (id, next) in nextKeys { try metadata.writeNextObjectKey(next, classID: id, in: write) }
        for storedClass in deletedClasses { try metadata.removeNextObjectKey(classID: storedClass.id, in: write) }
        try write.commit()
        tables.catalogs.finish(tables.storage.catalogChanges, committed: true)
    }

    /// Gives each object of a class made embedded its one owner: objects nothing links to are
    /// deleted, as RealmSwift deletes them; an object linked from several places, or from an
    /// `AnyRealmValue`, fails the migration (the block can give each owner its own object).
    private func embedConvertedClasses() throws {
        for new in session.schema.classes where new.isEmbedded == true {
            guard let old = oldCatalog.schema.classes.first(where: { $0.id == new.id }), old.isEmbedded != true,
                  let layout = session.layouts[new.name] else { continue }
            for key in try keys(of: layout, in: write) {
                let owners = try tables.incomingLinks(to: key, of: layout)
                let count = owners.reduce(0) { $0 + $1.count }
                if count == 0 {
                    try tables.delete(key, in: layout)
                    continue
                }
                let heldByMixed = owners.contains { owner in
                    session.schema.classes.first { $0.id == owner.classID }?.properties.first { $0.id == owner.propertyID }?.kind == .mixed
                }
                guard count > 1 || heldByMixed else { continue }
                throw Realm.Error(.schemaMismatch,
                                  "Cannot make '\(new.name)' embedded: object \(key.rawValue) is " + (heldByMixed ? "held by an AnyRealmValue" : "linked from \(count) places")
                                  + ", and an embedded object has exactly one owner. Give each owner its own object in the migration block.",
                                  fileURL: URL(fileURLWithPath: path))
            }
        }
    }

    /// The properties the old schema had and the new one does not, by class.
    private var removedProperties: [(storedClass: StoredClass, property: StoredProperty)] {
        oldCatalog.schema.classes.flatMap { old -> [(StoredClass, StoredProperty)] in
            guard let new = session.schema.classes.first(where: { $0.id == old.id }) else { return [] }
            let kept = Set(new.properties.map(\.id))
            return old.properties.filter { !kept.contains($0.id) }.map { (old, $0) }
        }
    }

    /// Deletes the embedded objects that only removed properties held, and the backlink entries
    /// of removed properties.
    private func discardRemovedProperties() throws {
        let removed = removedProperties.filter { $0.property.kind == .link || $0.property.kind == .mixed }
        guard !removed.isEmpty else { return }
        for (storedClass, property) in removed {
            guard let targetName = property.objectClassName, let target = session.layouts[targetName], target.isEmbedded,
                  let oldLayout = oldCatalog.layouts[storedClass.name] else { continue }
            for key in try embeddedTargets(of: property, in: storedClass, layout: oldLayout) {
                try tables.delete(key, in: target)
            }
        }
        try removeBacklinks(from: Set(removed.map { SourceProperty(classID: $0.storedClass.id, propertyID: $0.property.id) }))
    }

    /// The objects the old property `property` of `storedClass` links to.
    private func embeddedTargets(of property: StoredProperty, in storedClass: StoredClass, layout: TableLayout) throws -> [ObjectKey] {
        let column = storedClass.properties.firstIndex { $0.id == property.id }!
        var targets: [ObjectKey] = []
        if let database = layout.collectionDatabase(of: column) {
            let cursor = try oldSnapshot.openCursor(database)
            var entry = try cursor.first()
            while let (_, value) = entry {
                if case .link(let key) = try ListEntries.decode(value, kind: .link) { targets.append(ObjectKey(key)) }
                entry = try cursor.next()
            }
        } else {
            try forEachRow(of: layout, in: oldSnapshot) { _, reader in
                if case .link(let key) = try reader.checkedValue(column, kind: .link) { targets.append(ObjectKey(key)) }
            }
        }
        return targets
    }

    private struct SourceProperty: Hashable {
        let classID: UInt32
        let propertyID: UInt32
    }

    /// Removes every backlink entry whose link is held by one of `sources`.
    private func removeBacklinks(from sources: Set<SourceProperty>) throws {
        guard let links = try tables.catalogs.links(in: write, changes: tables.storage.catalogChanges, create: false) else { return }
        var doomed: [[UInt8]] = []
        let cursor = try write.openCursor(links)
        var entry = try cursor.first()
        while let (key, _) = entry {
            guard key.count >= 28 else { throw StorageError.damaged("a backlink entry is \(key.count) bytes long") }
            let source = SourceProperty(classID: UInt32(bigEndianBytes: key[12..<16]), propertyID: UInt32(bigEndianBytes: key[16..<20]))
            if sources.contains(source) { doomed.append(Array(key)) }
            entry = try cursor.next()
        }
        for key in doomed { _ = try write.delete(key, in: links) }
    }

    /// Deletes the databases of removed properties, indexes and classes.
    private func dropUnusedDatabases() throws {
        var used: Set<String> = []
        for (name, layout) in session.layouts { used.formUnion((rebuilt[name] ?? layout).namedDatabases.keys) }
        var candidates = openedDatabases
        for storedClass in oldCatalog.schema.classes where rebuilt[storedClass.name] != nil || session.layouts[storedClass.name] == nil {
            if let layout = oldCatalog.layouts[storedClass.name] {
                candidates.merge(layout.namedDatabases) { first, _ in first }
            }
        }
        for (name, database) in candidates where !used.contains(name) {
            try write.drop(database, delete: true)
        }
    }
}
