import Burrow
@testable import LMDB
import Foundation
import Testing

/// Notifications of sectioned results and of one section: realm-core's index paths and
/// section changes, checked on known writes and by replaying random ones.
@Suite struct SectionedResultsNotificationTests {
    let directory = TestDirectory()

    func realmWithBooks(_ titles: [String] = ["banana", "box", "apple", "chalk"]) throws -> Realm {
        let realm = try Realm(configuration: directory.configuration(objectTypes: [Book.self, BookOwner.self]))
        try realm.write {
            for (id, title) in titles.enumerated() { realm.add(Book(value: ["id": id, "title": title])) }
        }
        return realm
    }

    func describe<C>(_ change: SectionedResultsChange<C>) -> String {
        switch change {
        case .initial: return "initial"
        case .update(_, let deletions, let insertions, let modifications, let sectionsToInsert, let sectionsToDelete):
            let paths = { (paths: [IndexPath]) in paths.map { "\($0.section).\($0.item)" }.joined(separator: " ") }
            return "del[\(paths(deletions))] ins[\(paths(insertions))] mod[\(paths(modifications))] "
                + "+s[\(sectionsToInsert.map(String.init).joined(separator: " "))] -s[\(sectionsToDelete.map(String.init).joined(separator: " "))]"
        }
    }

    @Test func changesAreIndexPathsAndSections() throws {
        let realm = try realmWithBooks()
        let books = realm.objects(Book.self)
        var seen: [String] = []
        var counts: [Int] = []
        let token = books.sectioned(by: \.firstLetter).observe(keyPaths: [\.title]) { change in
            seen.append(describe(change))
            if case .initial(let sections) = change { counts.append(sections.count) }
            if case .update(let sections, _, _, _, _, _) = change { counts.append(sections.count) }
        }
        realm.refresh()
        #expect(seen == ["initial"])
        // a: apple; b: banana box; c: chalk → b: bog; c: chalk; z: zebra
        try realm.write {
            realm.delete(books.filter("title IN {'banana', 'apple'}"))
            books.filter("title == 'box'").first!.title = "bog"
            realm.add(Book(value: ["id": 10, "title": "zebra"]))
        }
        #expect(seen.last == "del[1.0 1.1] ins[0.0 2.0] mod[] +s[2] -s[0]")
        // A modification that keeps the row where it is.
        try realm.write {
            books.filter("title == 'bog'").first!.title = "bogg"
            books.filter("title == 'chalk'").first!.pages = 1   // not a key path observed
        }
        #expect(seen.last == "del[] ins[] mod[0.0] +s[] -s[]")
        // A change of an unobserved property alone is not reported.
        try realm.write { books.filter("title == 'chalk'").first!.pages = 2 }
        #expect(seen.count == 3)
        #expect(counts == [3, 3, 3])
        token.invalidate()
    }

    @Test func aSectionHearsOnlyOfItself() throws {
        let realm = try realmWithBooks()
        let books = realm.objects(Book.self)
        let sections = books.sectioned(by: \.firstLetter)
        var aSeen: [String] = [], bSeen: [String] = []
        let aToken = sections[0].observe(keyPaths: [\.title]) { aSeen.append(describe($0)) }
        let bToken = sections[1].observe(keyPaths: [\.title]) { change in
            bSeen.append(describe(change))
            if case .update(let section, _, _, _, _, _) = change, !section.isInvalidated { bSeen.append("count \(section.count)") }
        }
        realm.refresh()
        try realm.write { realm.delete(books.filter("title IN {'banana', 'apple'}")) }
        #expect(aSeen == ["initial", "del[] ins[] mod[] +s[] -s[0]"])
        #expect(bSeen == ["initial", "del[1.0] ins[] mod[] +s[] -s[]", "count 1"])
        // b: box → b: bag bog
        try realm.write {
            books.filter("title == 'box'").first!.title = "bog"
            realm.add(Book(value: ["id": 10, "title": "bag"]))
        }
        #expect(aSeen.count == 2)
        #expect(bSeen.suffix(2) == ["del[0.0] ins[0.0 0.1] mod[] +s[] -s[]", "count 2"])
        try realm.write { realm.add(Book(value: ["id": 11, "title": "app"])) }
        #expect(aSeen.last == "del[] ins[0.0] mod[] +s[0] -s[]")
        #expect(bSeen.count == 5)
        withExtendedLifetime((aToken, bToken)) {}
    }

