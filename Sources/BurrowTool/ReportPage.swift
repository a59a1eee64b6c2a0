import Burrow
import Foundation

/// The HTML of `burrow report`: every text from the file escaped, styles inline, drawings in
/// SVG, and a content security policy that forbids fetching anything.
struct ReportPage {
    let path: String
    let realm: Realm
    let report: Realm.FileReport
    let rowsPerClass: Int

    var html: String {
        let classes = realm.fileSchema.objectSchema.sorted { $0.className < $1.className }
        var body = "<h1>\(Self.escape(URL(fileURLWithPath: path).lastPathComponent))</h1>\n"
        body += "<p class=\"path\">\(Self.escape(path))</p>\n"
        body += summary()
        body += "<h2>Schema</h2>\n" + SchemaDiagram(classes: classes).svg
        body += "<h2>Space by class</h2>\n" + spaceChart()
        body += "<h2>Readers</h2>\n" + readers()
        body += "<h2>First objects</h2>\n" + firstObjects(classes.filter { !$0.isEmbedded })
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
            <title>\(Self.escape(URL(fileURLWithPath: path).lastPathComponent)): Burrow report</title>
            <style>
            body { font: 14px/1.45 system-ui, sans-serif; margin: 2em; color: #1d2330; max-width: 1200px; }
            h1 { margin-bottom: 0; } .path { color: #667; margin-top: .2em; }
            h2 { border-bottom: 1px solid #dde; padding-bottom: .2em; margin-top: 2em; }
            table { border-collapse: collapse; margin: .5em 0 1.5em; font-size: 13px; }
            th, td { border: 1px solid #dde; padding: .25em .6em; text-align: left; vertical-align: top; max-width: 28em; overflow-wrap: anywhere; }
            th { background: #f3f4f8; } td.number { text-align: right; font-variant-numeric: tabular-nums; }
            .warning { background: #fff4e0; border-left: 4px solid #e8a33d; padding: .5em 1em; }
            svg text { font: 12px system-ui, sans-serif; } svg .title { font-weight: bold; }
            </style>
            </head>
            <body>
            \(body)
            <p class="path">Written by burrow \(BurrowTool.version) report.</p>
            </body>
            </html>

            """
    }

    private func summary() -> String {
        let objects = report.classes.reduce(0) { $0 + $1.objectCount }
        return """
            <table>
            <tr><th>Format</th><td>\(report.formatVersion)</td><th>Schema version</th><td>\(report.schemaVersion)</td></tr>
            <tr><th>File size</th><td>\(InfoCommand.bytes(report.fileBytes))</td><th>Used / free</th><td>\(InfoCommand.bytes(report.usedBytes)) / \(InfoCommand.bytes(report.freeBytes))</td></tr>
            <tr><th>Classes</th><td>\(report.classes.count)</td><th>Objects</th><td>\(objects)</td></tr>
            <tr><th>Latest version</th><td>\(report.latestVersion)</td><th>Metadata, change log, backlinks</th><td>\(InfoCommand.bytes(report.metadataBytes))</td></tr>
            </table>

            """
    }

    /// A bar per class: rows, indexes and collections, to one scale.
    private func spaceChart() -> String {
        let largest = max(1, report.classes.map(\.totalBytes).max() ?? 1)
        let rowHeight = 26, labelWidth = 220, barWidth = 640
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(labelWidth + barWidth + 160)\" height=\"\(report.classes.count * rowHeight + 40)\" role=\"img\" aria-label=\"Space by class\">\n"
        let colours = [("rows", "#4c78a8"), ("indexes", "#f58518"), ("collections", "#54a24b")]
        for (index, space) in report.classes.enumerated() {
            let y = index * rowHeight + 4
            svg += "<text x=\"0\" y=\"\(y + 16)\">\(Self.escape(space.className)) (\(space.objectCount))</text>\n"
            var x = labelWidth
            for (part, bytes) in zip(colours, [space.rowBytes, space.indexBytes, space.collectionBytes]) where bytes > 0 {
                let width = max(1, bytes * barWidth / largest)
                svg += "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(width)\" height=\"18\" fill=\"\(part.1)\"><title>\(part.0): \(InfoCommand.bytes(bytes))</title></rect>\n"
                x += width
            }
            svg += "<text x=\"\(x + 6)\" y=\"\(y + 14)\">\(InfoCommand.bytes(space.totalBytes))</text>\n"
        }
        let legendY = report.classes.count * rowHeight + 24
        for (index, part) in colours.enumerated() {
            svg += "<rect x=\"\(labelWidth + index * 130)\" y=\"\(legendY - 11)\" width=\"12\" height=\"12\" fill=\"\(part.1)\"/>"
            svg += "<text x=\"\(labelWidth + index * 130 + 18)\" y=\"\(legendY)\">\(part.0)</text>\n"
        }
        return svg + "</svg>\n"
    }

    private func readers() -> String {
        var html = "<p>\(report.readers.count) of \(report.readerSlots) reader slots hold a version.</p>\n"
        if !report.readers.isEmpty {
            html += "<table><tr><th>Process</th><th>Running</th><th>Version</th><th>Commits behind</th></tr>\n"
            for reader in report.readers {
                html += "<tr><td class=\"number\">\(reader.processID)</td><td>\(reader.isProcessAlive ? "yes" : "no (gone)")</td>"
                html += "<td class=\"number\">\(reader.version)</td><td class=\"number\">\(reader.versionsBehind)</td></tr>\n"
            }
            html += "</table>\n"
        }
        for warning in InfoCommand.warnings(report, path: path) { html += "<p class=\"warning\">\(Self.escape(warning))</p>\n" }
        return html
    }

    private func firstObjects(_ classes: [ObjectSchema]) -> String {
        var html = ""
        for schema in classes {
            let objects = realm.dynamicObjects(schema.className)
            html += "<h3>\(Self.escape(schema.className)) <small>(\(objects.count) objects)</small></h3>\n"
            guard rowsPerClass > 0, !objects.isEmpty else { continue }
            html += "<table><tr>" + schema.properties.map { "<th>\(Self.escape($0.name))</th>" }.joined() + "</tr>\n"
            let columns = ObjectRendering.columns(of: schema.properties, in: schema)
            for object in objects.prefix(rowsPerClass) {
                let values = ObjectRendering.values(of: object, properties: schema.properties, columns: columns)
                html += "<tr>" + values.map { value in
                    let text = value.plainText
                    let shown = text.count > 200 ? String(text.prefix(199)) + "…" : text
                    switch value {
                    case .integer, .number: return "<td class=\"number\">\(Self.escape(shown))</td>"
                    default: return "<td>\(Self.escape(shown))</td>"
                    }
                }.joined() + "</tr>\n"
            }
            html += "</table>\n"
        }
        return html
    }

    /// `text` safe in HTML text and attribute values.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
