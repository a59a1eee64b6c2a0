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