    @Test func aKeyThatReadsAnUnsortedPropertyStillMovesRows() throws {
        // The key reads `read`, the sort `title`: a change of `read` moves a row between
        // sections without changing the results' order, and is reported as a move even though
        // the observed key paths do not count it as a modification.
        let realm = try realmWithBooks()
        let sections = realm.objects(Book.self).sectioned(by: { $0.read ? "read" : "unread" }, sortDescriptors: [SortDescriptor(keyPath: "title")])
        var seen: [String] = []
        let token = sections.observe(keyPaths: ["pages"]) { seen.append(describe($0)) }
        realm.refresh()
        try realm.write { realm.objects(Book.self).filter("title == 'box'").first!.read = true }
        #expect(seen.last == "del[0.2] ins[1.0] mod[] +s[1] -s[]")
        withExtendedLifetime(token) {}
    }

    @Test func sectionsOfAListOfValuesReportValuesLeavingAndJoining() throws {
        let realm = try realmWithBooks()
        let book = realm.objects(Book.self).first!
        try realm.write { book.words.append(objectsIn: ["bee", "ant", "bat"]) }
        var seen: [String] = []
        let token = book.words.sectioned(by: { String($0.prefix(1)) }).observe { seen.append(describe($0)) }
        realm.refresh()
        // a: ant; b: bat bee → a: ant; b: bat bee bus; c: cow
        try realm.write { book.words.append(objectsIn: ["cow", "bus"]) }
        #expect(seen.last == "del[] ins[1.2 2.0] mod[] +s[2] -s[]")
        try realm.write { book.words.remove(at: 1) }  // ant
        #expect(seen.last == "del[] ins[] mod[] +s[] -s[0]")
        try realm.write { book.pages = 3 }
        #expect(seen.count == 3)
        withExtendedLifetime(token) {}
    }

