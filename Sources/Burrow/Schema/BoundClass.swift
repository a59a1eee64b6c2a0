import LMDB

/// A model class resolved against a file: its layout and where each field's column is.
///
/// A class, so that the managed objects holding one retain one reference, not three.
final class BoundClass {
    let info: ClassInfo
    let layout: TableLayout
    /// The row column of each field of `info`, by field index.
    let fieldColumns: [Int]
    /// The class's type, the field holding its primary key, and that field's kind, copied out of
    /// `info`: primary-key lookups read them from the realm's own bound class, so threads reading
    /// at once do not all count references to the process-wide `ClassInfo`.
    let type: ObjectBase.Type
    let primaryKey: (field: Int, kind: _StorageKind, isOptional: Bool)?

    init(info: ClassInfo, layout: TableLayout, fieldColumns: [Int]) {
        self.info = info
        self.layout = layout
        self.fieldColumns = fieldColumns
        type = info.type
        primaryKey = info.primaryKeyField.map { (field: $0, kind: info.fields[$0].kind, isOptional: info.fields[$0].isOptional) }
    }

    /// The object whose primary key is `value`, with its row, if it exists.
    @inline(__always)
    func find(primaryKey value: _PersistedValue, in txn: Transaction) throws -> (key: ObjectKey, row: UnsafeRawBufferPointer)? {
        try layout.find(primaryKey: value, in: txn)
    }
}
