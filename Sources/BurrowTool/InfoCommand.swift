import Burrow
import Foundation

/// `burrow info FILE [--json]`: what a file holds and how it uses its space, and the readers
/// holding old versions (the most common reason a file grows).
enum InfoCommand {
    static let usage = """
        usage: burrow info FILE [--json] [--key-file PATH]

        Prints FILE's format and schema version, its classes with their object counts and the
        bytes of their rows, indexes and collections, the file's size with its used and free
        bytes, and the processes whose read transactions hold a version of it: each one's
        process id, whether it still runs, and how many commits behind the latest its version
        is. A reader far behind keeps LMDB from reusing the pages freed since, so the file
        grows; info says so in plain words. Read-only: it clears nothing.

          --json              the same as JSON
          --key-file PATH     the encryption key (64 bytes or 128 hex digits); or set
                              BURROW_ENCRYPTION_KEY

        examples:
          burrow info app.realm
          burrow info app.realm --json | jq '.classes[] | {name, objects}'

        Exit status: 0 printed, 2 misused or bad input.
        """

    /// Commits behind the latest past which a reader is called out.
    static let farBehind = 100

    static func run(_ arguments: [String]) -> Int32 {
        BurrowTool.running("info") { () throws(ToolFailure) in
            let options = try CommandLineOptions(arguments, command: "info", valued: ["key-file"], flags: ["json"])
            guard options.positional.count == 1 else { throw .usage("info takes one FILE", command: "info") }
            let file = try ToolFile(options.positional[0], options: options)
            let report: Realm.FileReport
            let schema: Schema
            do {
                report = try Realm.fileReport(at: file.url, encryptionKey: file.key)
                schema = try file.openReadOnly().fileSchema
            } catch let failure as ToolFailure {
                throw failure
            } catch {
                throw .input(ToolFile.describe(error, path: file.path))
            }
            if options.flags.contains("json") {
                print(json(report, schema: schema, path: file.path).json)
            } else {
                print(text(report, schema: schema, path: file.path), terminator: "")
            }
            return 0
        }
    }

