import CLibPQ

/// The rows a statement returned, read as text (PostgreSQL's text output format).
///
/// ```swift
/// let result = try connection.execute("SELECT id, title FROM \"Task\"")
/// for row in 0..<result.rowCount { print(result[row, 0] ?? "NULL", result[row, 1] ?? "NULL") }
/// ```
public final class PostgresResult {
    private let handle: OpaquePointer

    init(handle: OpaquePointer) {
        self.handle = handle
    }

    deinit { PQclear(handle) }

    /// How many rows the statement returned.
    public var rowCount: Int { Int(PQntuples(handle)) }
    /// How many columns each row has.
    public var columnCount: Int { Int(PQnfields(handle)) }
    /// How many rows an `INSERT`, `UPDATE` or `DELETE` touched; `0` for other statements.
    public var affectedRowCount: Int { Int(String(cString: PQcmdTuples(handle))) ?? 0 }

    /// The name of column `column`.
    public func columnName(_ column: Int) -> String {
        String(cString: PQfname(handle, Int32(column)))
    }

    /// The text of the value at `row`, `column`; `nil` for SQL `NULL`. Traps when either is out
    /// of range, as an array does.
    public subscript(row: Int, column: Int) -> String? {
        precondition(row >= 0 && row < rowCount && column >= 0 && column < columnCount,
                     "row \(row), column \(column) is outside a result of \(rowCount) rows and \(columnCount) columns")
        if PQgetisnull(handle, Int32(row), Int32(column)) != 0 { return nil }
        return String(cString: PQgetvalue(handle, Int32(row), Int32(column)))
    }

    /// The values of column `column`, row by row.
    public func column(_ column: Int) -> [String?] {
        (0..<rowCount).map { self[$0, column] }
    }
}
