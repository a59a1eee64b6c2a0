import Baselines
import Foundation

/// The workload on a C baseline engine (raw LMDB or SQLite), through its ``BaselineFunctions``.
final class BaselineWorkload: EngineWorkload {
    let functions: BaselineFunctions
    private let count: Int
    private let directory: URL
    private let baseline: OpaquePointer

    var engine: String { functions.engine }

    /// Creates a fresh store in `directory` for `count` objects.
    init(_ functions: BaselineFunctions, count: Int, directory: URL) {
        self.functions = functions
        self.count = count
        self.directory = directory
        baseline = functions.create(directory.appendingPathComponent(functions.fileName).path)
    }

    deinit {
        functions.close(baseline)
    }

    func run(_ step: Step) -> StepMeasurement {
        let outcome = switch step {
        case .insert: functions.insert(baseline, count)
        case .openAndCount: openAndCount()
        case .randomGet: functions.randomGet(baseline, count)
        case .scanFilter: functions.scanFilter(baseline)
        case .indexEquality: functions.indexEquality(baseline, Int32(Workload.indexQueries))
        case .sortedPage: functions.sortedPage(baseline, count / 2, Int32(Workload.pageSize))
        case .readAll: functions.readAll(baseline)
        case .updateAll: functions.updateAll(baseline)
        case .deleteAll: functions.deleteAll(baseline)
        case .durableCommits: functions.durableCommits(baseline, Int32(Workload.durableCommits))
        }
        return StepMeasurement(outcome)
    }

    /// Writes `count` records to a second store and closes it (untimed), then times opening it
    /// and counting its records.
    private func openAndCount() -> BaselineStep {
        let path = directory.appendingPathComponent("open-" + functions.fileName).path
        let writer = functions.create(path)
        _ = functions.insert(writer, count)
        functions.close(writer)
        return functions.openAndCount(path)
    }
}

extension StepMeasurement {
    /// The measurement of a C baseline step.
    init(_ step: BaselineStep) {
        self.init(seconds: step.seconds, check: Int(step.check))
    }
}