    static func text(_ report: Realm.FileReport, schema: Schema, path: String) -> String {
        var lines = [path,
                     "  format \(report.formatVersion), schema version \(report.schemaVersion), latest version \(report.latestVersion)",
                     "  file \(bytes(report.fileBytes)): used \(bytes(report.usedBytes)), free \(bytes(report.freeBytes)) (pages of \(report.pageSize) bytes)",
                     ""]
        let header = ["class", "objects", "rows", "indexes", "collections", "total"]
        let rows: [[ToolValue]] = report.classes.map { space in
            [.string(space.className + (space.isEmbedded ? " (embedded)" : "")), .integer(Int64(space.objectCount)),
             .string(bytes(space.rowBytes)), .string(bytes(space.indexBytes)), .string(bytes(space.collectionBytes)),
             .string(bytes(space.totalBytes))]
        }
        lines.append(TableText(header: header, rows: rows).text.trimmingCharacters(in: .newlines))
        lines.append("metadata, change log and backlinks: \(bytes(report.metadataBytes))")
        // The classes' properties, as burrow schema prints them (without its first line).
        let classes = schema.objectSchema.sorted { $0.className < $1.className }
        lines.append("")
        lines.append(SchemaCommand.text(classes, version: report.schemaVersion).split(separator: "\n", omittingEmptySubsequences: false)
            .dropFirst().joined(separator: "\n").trimmingCharacters(in: .newlines))
        lines.append("")
        lines.append("readers: \(report.readers.count) of \(report.readerSlots) slots hold a version")
        for reader in report.readers {
            lines.append("  process \(reader.processID) (\(processState(reader))): version \(reader.version), "
                         + "\(reader.versionsBehind) \(reader.versionsBehind == 1 ? "commit" : "commits") behind")
        }
        lines += warnings(report, path: path).map { TerminalStyle.yellow("warning:", on: TerminalStyle.standardOutput) + " \($0)" }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Plain words for each reader that keeps the file from reusing space.
    static func warnings(_ report: Realm.FileReport, path: String) -> [String] {
        report.readers.compactMap { reader in
            if !reader.isProcessAlive {
                return "process \(reader.processID) died holding version \(reader.version) (\(reader.versionsBehind) commits behind); "
                    + "until its slot is cleared the file cannot reuse the pages freed since. "
                    + "Clear it with: burrow readers \(path) --clear-stale (a process opening the file to write clears it too)"
            }
            guard reader.versionsBehind >= farBehind else { return nil }
            return "process \(reader.processID) holds version \(reader.version), \(reader.versionsBehind) commits behind the latest: "
                + "the file cannot reuse the pages freed since, and grows while it holds it. A frozen realm or object kept "
                + "for long, or a thread that read once and never refreshes, does this: release it, or refresh that realm"
        }
    }

    private static func processState(_ reader: Realm.FileReport.Reader) -> String {
        guard reader.isProcessAlive else { return "gone" }
        return ProcessAge.seconds(of: reader.processID).map { "running for \(duration($0))" } ?? "running"
    }

    static func json(_ report: Realm.FileReport, schema: Schema, path: String) -> ToolValue {
        let schemaJSON = SchemaCommand.json(schema.objectSchema.sorted { $0.className < $1.className }, version: report.schemaVersion)
        let propertiesByClass: [String: ToolValue] = {
            guard case .object(let root) = schemaJSON, case .array(let classes)? = root.first(where: { $0.key == "classes" })?.value else { return [:] }
            var byName: [String: ToolValue] = [:]
            for case .object(let members) in classes {
                guard case .string(let name)? = members.first(where: { $0.key == "name" })?.value else { continue }
                byName[name] = members.first { $0.key == "properties" }?.value
            }
            return byName
        }()
        return .object([
            ("file", .string(path)),
            ("formatVersion", .integer(Int64(report.formatVersion))),
            ("schemaVersion", .integer(Int64(clamping: report.schemaVersion))),
            ("latestVersion", .integer(Int64(report.latestVersion))),
            ("fileBytes", .integer(Int64(report.fileBytes))),
            ("usedBytes", .integer(Int64(report.usedBytes))),
            ("freeBytes", .integer(Int64(report.freeBytes))),
            ("pageSize", .integer(Int64(report.pageSize))),
            ("metadataBytes", .integer(Int64(report.metadataBytes))),
            ("classes", .array(report.classes.map { space in
                .object([
                    ("name", .string(space.className)), ("embedded", .bool(space.isEmbedded)), ("objects", .integer(Int64(space.objectCount))),
                    ("rowBytes", .integer(Int64(space.rowBytes))), ("indexBytes", .integer(Int64(space.indexBytes))),
                    ("collectionBytes", .integer(Int64(space.collectionBytes))), ("properties", propertiesByClass[space.className] ?? .array([])),
                ])
            })),
            ("readerSlots", .integer(Int64(report.readerSlots))),
            ("readers", .array(report.readers.map(readerJSON))),
            ("warnings", .array(warnings(report, path: path).map(ToolValue.string))),
        ])
    }

    static func readerJSON(_ reader: Realm.FileReport.Reader) -> ToolValue {
        .object([
            ("pid", .integer(Int64(reader.processID))), ("alive", .bool(reader.isProcessAlive)),
            ("runningSeconds", ProcessAge.seconds(of: reader.processID).map { .integer(Int64($0)) } ?? .null),
            ("version", .integer(Int64(reader.version))), ("versionsBehind", .integer(Int64(reader.versionsBehind))),
        ])
    }

    /// `1.5 KiB`, `2.3 MiB`: binary units, one decimal.
    static func bytes(_ count: Int) -> String {
        let units = ["bytes", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(count), unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(count) bytes" : String(format: "%.1f %@", value, units[unit])
    }

    static func duration(_ seconds: Int) -> String {
        switch seconds {
        case ..<120: "\(seconds) s"
        case ..<7200: "\(seconds / 60) min"
        case ..<172_800: "\(seconds / 3600) h"
        default: "\(seconds / 86_400) days"
        }
    }
}

/// How long a process has run, from `/proc`.
enum ProcessAge {
    static func seconds(of processID: Int32) -> Int? {
        // Field 22 of /proc/PID/stat is the start time in clock ticks after boot; the command
        // name (field 2) is in parentheses and may hold spaces.
        guard let stat = try? String(contentsOfFile: "/proc/\(processID)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")"),
              let uptimeText = try? String(contentsOfFile: "/proc/uptime", encoding: .utf8),
              let uptime = Double(uptimeText.split(separator: " ").first ?? "") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the name: state is field 3, so the start time is the 20th here.
        guard fields.count > 19, let ticks = Double(fields[19]) else { return nil }
        return max(0, Int(uptime - ticks / Double(sysconf(Int32(_SC_CLK_TCK)))))
    }
}
