import Foundation

/// The final report: step times side by side with Burrow's ratios, then the check values.
struct ResultTable {
    let burrow: EngineResults
    let lmdb: EngineResults
    let sqlite: EngineResults

    /// Whether every step's check value is the same on the three engines.
    var checksAgree: Bool {
        Step.allCases.allSatisfy(agree)
    }

    /// The timing table: step, seconds per engine, Burrow/LMDB and Burrow/SQLite.
    var timings: String {
        let header = row("step", "\(burrow.engine) s", "\(lmdb.engine) s", "\(sqlite.engine) s",
                         "\(burrow.engine)/\(lmdb.engine)", "\(burrow.engine)/\(sqlite.engine)")
        let lines = Step.allCases.map { step in
            let seconds = [burrow, lmdb, sqlite].map { $0[step]?.seconds }
            return row(step.title, seconds[0].map(Self.seconds) ?? "-", seconds[1].map(Self.seconds) ?? "-",
                       seconds[2].map(Self.seconds) ?? "-",
                       Self.ratio(seconds[0], seconds[1]), Self.ratio(seconds[0], seconds[2]))
        }
        return ([header, String(repeating: "-", count: header.count)] + lines).joined(separator: "\n")
    }

    /// The check table: each step's check value per engine, and whether they agree.
    var checks: String {
        let header = checkRow("check", burrow.engine, lmdb.engine, sqlite.engine, "")
        let lines = Step.allCases.map { step in
            let values = checkValues(step).map { $0.map(String.init) ?? "-" }
            return checkRow("\(step.title): \(step.checkMeaning)", values[0], values[1], values[2],
                            agree(step) ? "ok" : "DIFFERENT")
        }
        return ([header, String(repeating: "-", count: header.count)] + lines).joined(separator: "\n")
    }

    /// The check value of `step` on each engine, in table order.
    private func checkValues(_ step: Step) -> [Int?] {
        [burrow, lmdb, sqlite].map { $0[step]?.check }
    }

    /// Whether the three engines measured `step` with the same check value.
    private func agree(_ step: Step) -> Bool {
        let values = checkValues(step)
        return values.allSatisfy { $0 != nil && $0 == values[0] }
    }

    // MARK: Formatting

    private func row(_ step: String, _ burrow: String, _ lmdb: String, _ sqlite: String,
                     _ versusLMDB: String, _ versusSQLite: String) -> String {
        Self.left(step, 26) + Self.right(burrow, 10) + Self.right(lmdb, 10) + Self.right(sqlite, 10)
            + Self.right(versusLMDB, 13) + Self.right(versusSQLite, 15)
    }

    private func checkRow(_ check: String, _ burrow: String, _ lmdb: String, _ sqlite: String, _ verdict: String) -> String {
        Self.left(check, 44) + Self.right(burrow, 12) + Self.right(lmdb, 12) + Self.right(sqlite, 12)
            + (verdict.isEmpty ? "" : "  " + verdict)
    }

    private static func seconds(_ value: Double) -> String {
        String(format: "%.4f", value)
    }

    private static func ratio(_ numerator: Double?, _ denominator: Double?) -> String {
        guard let numerator, let denominator, denominator > 0 else { return "-" }
        return String(format: "%.2fx", numerator / denominator)
    }

    private static func left(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    private static func right(_ text: String, _ width: Int) -> String {
        text.count >= width ? " " + text : String(repeating: " ", count: width - text.count) + text
    }
}
