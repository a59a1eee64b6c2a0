import Burrow
import Foundation
import Testing

final class TemplateNote: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted(indexed: true) var title = ""
    @Persisted var body = ""
    @Persisted var rank = 0
    @Persisted var maybe: Int?
    @Persisted var tags: List<String>
}

final class TemplateEvent: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var at = Date()
    @Persisted var score = 0.0
    @Persisted var token = UUID()
    @Persisted var small: Int32 = 0
    @Persisted var label = ""
    @Persisted var blob = Data()
}

/// A `#Predicate` built again and again with other constants (in a loop, a function) is
/// translated once and bound each time: every binding must select what the string form selects
/// with the same constants, whatever the constants are and whichever key paths and operators a
/// predicate built at run time uses.
@Suite struct FoundationPredicateTemplateTests {
    let directory = TestDirectory()

    private func notes() throws -> Results<TemplateNote> {
        let realm = try directory.realm()
        try realm.write {
            for index in 0..<6 {
                realm.add(TemplateNote(value: ["id": index, "title": "t\(index)", "body": "b\(5 - index)", "rank": index,
                                               "maybe": index < 3 ? index : nil, "tags": index % 2 == 0 ? [] : ["x"]]))
            }
        }
        return realm.objects(TemplateNote.self)
    }

    /// The ids `predicate` selects, checked against the string form's.
    @discardableResult
    private func ids(_ notes: Results<TemplateNote>, _ predicate: Predicate<TemplateNote>, sameAs format: String, _ args: Any...,
                     sourceLocation: SourceLocation = #_sourceLocation) throws -> [Int] {
        let translated = try notes.filter(predicate).map(\.id)
        let expected = notes.filter(try QueryPredicate(format: format, argumentArray: args)).map(\.id)
        #expect(translated == expected, "\(format) \(args)", sourceLocation: sourceLocation)
        return translated
    }

    @Test func aPredicateBuiltInALoopSelectsWhatTheStringFormSelectsForEveryConstant() throws {
        let notes = try notes()
        for index in [3, 0, 5, 3, 9] {
            let title = "t\(index)"
            let selected = try ids(notes, #Predicate { $0.title == title }, sameAs: "title == %@", title)
            #expect(selected == (index < 6 ? [index] : []))
            #expect(try notes.filter(#Predicate { $0.title == title }).count == selected.count)
        }
        let title = "t1"
        #expect(Internals.hasPredicateTemplate(for: #Predicate<TemplateNote> { $0.title == title }))
        #expect(Internals.readsPredicateLeavesInPlace(for: #Predicate<TemplateNote> { $0.title == title }))
        for (low, high) in [(1, 4), (0, 2), (4, 6), (2, 2), (5, 1)] {
            try ids(notes, #Predicate { $0.rank >= low && $0.rank < high }, sameAs: "rank >= %@ AND rank < %@", low, high)
            try ids(notes, #Predicate { (low...high).contains($0.rank) }, sameAs: "rank BETWEEN {%@, %@}", low, high)
        }
        for prefix in ["t", "b", "t4", ""] {
            try ids(notes, #Predicate { $0.body.starts(with: prefix) || $0.title.starts(with: prefix) },
                    sameAs: "body BEGINSWITH %@ OR title BEGINSWITH %@", prefix, prefix)
        }
    }

    @Test func keyPathsAndOperatorsChosenAtRunTimeAreTold() throws {
        let notes = try notes()
        func equal(_ keyPath: any KeyPath<TemplateNote, String> & Sendable, _ value: String) -> Predicate<TemplateNote> {
            Predicate { note in
                PredicateExpressions.build_Equal(lhs: PredicateExpressions.build_KeyPath(root: PredicateExpressions.build_Arg(note), keyPath: keyPath),
                                                 rhs: PredicateExpressions.build_Arg(value))
            }
        }
        func compare(_ op: PredicateExpressions.ComparisonOperator, _ value: Int) -> Predicate<TemplateNote> {
            Predicate { note in
                PredicateExpressions.build_Comparison(lhs: PredicateExpressions.build_KeyPath(root: PredicateExpressions.build_Arg(note), keyPath: \.rank),
                                                      rhs: PredicateExpressions.build_Arg(value), op: op)
            }
        }
        #expect(try ids(notes, equal(\.title, "t1"), sameAs: "title == 't1'") == [1])
        #expect(try ids(notes, equal(\.title, "t2"), sameAs: "title == 't2'") == [2])
        #expect(try ids(notes, equal(\.body, "b1"), sameAs: "body == 'b1'") == [4])
        #expect(try ids(notes, equal(\.title, "t3"), sameAs: "title == 't3'") == [3])
        #expect(try ids(notes, compare(.lessThan, 2), sameAs: "rank < 2") == [0, 1])
        #expect(try ids(notes, compare(.lessThan, 3), sameAs: "rank < 3") == [0, 1, 2])
        #expect(try ids(notes, compare(.greaterThan, 2), sameAs: "rank > 2") == [3, 4, 5])
        #expect(try ids(notes, compare(.greaterThanOrEqual, 5), sameAs: "rank >= 5") == [5])
        // Both are bound by reading their leaves in place, key paths and operators included.
        #expect(Internals.readsPredicateLeavesInPlace(for: equal(\.title, "t0")))
        #expect(Internals.readsPredicateLeavesInPlace(for: compare(.lessThan, 0)))
        // Whatever was bound last, each binds its own key path and operator again.
        for _ in 0..<2 {
            #expect(try ids(notes, equal(\.body, "b0"), sameAs: "body == 'b0'") == [5])
            #expect(try ids(notes, equal(\.title, "t0"), sameAs: "title == 't0'") == [0])
            #expect(try ids(notes, compare(.lessThanOrEqual, 1), sameAs: "rank <= 1") == [0, 1])
            #expect(try ids(notes, compare(.greaterThan, 1), sameAs: "rank > 1") == [2, 3, 4, 5])
        }
    }

    @Test func constantsOfEveryPlainTypeAreReadInPlace() throws {
        let realm = try directory.realm()
        let base = Date(timeIntervalSince1970: 1_000_000)
        let ids = (0..<4).map { _ in UUID() }
        try realm.write {
            for index in 0..<4 {
                realm.add(TemplateEvent(value: ["id": index, "at": base.addingTimeInterval(Double(index) * 60), "score": Double(index) / 2,
                                                "token": ids[index], "small": Int32(index), "label": "é\(index)🦫", "blob": Data([UInt8(index)])]))
            }
        }
        let events = realm.objects(TemplateEvent.self)
        for index in [2, 0, 3, 1] {
            let at = base.addingTimeInterval(Double(index) * 60), score = Double(index) / 2, token = ids[index]
            let small = Int32(index), label = "é\(index)🦫", blob = Data([UInt8(index)])
            let selected = try events.filter(#Predicate { $0.at == at && $0.score == score && $0.token == token && $0.small == small
                && $0.label == label && $0.blob == blob }).map(\.id)
            #expect(Array(selected) == [index])
            let later = try events.filter(#Predicate { $0.at > at && $0.score >= score }).map(\.id)
            #expect(Array(later) == Array(index + 1..<4))
        }
        let at = base, score = 0.0, token = ids[0], small = Int32(0), label = "", blob = Data()
        #expect(Internals.readsPredicateLeavesInPlace(for: #Predicate<TemplateEvent> {
            $0.at == at && $0.score == score && $0.token == token && $0.small == small && $0.label == label && $0.blob == blob
        }))
    }

