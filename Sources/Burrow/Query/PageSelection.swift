/// Puts in place only the page of a sort that a query keeps: `sorted(…).limit(20, offset: n)`,
/// or `SORT(…) LIMIT(20)`, needs the elements of ranks `n..<n+20`, in order, not the order of
/// all the others. Selection finds them in time linear in the count on average, where sorting
/// everything costs `n log n` comparisons.
///
/// The order must be total (no two elements equal): results sort their ties by object key, so
/// a page is the same as the same positions of a full sort.
///
/// ```swift
/// var order = Array(values.indices)
/// PageSelection.select(10..<30, of: &order) { values[$0] < values[$1] }
/// // order[10..<30] is what order.sorted { values[$0] < values[$1] }[10..<30] would be
/// ```
enum PageSelection {
    /// Orders `elements` by `precedes`: all of them, or with `page`, only those a full sort puts
    /// there (``select(_:of:by:)``). Returns where the ordered elements lie.
    static func order<Element>(_ elements: inout [Element], page: Range<Int>?, by precedes: (Element, Element) -> Bool) -> Range<Int> {
        guard let page else {
            elements.sort(by: precedes)
            return elements.indices
        }
        let kept = page.clamped(to: elements.indices)
        select(kept, of: &elements, by: precedes)
        return kept
    }

    /// The positions a page of `limit` elements from `offset` covers, whatever the limit.
    static func page(offset: Int, limit: Int) -> Range<Int> {
        offset..<offset + min(limit, Int.max - offset)
    }

    /// Rearranges `elements` so that `page` holds, in order, the elements a full sort by
    /// `precedes` would put there; the others are left in some order around it.
    static func select<Element>(_ page: Range<Int>, of elements: inout [Element], by precedes: (Element, Element) -> Bool) {
        let page = page.clamped(to: 0..<elements.count)
        guard !page.isEmpty else { return }
        elements.withUnsafeMutableBufferPointer { buffer in
            // Everything before the page ranks below it, everything after above it.
            if page.lowerBound > 0 { partition(&buffer, 0..<buffer.count, at: page.lowerBound, by: precedes) }
            if page.upperBound < buffer.count { partition(&buffer, page.lowerBound..<buffer.count, at: page.upperBound, by: precedes) }
            buffer[page].sort(by: precedes)
        }
    }

    /// Rearranges `range` of `buffer` so that every element before `split` precedes every
    /// element from `split` on (quickselect). Pivots are medians of three; a range that keeps
    /// splitting badly is sorted instead, so that no input costs more than a sort.
    private static func partition<Element>(_ buffer: inout UnsafeMutableBufferPointer<Element>, _ range: Range<Int>, at split: Int,
                                           by precedes: (Element, Element) -> Bool) {
        var low = range.lowerBound, high = range.upperBound
        var budget = 2 * (Int.bitWidth - range.count.leadingZeroBitCount) + 8
        while high - low > 16 {
            if budget == 0 {
                buffer[low..<high].sort(by: precedes)
                return
            }
            budget -= 1
            let pivot = pivotIndex(in: buffer, low..<high, by: precedes)
            let boundary = partitioned(&buffer, low..<high, pivot: pivot, by: precedes)
            // Elements below `boundary` precede the pivot, which now stands at `boundary`.
            if boundary == split { return }
            if split < boundary { high = boundary } else { low = boundary + 1 }
        }
        buffer[low..<high].sort(by: precedes)
    }

    /// Moves the elements that precede the one at `pivot` before it, the others after it;
    /// returns where the pivot ends.
    private static func partitioned<Element>(_ buffer: inout UnsafeMutableBufferPointer<Element>, _ range: Range<Int>, pivot: Int,
                                             by precedes: (Element, Element) -> Bool) -> Int {
        let last = range.upperBound - 1
        buffer.swapAt(pivot, last)
        var boundary = range.lowerBound
        for index in range.lowerBound..<last where precedes(buffer[index], buffer[last]) {
            buffer.swapAt(index, boundary)
            boundary += 1
        }
        buffer.swapAt(boundary, last)
        return boundary
    }

    /// The index of the median of the first, middle and last elements of `range`.
    private static func pivotIndex<Element>(in buffer: UnsafeMutableBufferPointer<Element>, _ range: Range<Int>,
                                            by precedes: (Element, Element) -> Bool) -> Int {
        let a = range.lowerBound, b = range.lowerBound + range.count / 2, c = range.upperBound - 1
        if precedes(buffer[a], buffer[b]) {
            if precedes(buffer[b], buffer[c]) { return b }
            return precedes(buffer[a], buffer[c]) ? c : a
        }
        if precedes(buffer[a], buffer[c]) { return a }
        return precedes(buffer[b], buffer[c]) ? c : b
    }
}
