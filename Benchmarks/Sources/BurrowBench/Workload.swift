import Foundation

/// The values and sizes of the workload, shared by every engine (the C baselines compute the
/// same in `workload.h`).
enum Workload {
    /// Objects stored when no count is given.
    static let defaultObjectCount = 1_000_000
    /// Queries of the index-equality step.
    static let indexQueries = 10_000
    /// Objects in the sorted page, read at offset N/2.
    static let pageSize = 20
    /// Transactions of the durable-commits step.
    static let durableCommits = 2_000

    /// "name-%07d" of `id % 100000`: ten objects of a million share each name.
    static func name(of id: Int) -> String {
        padded(id % 100_000)
    }

    /// The name looked up by query `query` of the index-equality step.
    static func queryName(_ query: Int) -> String {
        padded(query * 7 % 100_000)
    }

    /// `id % 100`.
    static func age(of id: Int) -> Int32 { Int32(id % 100) }

    /// `id * 0.5`.
    static func score(of id: Int) -> Double { Double(id) * 0.5 }

    /// Whether `id` is odd.
    static func flag(of id: Int) -> Bool { id & 1 == 1 }

    /// Sixteen bytes of `id & 0xff`.
    static func blob(of id: Int) -> Data { blobs[id & 0xff] }

    /// The 256 possible blobs, built once so that the workload measures storage, not `Data`.
    private static let blobs: [Data] = (0..<256).map { Data(repeating: UInt8($0), count: 16) }

    /// "name-" and `number` padded with zeros to seven digits.
    private static func padded(_ number: Int) -> String {
        let digits = String(number)
        return "name-" + String(repeating: "0", count: max(0, 7 - digits.count)) + digits
    }
}
