import Foundation

/// What a stress process has done so far, as the line it prints once a second:
/// `stat <transactions> <reads> <violations> <notifications> <write waits>`.
struct StressReport {
    var transactions = 0
    var reads = 0
    var violations = 0
    /// Notifications its listeners received.
    var notifications = 0
    var waits = WaitHistogram()

    var line: String { "stat \(transactions) \(reads) \(violations) \(notifications) \(waits.encoded)" }

    init(transactions: Int = 0, reads: Int = 0, violations: Int = 0, notifications: Int = 0, waits: WaitHistogram = WaitHistogram()) {
        self.transactions = transactions
        self.reads = reads
        self.violations = violations
        self.notifications = notifications
        self.waits = waits
    }

    /// Reads ``line``; `nil` for any other line.
    init?(line: Substring) {
        let words = line.split(separator: " ")
        guard words.count == 6, words[0] == "stat", let transactions = Int(words[1]), let reads = Int(words[2]),
              let violations = Int(words[3]), let notifications = Int(words[4]), let waits = WaitHistogram(encoded: words[5]) else { return nil }
        self.init(transactions: transactions, reads: reads, violations: violations, notifications: notifications, waits: waits)
    }

    /// The sum of two processes' reports.
    func adding(_ other: StressReport) -> StressReport {
        var waits = self.waits
        waits.merge(other.waits)
        return StressReport(transactions: transactions + other.transactions, reads: reads + other.reads,
                            violations: violations + other.violations, notifications: notifications + other.notifications,
                            waits: waits)
    }
}

/// A value shared by threads, behind a lock.
final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) {
        stored = value
    }

    var value: Value { lock.withLock { stored } }

    func update(_ change: (inout Value) -> Void) {
        lock.withLock { change(&stored) }
    }
}

/// Write waits recorded by many threads.
final class LockedHistogram: Sendable {
    private let histogram = LockedValue(WaitHistogram())

    func record(microseconds: Int) {
        histogram.update { $0.record(microseconds: microseconds) }
    }

    var snapshot: WaitHistogram { histogram.value }
}
