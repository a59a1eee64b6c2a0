import Foundation

/// Write waits, counted in logarithmic buckets (four per doubling of microseconds, about 19%
/// wide), so that processes can send theirs as a line and the total can be read for any
/// percentile.
struct WaitHistogram {
    private(set) var counts: [Int] = []
    private(set) var maximumMicroseconds = 0

    private static func bucket(ofMicroseconds microseconds: Int) -> Int {
        Int((4 * log2(Double(microseconds) + 1)).rounded(.down))
    }

    /// The largest wait the bucket holds, in microseconds.
    private static func upperBound(ofBucket bucket: Int) -> Int {
        Int(pow(2, Double(bucket + 1) / 4).rounded(.up)) - 1
    }

    mutating func record(microseconds: Int) {
        let index = Self.bucket(ofMicroseconds: max(0, microseconds))
        if counts.count <= index { counts += Array(repeating: 0, count: index + 1 - counts.count) }
        counts[index] += 1
        maximumMicroseconds = max(maximumMicroseconds, microseconds)
    }

    mutating func merge(_ other: WaitHistogram) {
        if counts.count < other.counts.count { counts += Array(repeating: 0, count: other.counts.count - counts.count) }
        for (index, count) in other.counts.enumerated() { counts[index] += count }
        maximumMicroseconds = max(maximumMicroseconds, other.maximumMicroseconds)
    }

    var total: Int { counts.reduce(0, +) }

    /// The wait that `fraction` of the waits do not exceed (a bucket's upper bound, capped at the
    /// largest wait seen), in microseconds; 0 with no waits.
    func percentile(_ fraction: Double) -> Int {
        let total = self.total
        guard total > 0 else { return 0 }
        let rank = Int((Double(total) * fraction).rounded(.up))
        var seen = 0
        for (index, count) in counts.enumerated() {
            seen += count
            if seen >= rank { return min(Self.upperBound(ofBucket: index), maximumMicroseconds) }
        }
        return maximumMicroseconds
    }

    /// The histogram as one word: `max;count,count,…`.
    var encoded: String { "\(maximumMicroseconds);" + counts.map(String.init).joined(separator: ",") }

    init() {}

    /// Reads ``encoded``; `nil` for anything else.
    init?(encoded: Substring) {
        let parts = encoded.split(separator: ";", omittingEmptySubsequences: false)
        guard parts.count == 2, let maximum = Int(parts[0]) else { return nil }
        let counts = parts[1].isEmpty ? [] : parts[1].split(separator: ",").map { Int($0) }
        guard counts.allSatisfy({ $0 != nil && $0! >= 0 }) else { return nil }
        self.counts = counts.map { $0! }
        maximumMicroseconds = maximum
    }
}
