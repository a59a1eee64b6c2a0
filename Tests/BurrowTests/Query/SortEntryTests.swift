import Burrow
import Foundation
import Testing

/// The entries a sort compares: wherever their ordered words decide an order, it is the order
/// the values themselves have; where they cannot, they say so.
@Suite struct SortEntryTests {
    private static let strings = ["", "a", "a\0", "a\0\0", "ab", "abc", "b", "Z", "é", "e\u{301}", "ß", "日本", "🐿️", "name-0001234", "name-0001235",
                                  String(repeating: "x", count: 16), String(repeating: "x", count: 17), String(repeating: "x", count: 16) + "a",
                                  String(repeating: "x", count: 16) + "b", "0123456789abcdef", "0123456789abcdeg"]
    private static let integers: [Int64] = [.min, .min + 1, -1_000_000, -2, -1, 0, 1, 2, 255, 256, 1 << 40, .max - 1, .max]
    private static let seconds: [Double] = [-.infinity, -1e12, -1.5, -0.0, 0, 5e-324, 1, 1.5, 1e12, .infinity]

    private func expectAgreement(_ values: [_PersistedValue?], _ kind: String) {
        for x in values {
            for y in values {
                guard let keyed = Internals.sortEntryOrder(x, y) else { continue }
                #expect(keyed == Internals.sortOrder(x, y), "\(kind): \(String(describing: x)) against \(String(describing: y))")
            }
        }
    }

    private func date(_ seconds: Double) -> _PersistedValue { .date(Date(timeIntervalSinceReferenceDate: seconds)) }

    @Test func stringsOrderAsTheirBytes() {
        expectAgreement(Self.strings.map { .string($0) } + [.null, nil], "strings")
        // Strings alike in their first 16 bytes, longer than that, are for the values to order.
        let long = String(repeating: "x", count: 16)
        #expect(Internals.sortEntryOrder(.string(long + "a"), .string(long + "b")) == nil)
        #expect(Internals.sortEntryOrder(.string("name-1"), .string("name-2")) == -1)
    }

    @Test func integersBooleansAndDatesOrderWhole() {
        expectAgreement(Self.integers.map { .int($0) } + [.null], "integers")
        expectAgreement([.bool(false), .bool(true), .null], "booleans")
        expectAgreement(Self.seconds.map(date) + [.null], "dates")
        #expect(Internals.sortEntryOrder(date(-0.0), date(0)) == 0)
    }

    @Test func otherKindsAndEmptyLinksAreLeftToTheValues() {
        let others: [_PersistedValue?] = [nil, .double(1), .data(Data([1])), .mixed(.int(1)), .uuid(UUID())]
        for x in others {
            #expect(Internals.sortEntryOrder(x, .int(1)) == nil)
            #expect(Internals.sortEntryOrder(x, .null) == nil)
        }
        #expect(Internals.sortEntryOrder(.string("1"), .int(1)) == nil)
        #expect(Internals.sortEntryOrder(date(.nan), .null) == nil)
    }
}