    @Test func queueObservationAndAsyncSequence() async throws {
        let realm = try realmWithBooks()
        let queue = DispatchQueue(label: "sections")
        let events = Locked<[String]>([])
        let arrived = DispatchSemaphore(value: 0)
        let token = realm.objects(Book.self).sectioned(by: \.firstLetter).observe(on: queue) { change in
            dispatchPrecondition(condition: .onQueue(queue))
            switch change {
            case .initial(let sections): events.withLock { $0.append("initial \(sections.allKeys)") }
            case .update(let sections, _, let insertions, _, let sectionsToInsert, _):
                events.withLock { $0.append("update \(sections.allKeys) \(insertions) \(Array(sectionsToInsert))") }
            }
            arrived.signal()
        }
        #expect(arrived.wait(timeout: .now() + 60) == .success)
        try realm.write { realm.add(Book(value: ["id": 10, "title": "zebra"])) }
        #expect(arrived.wait(timeout: .now() + 60) == .success)
        #expect(events.withLock { $0 } == ["initial [Optional(\"a\"), Optional(\"b\"), Optional(\"c\")]",
                                           "update [Optional(\"a\"), Optional(\"b\"), Optional(\"c\"), Optional(\"z\")] [[3, 0]] [3]"])
        token.invalidate()

        let configuration = realm.configuration
        let stream = realm.objects(Book.self).sectioned(by: \.firstLetter).changes
        var iterator = stream.makeAsyncIterator()
        guard case .initial(let first)? = await iterator.next() else { Issue.record("no initial notification"); return }
        #expect(first.isFrozen && first.count == 4)
        onAnotherThread {
            let other = try! Realm(configuration: configuration)
            try! other.write { other.delete(other.objects(Book.self).filter("title == 'zebra'")) }
        }
        guard case .update(let after, _, _, _, _, let sectionsToDelete)? = await iterator.next() else { Issue.record("no update"); return }
        #expect(after.allKeys == ["a", "b", "c"])
        #expect(Array(sectionsToDelete) == [3])
    }

    @Test func aSilentWriteIsTakenInWithoutAReport() throws {
        let realm = try realmWithBooks()
        var seen: [String] = []
        let token = realm.objects(Book.self).sectioned(by: \.firstLetter).observe { seen.append(describe($0)) }
        realm.refresh()
        try realm.write(withoutNotifying: [token]) { realm.add(Book(value: ["id": 10, "title": "zebra"])) }
        #expect(seen == ["initial"])
        try realm.write { realm.add(Book(value: ["id": 11, "title": "zoo"])) }
        #expect(seen.last == "del[] ins[3.1] mod[] +s[] -s[]")
        withExtendedLifetime(token) {}
    }

    @Test func observingFrozenSectionsOrInsideAWriteTraps() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let directory = TestDirectory()
            let realm = try! Realm(configuration: directory.configuration(objectTypes: [Book.self, BookOwner.self]))
            _ = realm.objects(Book.self).sectioned(by: \.title).freeze().observe { _ in }
        }.map { expectMessage($0, "Frozen Realms do not change and do not have change notifications.") }
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let directory = TestDirectory()
            let realm = try! Realm(configuration: directory.configuration(objectTypes: [Book.self, BookOwner.self]))
            try! realm.write { _ = realm.objects(Book.self).sectioned(by: \.title).observe { _ in } }
        }.map { expectMessage($0, "Cannot register notification blocks from within write transactions.") }
    }

    /// The sections as a table view holds them: keys, and the ids of the rows of each.
    struct Mirror: Equatable {
        var sections: [(key: String, ids: [Int])]

        init(_ sections: SectionedResults<String, Book>) {
            self.sections = sections.map { ($0.key, $0.map(\.id)) }
        }

        /// Applies a change as a table view's batch update does: deletions in old positions
        /// first (rows, then sections), then insertions in new positions (sections, then rows,
        /// each taking the id the new version has there).
        mutating func apply(_ change: SectionedResultsChange<SectionedResults<String, Book>>) {
            guard case .update(let now, let deletions, let insertions, let modifications, let sectionsToInsert, let sectionsToDelete) = change else { return }
            for path in modifications { #expect(!sectionsToDelete.contains(path.section) && path.item < sections[path.section].ids.count) }
            for path in deletions.sorted(by: >) { sections[path.section].ids.remove(at: path.item) }
            for section in sectionsToDelete.reversed() { sections.remove(at: section) }
            for section in sectionsToInsert { sections.insert((now[section].key, []), at: section) }
            for path in insertions.sorted() { sections[path.section].ids.insert(now[path].id, at: path.item) }
        }

        static func == (lhs: Mirror, rhs: Mirror) -> Bool {
            lhs.sections.map(\.key) == rhs.sections.map(\.key) && lhs.sections.map(\.ids) == rhs.sections.map(\.ids)
        }
    }

    @Test(arguments: [false, true])
    func randomWritesReplayOntoTheSections(filtered: Bool) throws {
        let realm = try Realm(configuration: directory.configuration(objectTypes: [Book.self, BookOwner.self]))
        var generator = SystemRandomNumberGenerator()
        let letters = ["a", "b", "c", "d", "e"]
        var nextID = 0
        func randomTitle() -> String { letters.randomElement(using: &generator)! + String(Int.random(in: 0..<50, using: &generator)) }
        try realm.write {
            for _ in 0..<60 {
                realm.add(Book(value: ["id": nextID, "title": randomTitle(), "read": Bool.random()]))
                nextID += 1
            }
        }
        // The key reads the title's letter and `read`; the sort is by title then id.
        let sections = realm.objects(Book.self).sectioned(by: { String($0.title.prefix(1)) + ($0.read ? "+" : "-") },
                                                           sortDescriptors: [SortDescriptor(keyPath: "title"), SortDescriptor(keyPath: "id")])
        var mirror = Mirror(sections)
        var updates = 0
        var last = ""
        let token = sections.observe(keyPaths: filtered ? ["pages"] : nil) { change in
            last = describe(change) + " before \(mirror.sections)"
            mirror.apply(change)
            if case .update = change { updates += 1 }
        }
        realm.refresh()
        for _ in 0..<150 {
            try realm.write {
                let books = realm.objects(Book.self)
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    switch Int.random(in: 0..<5, using: &generator) {
                    case 0:
                        realm.add(Book(value: ["id": nextID, "title": randomTitle()]))
                        nextID += 1
                    case 1: if let book = books.randomElement() { realm.delete(book) }
                    case 2: books.randomElement()?.title = randomTitle()
                    case 3: books.randomElement()?.read.toggle()
                    default: books.randomElement()?.pages += 1
                    }
                }
            }
            let expected = Mirror(realm.objects(Book.self).sectioned(by: { String($0.title.prefix(1)) + ($0.read ? "+" : "-") },
                                                                          sortDescriptors: [SortDescriptor(keyPath: "title"), SortDescriptor(keyPath: "id")]))
            #expect(mirror == expected, "after \(last)")
            if mirror != expected { break }
        }
        #expect(updates > 100)
        token.invalidate()
    }
}
