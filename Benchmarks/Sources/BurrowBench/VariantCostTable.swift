import Foundation

/// The workload's steps on a variant of Burrow beside the same steps on the usual one: the
/// price of encryption (sealed values, hashed index keys), of row checksums (the usual file
/// beside one of the format without them), or of writing queries with `#Predicate`.
struct VariantCostTable {
    let plain: EngineResults
    let variant: EngineResults
    let lmdb: EngineResults

    /// Step, seconds of both files, variant/plain, variant/LMDB, and whether the check values agree.
    var timings: String {
        let (first, second) = (plain.engine, variant.engine)
        let header = row("step", "\(first) s", "\(second) s", "\(second)/\(first)", "\(second)/LMDB", "check")
        let lines = Step.allCases.map { step in
            let seconds = [plain, variant, lmdb].map { $0[step]?.seconds }
            let agree = plain[step]?.check != nil && plain[step]?.check == variant[step]?.check
            return row(step.title, seconds[0].map { String(format: "%.4f", $0) } ?? "-", seconds[1].map { String(format: "%.4f", $0) } ?? "-",
                       Self.ratio(seconds[1], seconds[0]), Self.ratio(seconds[1], seconds[2]),
                       variant[step] == nil ? "-" : agree ? "ok" : "DIFFERENT")
        }
        return ([header, String(repeating: "-", count: header.count)] + lines).joined(separator: "\n")
    }

    private func row(_ cells: String...) -> String {
        let widths = [26, 12, 13, 20, 16, 11]
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
