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
    ///
    /// The bytes are written straight into the string's storage, as the C baselines' `snprintf`
    /// writes into a buffer: building the name through interpolation and concatenation costs
    /// as much as a quarter of an index query and would be charged to the storage.
    private static func padded(_ number: Int) -> String {
        precondition((0..<10_000_000).contains(number), "names have seven digits")
        let prefix: StaticString = "name-"
        return String(unsafeUninitializedCapacity: prefix.utf8CodeUnitCount + 7) { buffer in
            var end = 0
            for byte in UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount) {
                buffer[end] = byte
                end += 1
            }
            var rest = number
            for position in (end..<end + 7).reversed() {
                buffer[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            return end + 7
        }
    }
}
