import Baselines
import Foundation

/// Two costs that Burrow cannot go below, whatever its storage layer does, measured in the same
/// run as the table so that the ratios can be read against them.
///
/// - Model objects: making the insert step's `count` `Item`s without a realm (allocation, six
///   `@Persisted` setters, release). The insert step makes exactly these before storing them.
/// - Composite index: the index-equality step on raw LMDB with Burrow's index layout (composite
///   keys in a plain database, walked per name) instead of the baseline's `DUPSORT` count.
/// - Opening sealed rows: libsodium alone opening `count` values of about a row's size, sealed
///   as an encrypted file seals each row: what a step that decrypts every row costs at least.
/// - Checking rows: CRC-32C in hardware of `count` records of that size, as a file with row
///   checksums checks each row it reads: what checksums add to a step that reads every row.
struct DesignFloors {
    var modelObjects = StepMeasurement(seconds: .infinity, check: 0)
    var compositeIndex = StepMeasurement(seconds: .infinity, check: 0)
    var sealedRows = StepMeasurement(seconds: .infinity, check: 0)
    var checkedRows = StepMeasurement(seconds: .infinity, check: 0)
    /// The size of the sealed values, about that of the workload's rows.
    static let sealedRowSize = 64

    /// Measures both once more and keeps each one's best time.
    mutating func measureRound(count: Int, in directory: URL) {
        let objects = Self.makeModelObjects(count)
        if objects.seconds < modelObjects.seconds { modelObjects = objects }
        let path = directory.appendingPathComponent("composite-index.mdb").path
        let walk = lmdb_composite_index_equality(path, count, Int32(Workload.indexQueries))
        if walk.seconds < compositeIndex.seconds {
            compositeIndex = StepMeasurement(seconds: walk.seconds, check: Int(walk.check))
        }
        let opened = sodium_open_floor(count, Int32(Self.sealedRowSize))
        if opened.seconds < sealedRows.seconds {
            sealedRows = StepMeasurement(seconds: opened.seconds, check: Int(opened.check))
        }
        let checked = crc32c_record_floor(count, Int32(Self.sealedRowSize))
        if checked.seconds < checkedRows.seconds {
            checkedRows = StepMeasurement(seconds: checked.seconds, check: Int(checked.check))
        }
    }

    /// The floor of checking rows against what checksums add to the scan of every row.
    func checksumSummary(count: Int, checked: EngineResults, unchecked: EngineResults) -> String {
        guard checkedRows.check > 0 else { return "CRC-32C floor: not measured (no SSE 4.2 on this machine)" }
        var line = String(format: "CRC-32C in hardware of %d records with %d-byte values alone: %.4f s (%.1f ns each)",
                          checkedRows.check, Self.sealedRowSize, checkedRows.seconds, checkedRows.seconds / Double(max(count, 1)) * 1e9)
        if let withSums = checked[.scanFilter]?.seconds, let without = unchecked[.scanFilter]?.seconds {
            line += String(format: "; the scan with checksums takes %.4f s more than without (%.1f ns a row)",
                           withSums - without, (withSums - without) / Double(max(count, 1)) * 1e9)
        }
        return line
    }

    /// The floor of opening sealed rows against the encrypted file's steps that read every row.
    func encryptionSummary(count: Int, encrypted: EngineResults) -> String {
        let ratios = [Step.scanFilter, .sortedPage, .readAll].compactMap { step in
            encrypted[step].map { String(format: "%.2fx the encrypted %@", sealedRows.seconds / $0.seconds, step.title) }
        }
        return String(format: "libsodium alone opening %d sealed %d-byte values (XChaCha20-Poly1305): %.4f s (%.2f µs each) = ",
                      sealedRows.check, Self.sealedRowSize, sealedRows.seconds, sealedRows.seconds / Double(max(count, 1)) * 1e6)
            + ratios.joined(separator: ", ")
    }

    /// The floors against the table's LMDB and SQLite times, a line each.
    func summary(count: Int, lmdb: EngineResults, sqlite: EngineResults) -> String {
        func line(_ title: String, _ floor: StepMeasurement, _ step: Step) -> String {
            let ratios = [lmdb, sqlite].compactMap { engine in
                engine[step].map { String(format: "%.2fx %@'s %@", floor.seconds / $0.seconds, engine.engine, step.title) }
            }
            return String(format: "%@: %.4f s = ", title, floor.seconds) + ratios.joined(separator: ", ")
        }
        return [
            line("making \(count) Items without a realm", modelObjects, .insert),
            line("raw LMDB, Burrow's composite-key index (\(compositeIndex.check) hits)", compositeIndex, .indexEquality),
        ].joined(separator: "\n")
    }

    /// Seconds to make and release `count` unmanaged items as the insert step builds them.
    private static func makeModelObjects(_ count: Int) -> StepMeasurement {
        let (seconds, made) = Stopwatch.measure {
            var made = 0
            for id in 1...count where !Item(workloadID: id).isInvalidated {
                made += 1
            }
            return made
        }
        return StepMeasurement(seconds: seconds, check: made)
    }
}
