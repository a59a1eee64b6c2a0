/// One engine running the workload: it owns its files in the work directory and runs one step
/// at a time, in ``Step`` order.
protocol EngineWorkload: AnyObject {
    /// The engine's name in the tables.
    var engine: String { get }
    /// Runs `step` and returns its time and check value.
    ///
    /// - Throws: ``BenchmarkError`` when the step cannot run.
    func run(_ step: Step) throws -> StepMeasurement
}

/// Why the benchmark stopped.
struct BenchmarkError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
