import Burrow
import Foundation
import Testing

private final class Ticket: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var rank = 0
    @Persisted var isOpen = true
    @Persisted var note = ""
}

private final class Board: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var tickets: List<Ticket>
}

/// Thousands of random writes, each checked against a model: applying the reported deletions
/// and insertions to the previous contents gives the new contents, and exactly the objects that
/// stayed and were written are reported modified.
@Suite struct ChangeFuzzTests {
    let directory = TestDirectory()

    /// `old` with `deletions` removed, the new elements at `insertions` put in, and the elements
    /// of `modifications` (old positions) replaced by what their positions hold now.
    private func applied<T: Equatable>(_ old: [T], deletions: [Int], insertions: [Int], modifications: [Int] = [], new: [T]) -> [T] {
        var result = old.indices.map { (value: old[$0], oldIndex: Optional($0)) }
        for index in deletions.reversed() { result.remove(at: index) }
        for index in insertions { result.insert((new[index], nil), at: index) }
        let modified = Set(modifications)
        return result.indices.map { index in
            result[index].oldIndex.map { modified.contains($0) } == true ? new[index] : result[index].value
        }
    }

    @Test func sortedFilteredResultsReportExactlyWhatChanged() throws {
        let realm = try Realm(configuration: directory.configuration(objectTypes: [Ticket.self, Board.self]))
        let results = realm.objects(Ticket.self).filter("isOpen == true").sorted(by: [SortDescriptor(keyPath: "rank"), SortDescriptor(keyPath: "id")])
        var generator = SystemRandomNumberGenerator()
        var previous: [Int] = []
        var written = Set<Int>()
        var failures = 0
        var updates = 0
        let token = results.observe { change in
            switch change {
            case .initial(let tickets): previous = tickets.map(\.id)
            case .update(let tickets, let deletions, let insertions, let modifications):
                updates += 1
                let now = tickets.map(\.id)
                if applied(previous, deletions: deletions, insertions: insertions, new: now) != now { failures += 1 }
                let deleted = Set(deletions)
                let expected = previous.indices.filter { !deleted.contains($0) && written.contains(previous[$0]) }
                if modifications != expected { failures += 1 }
                previous = now
            case .error: failures += 1
            }
        }
        realm.refresh()
        var nextID = 1
        for _ in 0..<800 {
            written = []
            try realm.write {
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    let all = realm.objects(Ticket.self)
                    switch Int.random(in: 0..<13, using: &generator) {
                    case 0...2:
                        realm.add(Ticket(value: ["id": nextID, "rank": Int.random(in: 0..<50, using: &generator),
                                                 "isOpen": Bool.random(using: &generator)]))
                        nextID += 1
                    // Runs of consecutive objects (the change log records them as one event).
                    case 10:
                        for _ in 0..<Int.random(in: 2...12, using: &generator) {
                            realm.add(Ticket(value: ["id": nextID, "rank": Int.random(in: 0..<50, using: &generator), "isOpen": true]))
                            nextID += 1
                        }
                    case 11 where all.count > 2:
                        let start = Int.random(in: 0..<all.count, using: &generator)
                        let run = Array(all[start..<min(all.count, start + Int.random(in: 2...8, using: &generator))])
                        let rank = Int.random(in: 0..<50, using: &generator)
                        for ticket in run {
                            ticket.rank = rank
                            written.insert(ticket.id)
                        }
                    case 12 where all.count > 2:
                        let start = Int.random(in: 0..<all.count, using: &generator)
                        let run = Array(all[start..<min(all.count, start + Int.random(in: 2...6, using: &generator))])
                        for ticket in run { written.remove(ticket.id) }
                        realm.delete(run)
                    case 3 where !all.isEmpty:
                        let victim = all[Int.random(in: 0..<all.count, using: &generator)]
                        written.remove(victim.id)
                        realm.delete(victim)
                    case 4...5 where !all.isEmpty:
                        let ticket = all[Int.random(in: 0..<all.count, using: &generator)]
                        ticket.rank = Int.random(in: 0..<50, using: &generator)
                        written.insert(ticket.id)
                    case 6 where !all.isEmpty:
                        let ticket = all[Int.random(in: 0..<all.count, using: &generator)]
                        ticket.isOpen.toggle()
                        written.insert(ticket.id)
                    case 7...9 where !all.isEmpty:
                        let ticket = all[Int.random(in: 0..<all.count, using: &generator)]
                        ticket.note = "n\(Int.random(in: 0..<3, using: &generator))"
                        written.insert(ticket.id)
                    default:
                        break
                    }
                }
            }
        }
        #expect(failures == 0)
        #expect(updates > 400)
        #expect(previous == results.map(\.id))
        token.invalidate()
        expectIntact(directory.file())
    }

    @Test func listsReportExactlyWhatChanged() throws {
        let realm = try Realm(configuration: directory.configuration(objectTypes: [Ticket.self, Board.self]))
        let board = Board(value: ["id": 1])
        try realm.write {
            realm.add(board)
            for id in 1...20 { realm.add(Ticket(value: ["id": id])) }
        }
        let tickets = Array(realm.objects(Ticket.self))
        var generator = SystemRandomNumberGenerator()
        var previous: [Int] = []
        var failures = 0
        let token = board.tickets.observe { change in
            switch change {
            case .initial(let list): previous = list.map(\.id)
            case .update(let list, let deletions, let insertions, let modifications):
                let now = list.map(\.id)
                if applied(previous, deletions: deletions, insertions: insertions, modifications: modifications, new: now) != now { failures += 1 }
                previous = now
            case .error: failures += 1
            }
        }
        realm.refresh()
        for _ in 0..<1_000 {
            try realm.write {
                let list = board.tickets
                switch Int.random(in: 0..<5, using: &generator) {
                case 0, 1: list.append(tickets.randomElement(using: &generator)!)
                case 2 where !list.isEmpty: list.remove(at: Int.random(in: 0..<list.count, using: &generator))
                case 3 where list.count > 1:
                    list.move(from: Int.random(in: 0..<list.count, using: &generator), to: Int.random(in: 0..<list.count, using: &generator))
                case 4 where !list.isEmpty: list[Int.random(in: 0..<list.count, using: &generator)] = tickets.randomElement(using: &generator)!
                default: list.insert(tickets.randomElement(using: &generator)!, at: 0)
                }
            }
        }
        #expect(failures == 0)
        #expect(previous == board.tickets.map(\.id))
        token.invalidate()
        expectIntact(directory.file())
    }
}
