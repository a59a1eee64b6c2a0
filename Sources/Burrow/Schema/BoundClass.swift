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
    /// For each field kept inside the object (not in a box), where its wrapper's column word
    /// sits in an instance and the column it reads: an object made for a row stores these
    /// words and nothing else for such fields (see ``ClassInfo/manage(_:column:in:)``).
    let inlineColumnWords: ContiguousArray<(offset: Int, column: Int)>
    /// The fields held in a box (``RealmProperty``), which become managed one by one.
    let boxedFields: [Int]

    init(info: ClassInfo, layout: TableLayout, fieldColumns: [Int]) {
        self.info = info
        self.layout = layout
        self.fieldColumns = fieldColumns
        type = info.type
        primaryKey = info.primaryKeyField.map { (field: $0, kind: info.fields[$0].kind, isOptional: info.fields[$0].isOptional) }
        inlineColumnWords = ContiguousArray(info.fields.indices.filter { info.fields[$0].boxOffset == 0 }.map {
            (offset: info.fields[$0].offset, column: fieldColumns[$0])
        })
        boxedFields = info.fields.indices.filter { info.fields[$0].boxOffset != 0 }
    }

    /// The object whose primary key is `value`, with its row, if it exists.
    @inline(__always)
    func find(primaryKey value: _PersistedValue, in txn: Transaction) throws -> (key: ObjectKey, row: UnsafeRawBufferPointer)? {
        try layout.find(primaryKey: value, in: txn)
    }
}
