import LMDB

/// Adds objects of one class from their stored values, a row at a time, in the write under
/// way: the bulk path of tools that write objects by the million (`burrow import`), where
/// ``Realm/dynamicCreate(_:value:update:)``'s dictionaries and `Any` values would cost more
/// than the write itself. Scalar columns only: links, mixed values and collections go through
/// the dynamic API.
///
/// ```swift
/// try realm.write {
///     let rows = realm.dynamicRowWriter(for: "Row")
///     if try rows.insert([.int(1), .string("Ann")]) == .exists { ... }
/// }
/// ```
package struct DynamicRowWriter {
    /// What ``insert(_:)`` did.
    package enum Outcome: Equatable {
        /// The object was added.
        case inserted
        /// An object with its primary key was there already; nothing was written.
        case exists
    }

    private let core: RealmCore
    private let write: WriteState
    private let layout: TableLayout

    /// The class's stored properties in column order: the order ``insert(_:)`` takes values in.
    package var columnNames: [String] { layout.storedClass.properties.map(\.name) }

    init(core: RealmCore, write: WriteState, layout: TableLayout) {
        self.core = core
        self.write = write
        self.layout = layout
    }

    /// Adds an object whose row is `values`, one per column, in the order of ``columnNames``;
    /// returns ``Outcome/exists``, writing nothing, when an object has its primary key already.
    ///
    /// - Throws: ``Realm/Error`` for a failure of the file (a full disk, a map that cannot
    ///   grow); the write can then only be cancelled. Traps outside the write the writer was
    ///   made in, and for values that do not fit their columns: a value of another kind, `nil`
    ///   for a required property, anything but `nil` for a link, mixed or collection column.
    package func insert(_ values: [_PersistedValue]) throws -> Outcome {
        core.verifyThread()
        burrowPrecondition(core.writeState === write, "A row writer is used only inside the write it was made in.")
        burrowPrecondition(values.count == layout.kinds.count,
                           "\(values.count) values for the \(layout.kinds.count) columns of '\(layout.className)'.")
        let properties = layout.storedClass.properties
        for (column, value) in values.enumerated() {
            let property = properties[column]
            if value.isNull {
                burrowPrecondition(property.isOptional || property.collection != nil || property.kind == .link || property.kind == .mixed,
                                   "Missing value for property '\(layout.className).\(property.name)'.")
                continue
            }
            burrowPrecondition(property.collection == nil && value.kind == property.kind && property.kind != .link && property.kind != .mixed,
                               "Invalid value '\(value)' for property '\(layout.className).\(property.name)'.")
        }
        // A failure of the file is kept for the commit, as every write keeps it, and thrown here.
        var outcome = Outcome.inserted
        let written = core.perform(in: write) {
            let claim = try core.claimKey(values, in: layout, write: write)
            if claim.exists == true {
                outcome = .exists
                return
            }
            do {
                try write.tables.insert(values, key: claim.key, in: layout)
            } catch LMDBError.keyExists where claim.exists == nil {
                // An integer primary key is the row's key: a taken one shows when it is put.
                outcome = .exists
            }
        }
        guard written else { throw write.failure! }
        return outcome
    }
}

extension Realm {
    /// A writer of whole rows of class `className` in the write under way (see
    /// ``DynamicRowWriter``).
    ///
    /// Traps outside a write transaction, for a class the file does not have, and for an
    /// embedded class.
    package func dynamicRowWriter(for className: String) -> DynamicRowWriter {
        let write = core.verifyWrite(doing: "create an object in")
        let bound = core.verifiedDynamicBound(named: className)
        burrowPrecondition(!bound.layout.isEmbedded, "Embedded objects cannot be created directly: create them through their owner's property.")
        return DynamicRowWriter(core: core, write: write, layout: bound.layout)
    }
}
