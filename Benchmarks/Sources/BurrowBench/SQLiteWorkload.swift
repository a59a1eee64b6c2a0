import Baselines
import Foundation

/// The workload on SQLite, through the C functions of `Baselines.h`.
final class SQLiteWorkload: EngineWorkload {
    let engine = "SQLite"
    private let count: Int
    private let directory: URL
    private let baseline: OpaquePointer

    /// Creates a fresh database, `sqlite.db` in `directory`, for `count` objects.
    init(count: Int, directory: URL) {
        self.count = count
        self.directory = directory
        baseline = sqlite_baseline_create(directory.appendingPathComponent("sqlite.db").path)
    }

    deinit {
        sqlite_baseline_close(baseline)
    }

    func run(_ step: Step) -> StepMeasurement {
        let outcome = switch step {
        case .insert: sqlite_baseline_insert(baseline, count)
        case .openAndCount: openAndCount()
        case .randomGet: sqlite_baseline_random_get(baseline, count)
        case .scanFilter: sqlite_baseline_scan_filter(baseline)
        case .indexEquality: sqlite_baseline_index_equality(baseline, Int32(Workload.indexQueries))
        case .sortedPage: sqlite_baseline_sorted_page(baseline, count / 2, Int32(Workload.pageSize))
        case .updateAll: sqlite_baseline_update_all(baseline)
        case .deleteAll: sqlite_baseline_delete_all(baseline)
        case .durableCommits: sqlite_baseline_durable_commits(baseline, Int32(Workload.durableCommits))
        }
        return StepMeasurement(outcome)
    }

    /// Writes `count` rows to a second database and closes it (untimed), then times opening it
    /// and running `SELECT count(*)`.
    private func openAndCount() -> BaselineStep {
        let path = directory.appendingPathComponent("sqlite-open.db").path
        let writer = sqlite_baseline_create(path)
        _ = sqlite_baseline_insert(writer, count)
        sqlite_baseline_close(writer)
        return sqlite_baseline_open_count(path)
    }
}
