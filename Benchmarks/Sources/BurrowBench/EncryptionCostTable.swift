import Foundation

/// The workload's steps on an encrypted file beside the same steps unencrypted: the price of
/// sealing every value and hashing every index key.
struct EncryptionCostTable {
    let plain: EngineResults
    let encrypted: EngineResults
    let lmdb: EngineResults

    /// Step, seconds unencrypted and encrypted, encrypted/unencrypted, encrypted/LMDB, and
    /// whether the check values agree.
    var timings: String {
        let header = row("step", "Burrow s", "Encrypted s", "Encrypted/Burrow", "Encrypted/LMDB", "check")
        let lines = Step.allCases.map { step in
            let seconds = [plain, encrypted, lmdb].map { $0[step]?.seconds }
            let agree = plain[step]?.check != nil && plain[step]?.check == encrypted[step]?.check
            return row(step.title, seconds[0].map { String(format: "%.4f", $0) } ?? "-", seconds[1].map { String(format: "%.4f", $0) } ?? "-",
                       Self.ratio(seconds[1], seconds[0]), Self.ratio(seconds[1], seconds[2]), agree ? "ok" : "DIFFERENT")
        }
        return ([header, String(repeating: "-", count: header.count)] + lines).joined(separator: "\n")
    }

    private func row(_ cells: String...) -> String {
        let widths = [26, 10, 13, 18, 16, 11]
        return zip(cells, widths).enumerated().map { index, cell in
            let (text, width) = cell
            let pad = String(repeating: " ", count: max(0, width - text.count))
            return index == 0 ? text + pad : pad + text
        }.joined()
    }

    private static func ratio(_ numerator: Double?, _ denominator: Double?) -> String {
        guard let numerator, let denominator, denominator > 0 else { return "-" }
        return String(format: "%.2fx", numerator / denominator)
    }
}
