/// A model class resolved against a file: its layout and where each field's column is.
///
/// A class, so that the managed objects holding one retain one reference, not three.
final class BoundClass {
    let info: ClassInfo
    let layout: TableLayout
    /// The row column of each field of `info`, by field index.
    let fieldColumns: [Int]

    init(info: ClassInfo, layout: TableLayout, fieldColumns: [Int]) {
        self.info = info
        self.layout = layout
        self.fieldColumns = fieldColumns
    }
}
