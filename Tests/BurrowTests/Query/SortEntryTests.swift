@testable import Burrow
import Foundation
import Testing

/// `SortEntry`: wherever the words of two entries decide an order, it is the order the values
/// themselves have; where they cannot, they say so.
@Suite struct SortEntryTests {
    private static let strings = ["", "a", "a\0", "a\0\0", "ab", "abc", "b", "Z", "é", "e\u{301}", "ß", "日本", "🐿️", "name-0001234", "name-0001235",
                                  String(repeating: "x", count: 16), String(repeating: "x", count: 17), String(repeating: "x", count: 16) + "a",
                                  String(repeating: "x", count: 16) + "b", "0123456789abcdef", "0123456789abcdeg"]
    private static let integers: [Int64] = [.min, .min + 1, -1_000_000, -2, -1, 0, 1, 2, 255, 256, 1 << 40, .max - 1, .max]
    private static let seconds: [Double] = [-.infinity, -1e12, -1.5, -0.0, 0, 5e-324, 1, 1.5, 1e12, .infinity]

    private func expectAgreement(_ values: [_PersistedValue?], _ kind: String) {
        for (i, x) in values.enumerated() {
            for (j, y) in values.enumerated() {
                let whole: Int = switch (x, y) {
                case (nil, nil): 0
                case (nil, _): 1
                case (_, nil): -1
                case (let x?, let y?): QueryExecutor.sortOrder(x, y)
                }
                guard let keyed = SortEntry.order(SortEntry(x, index: i), SortEntry(y, index: j)) else { continue }
                #expect(keyed == whole, "\(kind): \(String(describing: x)) against \(String(describing: y))")
            }
        }
    }

    @Test func stringsOrderAsTheirBytes() {
        expectAgreement(Self.strings.map { .string($0) } + [.null, nil], "strings")
        // Strings alike in their first 16 bytes, longer than that, are for the values to order.
        let long = String(repeating: "x", count: 16)
        #expect(SortEntry.order(SortEntry(.string(long + "a"), index: 0), SortEntry(.string(long + "b"), index: 1)) == nil)
        #expect(SortEntry.order(SortEntry(.string("name-1"), index: 0), SortEntry(.string("name-2"), index: 1)) == -1)
    }

    @Test func integersBooleansAndDatesOrderWhole() {
        expectAgreement(Self.integers.map { .int($0) } + [.null], "integers")
        expectAgreement([.bool(false), .bool(true), .null], "booleans")
        expectAgreement(Self.seconds.map { .date(Date(timeIntervalSinceReferenceDate: $0)) } + [.null], "dates")
        #expect(SortEntry.order(SortEntry(.date(Date(timeIntervalSinceReferenceDate: -0.0)), index: 0),
                                SortEntry(.date(Date(timeIntervalSinceReferenceDate: 0)), index: 1)) == 0)
    }

    @Test func otherKindsAndEmptyLinksAreLeftToTheValues() {
        let others: [_PersistedValue?] = [nil, .double(1), .data(Data([1])), .mixed(.int(1)), .uuid(UUID())]
        for x in others {
            #expect(SortEntry.order(SortEntry(x, index: 0), SortEntry(.int(1), index: 1)) == nil)
            #expect(SortEntry.order(SortEntry(x, index: 0), SortEntry(.null, index: 1)) == nil)
        }
        #expect(SortEntry.order(SortEntry(.string("1"), index: 0), SortEntry(.int(1), index: 1)) == nil)
        #expect(SortEntry.order(SortEntry(.date(Date(timeIntervalSinceReferenceDate: .nan)), index: 0), SortEntry(.null, index: 1)) == nil)
    }
}
