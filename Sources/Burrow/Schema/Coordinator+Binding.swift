import Foundation

/// Model classes resolved against the file's catalog, shared by every realm of the file: where
/// each field of a model class lives in its table's rows, the classes read by name, and the
/// check of model classes against the stored schema.
extension Coordinator {
    /// The class `storedClass` read by name: one per stored form, so that its bound classes and
    /// accessors are shared by every realm of the file.
    func dynamicInfo(for storedClass: StoredClass) -> ClassInfo {
        dynamicInfos.withLock { infos in
            if let known = infos[storedClass.name], known.dynamicStoredClass == storedClass { return known }
            let info = ClassInfo(dynamic: storedClass)
            infos[storedClass.name] = info
            return info
        }
    }

    /// `info` resolved for reading in `catalog`, or `nil` when the file has no table for it (yet).
    func bound(_ info: ClassInfo, in catalog: Catalog) -> BoundClass? {
        guard let layout = catalog.layouts[info.className] else { return nil }
        // A class read by name has no fields to place.
        return BoundClass(info: info, layout: layout, fieldColumns: info.isDynamic ? [] : columns(of: info, in: layout))
    }

    /// `info` resolved for writing in `write`, creating its table when the file has none.
    func boundForWriting(_ info: ClassInfo, in write: WriteState) throws -> BoundClass {
        if let last = write.lastBound, last.info === info { return last }
        burrowPrecondition(!info.isDynamic, "A class read by name is written through its stored layout.")
        if let known = write.boundClasses[ObjectIdentifier(info.type)] {
            write.lastBound = known
            return known
        }
        let layout = try catalogs.table(named: info.className, creatingWith: { StoredClass(id: $0, info: info) },
                                        in: write.transaction, changes: write.catalogChanges)
        let bound = BoundClass(info: info, layout: layout, fieldColumns: columns(of: info, in: layout))
        write.boundClasses[ObjectIdentifier(info.type)] = bound
        write.lastBound = bound
        return bound
    }

    /// Where each field of `info` lives in `layout`'s rows; traps when the stored class differs.
    func columns(of info: ClassInfo, in layout: TableLayout) -> [Int] {
        let key = ColumnMapKey(classID: layout.classID, type: ObjectIdentifier(info.type))
        if let known = columnMaps.withLock({ $0[key] }) { return known }
        let differences = layout.storedClass.differences(from: info)
        burrowPrecondition(differences.isEmpty, Self.mismatchMessage(differences, path: path))
        let stored = layout.storedClass.properties
        let map = info.fields.indices.map { index in
            info.fields[index].isComputed ? LinkingObjectsColumn.column(ofField: index)
                                          : stored.firstIndex { $0.name == info.fields[index].name }!
        }
        columnMaps.withLock { $0[key] = map }
        return map
    }

    /// Checks model classes against the stored schema.
    ///
    /// - Throws: ``Realm/Error/Code/schemaMismatch`` listing every difference.
    func verify(_ infos: [ClassInfo]) throws {
        let catalog = self.catalog
        let differences = infos.flatMap { info in
            catalog.schema.storedClass(named: info.className)?.differences(from: info) ?? []
        }
        guard differences.isEmpty else {
            throw Realm.Error(.schemaMismatch, Self.mismatchMessage(differences, path: path), fileURL: URL(fileURLWithPath: path))
        }
    }

    static func mismatchMessage(_ differences: [String], path: String) -> String {
        "Migration is required for '\(path)' due to the following errors:\n- " + differences.joined(separator: "\n- ")
    }
}
