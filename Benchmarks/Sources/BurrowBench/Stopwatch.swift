/// Times work on the monotonic clock.
enum Stopwatch {
    /// Runs `body` and returns its result with the seconds it took.
    static func measure<Value>(_ body: () throws -> Value) rethrows -> (seconds: Double, value: Value) {
        let clock = ContinuousClock()
        let start = clock.now
        let value = try body()
        return (seconds(start.duration(to: clock.now)), value)
    }

    /// `duration` in seconds.
    static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }
}
