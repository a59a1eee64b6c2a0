import Burrow
import Foundation

/// `burrow report FILE -o report.html`: one self-contained page about a file.
enum ReportCommand {
    static let usage = """
        usage: burrow report FILE -o REPORT.html [--rows N] [--key-file PATH]

        Writes one self-contained HTML page (inline CSS and SVG, nothing fetched from the
        network) about FILE: the schema drawn as boxes with the links between classes, object
        counts, a chart of the space each class's rows, indexes and collections take, the
        readers and the versions they hold, and the first N objects of each class (default 10).

          -o, --output PATH   the page to write (created, or replaced)
          --rows N            objects shown per class (0 to 1000)
          --key-file PATH     the encryption key (64 bytes or 128 hex digits); or set
                              BURROW_ENCRYPTION_KEY

        example:
          burrow report app.realm -o app.html && xdg-open app.html

        Exit status: 0 written, 1 failed writing, 2 misused or bad input.
        """

    static func run(_ arguments: [String]) -> Int32 {
        // -o is the usual short name of the output.
        let normalized = arguments.map { $0 == "-o" ? "--output" : $0 }
        return BurrowTool.running("report") { () throws(ToolFailure) in
            let options = try CommandLineOptions(normalized, command: "report", valued: ["output", "rows", "key-file"])
            guard options.positional.count == 1 else { throw .usage("report takes one FILE", command: "report") }
            guard let outputPath = options.string("output") else { throw .usage("report needs -o REPORT.html", command: "report") }
            let rows: Int
            do throws(CommandLineOptions.UsageError) { rows = try options.integer("rows", default: 10, in: 0...1000) } catch {
                throw .usage(error.message, command: "report")
            }
            let file = try ToolFile(options.positional[0], options: options)
            let realm = try file.openReadOnly()
            let report: Realm.FileReport
            do {
                report = try Realm.fileReport(at: file.url, encryptionKey: file.key)
            } catch {
                throw .input(ToolFile.describe(error, path: file.path))
            }
            let page = ReportPage(path: file.path, realm: realm, report: report, rowsPerClass: rows).html
            var output = try ToolOutput(path: outputPath)
            output.write(page)
            try output.finish()
            print("wrote \(outputPath): \(report.classes.count) classes, \(report.classes.reduce(0) { $0 + $1.objectCount }) objects")
            return 0
        }
    }
}
