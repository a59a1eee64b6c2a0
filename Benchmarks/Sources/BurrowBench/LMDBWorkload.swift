import Baselines
import Foundation

/// The workload on raw LMDB, through the C functions of `Baselines.h`.
final class LMDBWorkload: EngineWorkload {
    let engine = "LMDB"
    private let count: Int
    private let directory: URL
    private let baseline: OpaquePointer

    /// Creates a fresh environment, `lmdb.mdb` in `directory`, for `count` objects.
    init(count: Int, directory: URL) {
        self.count = count
        self.directory = directory
        baseline = lmdb_baseline_create(directory.appendingPathComponent("lmdb.mdb").path)
    }

    deinit {
        lmdb_baseline_close(baseline)
    }

    func run(_ step: Step) -> StepMeasurement {
        let outcome = switch step {
        case .insert: lmdb_baseline_insert(baseline, count)
        case .openAndCount: openAndCount()
        case .randomGet: lmdb_baseline_random_get(baseline, count)
        case .scanFilter: lmdb_baseline_scan_filter(baseline)
        case .indexEquality: lmdb_baseline_index_equality(baseline, Int32(Workload.indexQueries))
        case .sortedPage: lmdb_baseline_sorted_page(baseline, count / 2, Int32(Workload.pageSize))
        case .updateAll: lmdb_baseline_update_all(baseline)
        case .deleteAll: lmdb_baseline_delete_all(baseline)
        case .durableCommits: lmdb_baseline_durable_commits(baseline, Int32(Workload.durableCommits))
        }
        return StepMeasurement(outcome)
    }

    /// Writes `count` records to a second environment and closes it (untimed), then times
    /// opening it and reading its record count.
    private func openAndCount() -> BaselineStep {
        let path = directory.appendingPathComponent("lmdb-open.mdb").path
        let writer = lmdb_baseline_create(path)
        _ = lmdb_baseline_insert(writer, count)
        lmdb_baseline_close(writer)
        return lmdb_baseline_open_count(path)
    }
}

extension StepMeasurement {
    /// The measurement of a C baseline step.
    init(_ step: BaselineStep) {
        self.init(seconds: step.seconds, check: Int(step.check))
    }
}
