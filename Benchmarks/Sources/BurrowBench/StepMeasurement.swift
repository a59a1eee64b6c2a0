/// The outcome of one step on one engine.
struct StepMeasurement {
    /// Seconds the step took.
    let seconds: Double
    /// What the step found or did (see ``Step/checkMeaning``); equal across engines when they
    /// did the same work.
    let check: Int
}

/// The measurements of one engine, by step.
struct EngineResults {
    /// The engine's name in the tables.
    let engine: String
    /// Every step's measurement.
    var measurements: [Step: StepMeasurement] = [:]

    init(engine: String) { self.engine = engine }

    subscript(step: Step) -> StepMeasurement? {
        get { measurements[step] }
        set { measurements[step] = newValue }
    }
}

extension EngineResults {
    /// Keeps each step's best time over the rounds; a check value that changed between rounds
    /// becomes -1, so that the check table shows the difference.
    mutating func keepBest(of round: EngineResults) {
        for (step, measurement) in round.measurements {
            guard let best = measurements[step] else {
                measurements[step] = measurement
                continue
            }
            measurements[step] = StepMeasurement(seconds: min(best.seconds, measurement.seconds),
                                                 check: best.check == measurement.check ? best.check : -1)
        }
    }
}
