import Burrow
import Testing

/// The selection of a sorted page: the page it puts in place is the same as that of a full
/// sort, whatever the input's order, its ties and the page's bounds.
@Suite struct PageSelectionTests {
    /// Indices ordered by `values`, ties by index: the total order results sort by.
    private func order(_ values: [Int]) -> (Int, Int) -> Bool {
        { a, b in values[a] == values[b] ? a < b : values[a] < values[b] }
    }

    private func expectSamePage(_ values: [Int], _ page: Range<Int>, _ comment: Comment) {
        let precedes = order(values)
        let sorted = values.indices.sorted(by: precedes)
        var selected = Array(values.indices)
        Internals.selectPage(page, of: &selected, by: precedes)
        let kept = page.clamped(to: sorted.indices)
        #expect(Array(selected[kept]) == Array(sorted[kept]), comment)
        #expect(selected.sorted() == Array(values.indices), "nothing lost or doubled: \(comment)")
    }

    @Test func randomInputsGiveTheSortsPage() {
        var generator = SplitMix64(seed: 7)
        for round in 0..<300 {
            let count = Int(generator.next() % 400)
            let spread = 1 + Int(generator.next() % 50)
            let values = (0..<count).map { _ in Int(generator.next() % UInt64(spread)) }
            let start = count == 0 ? 0 : Int(generator.next() % UInt64(count + 5))
            let length = Int(generator.next() % 40)
            expectSamePage(values, start..<start + length, "round \(round): \(count) values, page \(start)..<\(start + length)")
        }
    }

    @Test func ordersThatDefeatSimplePivotsStillGiveThePage() {
        let count = 5_000
        let shapes: [(String, [Int])] = [
            ("ascending", Array(0..<count)), ("descending", Array((0..<count).reversed())), ("all equal", Array(repeating: 3, count: count)),
            ("organ pipe", (0..<count).map { min($0, count - $0) }), ("sawtooth", (0..<count).map { $0 % 17 }),
            ("two values", (0..<count).map { $0 % 2 }),
        ]
        for (name, values) in shapes {
            for page in [0..<20, count / 2..<count / 2 + 20, count - 3..<count + 10, 0..<count, 1..<count - 1] {
                expectSamePage(values, page, "\(name), page \(page)")
            }
        }
    }

    @Test func emptyAndOutOfRangePagesChangeNothing() {
        var none: [Int] = []
        Internals.selectPage(0..<10, of: &none) { $0 < $1 }
        #expect(none.isEmpty)
        var three = [2, 0, 1]
        Internals.selectPage(5..<9, of: &three) { $0 < $1 }
        #expect(three == [2, 0, 1])
        Internals.selectPage(1..<1, of: &three) { $0 < $1 }
        #expect(three == [2, 0, 1])
        Internals.selectPage(1..<2, of: &three) { $0 < $1 }
        #expect(three[1] == 1)
    }
}