    @Test func aConstantFoldedIntoTheQueryIsReadAgainEachTime() throws {
        let notes = try notes()
        // `captured != nil` folds into a constant condition; `isEmpty` brings a literal 0 of its
        // own, which must not be taken for the constant 0.
        for value in [0, nil, 0, 7, nil] as [Int?] {
            let captured = value
            let selected = try notes.filter(#Predicate { $0.tags.isEmpty && captured != nil }).map(\.id)
            #expect(Array(selected) == (value == nil ? [] : [0, 2, 4]), "captured \(String(describing: value))")
        }
        for flag in [true, false, true] {
            try ids(notes, #Predicate { ($0.rank > 2) == flag }, sameAs: flag ? "rank > 2" : "NOT (rank > 2)")
        }
    }

    @Test func nilAndValuesOfAnOptionalConstantBindAlike() throws {
        let notes = try notes()
        for value in [1, nil, 2, nil, 0] as [Int?] {
            let selected = try notes.filter(#Predicate { $0.maybe == value }).map(\.id)
            #expect(Array(selected) == (value.map { [$0] } ?? [3, 4, 5]), "maybe == \(String(describing: value))")
        }
        for value in [nil, 1] as [Int?] {
            let selected = try notes.filter(#Predicate { $0.maybe != value }).map(\.id)
            #expect(Array(selected) == (value == nil ? [0, 1, 2] : [0, 2, 3, 4, 5]), "maybe != \(String(describing: value))")
        }
    }

    @Test func equalConstantsAndCoalescedDefaultsStillTranslate() throws {
        let notes = try notes()
        for (a, b) in [(2, 2), (1, 4), (3, 3)] {
            try ids(notes, #Predicate { $0.rank >= a && $0.rank <= b }, sameAs: "rank >= %@ AND rank <= %@", a, b)
        }
        for (fallback, limit) in [(9, 1), (0, 1), (9, 5)] {
            // Objects without `maybe` match where the default does.
            let selected = try notes.filter(#Predicate { ($0.maybe ?? fallback) < limit }).map(\.id)
            let expected = (0..<6).filter { ($0 < 3 ? $0 : fallback) < limit }
            #expect(Array(selected) == expected, "(maybe ?? \(fallback)) < \(limit)")
        }
    }
}
