import Burrow
import Foundation

/// Prints objects in one of the tool's formats: an aligned table, a JSON array, JSON lines or
/// CSV (RFC 4180, a header row first, `nil` as an empty field). Every format but the table
/// streams: an object is written once it is read.
struct ObjectPrinter {
    enum Format: String, CaseIterable {
        case table, json, jsonl, csv
    }

    let format: Format
    let properties: [Property]
    private(set) var output: ToolOutput
    private var tableRows: [[ToolValue]] = []
    private var printed = 0
    /// The row columns of `properties`, from the first object's class.
    private var columns: [Int?]?

    init(format: Format, properties: [Property], output: ToolOutput = ToolOutput()) {
        self.format = format
        self.properties = properties
        self.output = output
    }

    /// Writes what comes before the first object.
    mutating func begin() {
        switch format {
        case .json: output.write("[")
        case .csv:
            let names = properties.map(\.name)
            output.write { bytes in
                for (index, name) in names.enumerated() {
                    if index > 0 { bytes.append(UInt8(ascii: ",")) }
                    ToolValue.appendCSVText(name, to: &bytes)
                }
                bytes.append(contentsOf: "\r\n".utf8)
            }
        case .table, .jsonl: break
        }
    }

    mutating func print(_ object: DynamicObject) {
        let columns = self.columns ?? ObjectRendering.columns(of: properties, in: object.objectSchema)
        self.columns = columns
        switch format {
        case .json, .jsonl:
            let value = ObjectRendering.render(object, properties: properties, columns: columns)
            let (before, after) = format == .json ? (printed == 0 ? "\n" : ",\n", "") : ("", "\n")
            output.write { bytes in
                bytes.append(contentsOf: before.utf8)
                value.appendJSON(to: &bytes)
                bytes.append(contentsOf: after.utf8)
            }
        case .csv:
            let properties = self.properties
            output.write { bytes in
                ObjectRendering.appendCSVRecord(of: object, properties: properties, columns: columns, to: &bytes)
                bytes.append(contentsOf: "\r\n".utf8)
            }
        case .table:
            tableRows.append(ObjectRendering.values(of: object, properties: properties, columns: columns))
        }
        printed += 1
    }

    /// Writes what comes after the last object.
    mutating func end() {
        switch format {
        case .json: output.write(printed == 0 ? "]\n" : "\n]\n")
        case .table: output.write(TableText(header: properties.map(\.name), rows: tableRows).text + "(\(printed) \(printed == 1 ? "object" : "objects"))\n")
        case .csv, .jsonl: break
        }
    }
}

/// Rows as an aligned table: a header, a rule, and cells padded to their column's width
/// (numbers to the right), each cell cut at ``maximumWidth`` characters.
struct TableText {
    static let maximumWidth = 48

    let header: [String]
    let rows: [[ToolValue]]

    var text: String {
        let cells = rows.map { $0.map { Self.cut($0.plainText) } }
        var widths = header.map(\.count)
        for row in cells {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        var lines = [TerminalStyle.bold(zip(header, widths).map { Self.pad($0, to: $1, right: false) }.joined(separator: "  "),
                                        on: TerminalStyle.standardOutput)]
        lines.append(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
        for (row, values) in zip(cells, rows) {
            lines.append(row.enumerated().map { column, cell in
                Self.pad(cell, to: widths[column], right: values[column].isNumber)
            }.joined(separator: "  "))
        }
        return lines.map { String($0.reversed().drop(while: { $0 == " " }).reversed()) }.joined(separator: "\n") + "\n"
    }

    private static func cut(_ text: String) -> String {
        let oneLine = text.replacingOccurrences(of: "\n", with: "⏎")
        return oneLine.count > maximumWidth ? String(oneLine.prefix(maximumWidth - 1)) + "…" : oneLine
    }

    private static func pad(_ text: String, to width: Int, right: Bool) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return right ? padding + text : text + padding
    }
}

private extension ToolValue {
    var isNumber: Bool {
        switch self {
        case .integer, .number: true
        default: false
        }
    }
}

