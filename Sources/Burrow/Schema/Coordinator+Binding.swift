import Foundation

/// Model classes resolved against the file's catalog: a class bound to its table, where each
/// field lives in its rows, and the check of model classes against the stored schema.
extension Coordinator {
    /// `info` resolved for reading in `catalog`, or `nil` when the file has no table for it (yet).
    func bound(_ info: ClassInfo, in catalog: Catalog) -> BoundClass? {
        guard let layout = catalog.layouts[info.className] else { return nil }
        // A class read by name has no fields to place.
        return BoundClass(info: info, layout: layout, fieldColumns: info.isDynamic ? [] : columns(of: info, in: layout))
    }

    /// Where each field of `info` lives in `layout`'s rows; traps when the stored class differs.
    func columns(of info: ClassInfo, in layout: TableLayout) -> [Int] {
        switch info.columns(in: layout.storedClass) {
        case .success(let columns): return columns
        case .failure(let differences): burrowPreconditionFailure(differences.message(path: path))
        }
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
            throw Realm.Error(.schemaMismatch, SchemaDifferences(lines: differences).message(path: path), fileURL: URL(fileURLWithPath: path))
        }
    }
}
