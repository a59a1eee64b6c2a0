import Burrow
@testable import LMDB
import Foundation
import Testing

final class Book: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var title = ""
    @Persisted var pages = 0
    @Persisted var read = false
    @Persisted var words = List<String>()
    @Persisted var tags = MutableSet<String>()
    @Persisted var notes = List<String?>()
    @Persisted var owner: BookOwner?

    /// The first letter of the title: a computed property that reads one persisted property.
    var firstLetter: String? { title.first.map { String($0) } }
}

final class BookOwner: Object {
    @Persisted var name = ""
}

/// Sectioned results: sections formed, read, frozen and thawed, as RealmSwift's are.
@Suite struct SectionedResultsTests {
    let directory = TestDirectory()

    func realmWithBooks(_ titles: [String] = ["banana", "box", "apple", "chalk"]) throws -> Realm {
        let realm = try Realm(configuration: directory.configuration(objectTypes: [Book.self, BookOwner.self]))
        try realm.write {
            for (id, title) in titles.enumerated() { realm.add(Book(value: ["id": id, "title": title, "pages": id * 10])) }
        }
        return realm
    }

    func contents<Key>(_ sections: SectionedResults<Key, Book>) -> [String] {
        sections.map { section in "\((section.key as? String?)?.flatMap { $0 } ?? "\(section.key)"): " + section.map(\.title).joined(separator: " ") }
    }

    @Test func aComputedKeyPathSortsByThePropertyItReadsAndSectionsByItsValue() throws {
        let realm = try realmWithBooks()
        let books = realm.objects(Book.self)
        for ascending in [true, false] {
            let byKeyPath = books.sectioned(by: \.firstLetter, ascending: ascending)
            let bySorts = books.sectioned(by: \.firstLetter, sortDescriptors: [SortDescriptor(keyPath: "title", ascending: ascending)])
            let byBlock = books.sectioned(by: { String($0.title.first!) }, sortDescriptors: [SortDescriptor(keyPath: "title", ascending: ascending)])
            let expected = ascending ? ["a: apple", "b: banana box", "c: chalk"] : ["c: chalk", "b: box banana", "a: apple"]
            #expect(contents(byKeyPath) == expected)
            #expect(contents(bySorts) == expected)
            #expect(contents(byBlock) == expected)
            #expect(byKeyPath.allKeys == (ascending ? ["a", "b", "c"] : ["c", "b", "a"]))
        }
    }

    @Test func sectionsAreReadByPositionIndexPathAndIteration() throws {
        let realm = try realmWithBooks()
        let sections = realm.objects(Book.self).sectioned(by: \.firstLetter)
        #expect(sections.count == 3)
        #expect(sections[1].key == "b")
        #expect(sections[1].id == "b")
        #expect(sections[1].count == 2)
        #expect(sections[1][1].title == "box")
        #expect(sections[IndexPath(item: 0, section: 2)].title == "chalk")
        #expect(sections[1].map(\.title) == ["banana", "box"])
        #expect(Array(sections.reversed()).map(\.key) == ["c", "b", "a"])
        #expect(sections[0].realm != nil && !sections.isFrozen && !sections.isInvalidated)
        let path = IndexPath(item: 4, section: 7)
        #expect(path.item == 4 && path.section == 7)
    }

    @Test func sectionsOfAnIntegerPropertyAndOfNothing() throws {
        let realm = try realmWithBooks()
        try realm.write { realm.objects(Book.self).filter("title BEGINSWITH 'b'").forEach { $0.pages = 7 } }
        let byPages = realm.objects(Book.self).sectioned(by: \.pages, ascending: false)
        #expect(byPages.allKeys == [30, 20, 7])
        #expect(byPages[2].map(\.title) == ["banana", "box"])
        let none = realm.objects(Book.self).filter("pages > 1000").sectioned(by: \.pages)
        #expect(none.isEmpty)
        #expect(none.allKeys.isEmpty)
        #expect(Array(none).isEmpty)
    }

    @Test func elementsWithOneKeyShareASectionWhereverTheSortPutsThem() throws {
        // The first sort descriptor should decide the key; when it does not, a section still
        // holds every element with its key, in the results' order (realm-core's rule).
        let realm = try realmWithBooks(["a1", "b1", "a2", "b2"])
        let sections = realm.objects(Book.self).sectioned(by: { $0.pages % 20 == 0 ? "even" : "odd" },
                                                           sortDescriptors: [SortDescriptor(keyPath: "title")])
        #expect(contents(sections) == ["even: a1 a2", "odd: b1 b2"])
    }

    @Test func valuesOfListsAndSetsAreSectionedByTheirOwnOrder() throws {
        let realm = try realmWithBooks()
        let book = realm.objects(Book.self).first!
        try realm.write {
            book.words.append(objectsIn: ["banana", "box", "apple", "chalk", "Émile", "ärger"])
            book.tags.insert(objectsIn: ["banana", "box", "apple", "chalk"])
            book.notes.append(objectsIn: ["bee", nil, "ant", nil])
        }
        let words = book.words.sectioned(by: { String($0.first!) }, ascending: true)
        #expect(words.allKeys == ["a", "b", "c", "É", "ä"])
        #expect(words[1].map { $0 } == ["banana", "box"])
        let descending = book.tags.sectioned(by: { String($0.first!) }, ascending: false)
        #expect(descending.allKeys == ["c", "b", "a"])
        #expect(descending[1].map { $0 } == ["box", "banana"])
        let notes = book.notes.sectioned(by: { $0.map { String($0.first!) } }, ascending: true)
        #expect(notes.allKeys == [nil, "a", "b"])
        #expect(notes[0].count == 2)
        let anyCollection = AnyRealmCollection(book.words).sectioned(by: { $0.count }, ascending: true)
        // Sections come in the order of their first elements: the sort is by value, not by key.
        #expect(anyCollection.allKeys == [5, 6, 3])
    }

    @Test func sectionsFollowTheRealmUntilFrozen() throws {
        let realm = try realmWithBooks()
        let sections = realm.objects(Book.self).sectioned(by: \.firstLetter)
        let frozen = sections.freeze()
        let frozenSection = sections[0].freeze()
        try realm.write {
            realm.add(Book(value: ["id": 10, "title": "zebra"]))
            realm.delete(realm.objects(Book.self).filter("title == 'apple'"))
        }
        #expect(sections.allKeys == ["b", "c", "z"])
        #expect(frozen.isFrozen && frozenSection.isFrozen)
        #expect(frozen.allKeys == ["a", "b", "c"])
        #expect(frozenSection.map(\.title) == ["apple"])
        let thawed = try #require(frozen.thaw())
        #expect(!thawed.isFrozen)
        #expect(thawed.allKeys == ["b", "c", "z"])
        // A section is its key: once no element has it, it is invalidated.
        let bSection = sections[0]
        #expect(bSection.key == "b")
        try realm.write { realm.delete(realm.objects(Book.self).filter("title BEGINSWITH 'b'")) }
        #expect(bSection.isInvalidated)
        try realm.write { realm.add(Book(value: ["id": 11, "title": "bog"])) }
        #expect(!bSection.isInvalidated)
        #expect(bSection.map(\.title) == ["bog"])
    }

    @Test func frozenSectionsAreReadFromManyThreadsAtOnce() throws {
        let realm = try realmWithBooks((0..<200).map { "t\($0 % 7)-\($0)" })
        let frozen = realm.objects(Book.self).sectioned(by: { String($0.title.prefix(2)) }, sortDescriptors: [SortDescriptor(keyPath: "title")]).freeze()
        let expected = frozen.map { $0.count }
        let sendable = Frozen(frozen)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            #expect(sendable.value.map { $0.count } == expected)
        }
        #expect(expected.reduce(0, +) == 200)
    }

    @Test func aReferenceCarriesSectionsToAnotherThread() throws {
        let realm = try realmWithBooks()
        let reference = ThreadSafeReference(to: realm.objects(Book.self).sectioned(by: \.firstLetter))
        let configuration = realm.configuration
        let keys = Locked<[String?]>([])
        onAnotherThread {
            let other = try! Realm(configuration: configuration)
            keys.withLock { $0 = other.resolve(reference)!.allKeys }
        }
        #expect(keys.withLock { $0 } == ["a", "b", "c"])
    }

    @Test func equalityIsTheSameSectionedResults() throws {
        let realm = try realmWithBooks()
        let sections = realm.objects(Book.self).sectioned(by: \.firstLetter)
        let again = realm.objects(Book.self).sectioned(by: \.firstLetter)
        #expect(sections == sections)
        #expect(sections != again)
        #expect(sections[0] == sections[0])
        #expect(sections[0] != sections[1])
    }

    @Test func misuseTraps() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let directory = TestDirectory()
            let realm = try! Realm(configuration: directory.configuration(objectTypes: [Book.self, BookOwner.self]))
            _ = realm.objects(Book.self).sectioned(sortDescriptors: []) { $0.title }
        }.map { expectMessage($0, "There must be at least one SortDescriptor when using SectionedResults.") }
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let directory = TestDirectory()
            let realm = try! Realm(configuration: directory.configuration(objectTypes: [Book.self, BookOwner.self]))
            _ = realm.objects(Book.self).sectioned(by: \.title, sortDescriptors: [])
        }.map { expectMessage($0, "Can not section Results with empty sortDescriptor parameter.") }
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let directory = TestDirectory()
            let realm = try! Realm(configuration: directory.configuration(objectTypes: [Book.self, BookOwner.self]))
            _ = realm.objects(Book.self).sectioned(by: \.title, sortDescriptors: [SortDescriptor(keyPath: "pages")])
        }.map { expectMessage($0, "The section key path must match the primary sort descriptor.") }
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let directory = TestDirectory()
            let realm = try! Realm(configuration: directory.configuration(objectTypes: [Book.self, BookOwner.self]))
            _ = realm.objects(Book.self).sectioned(by: { $0.owner }, sortDescriptors: [SortDescriptor(keyPath: "title")])
        }.map { expectMessage($0, "Links are not supported as section keys.") }
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let directory = TestDirectory()
            let realm = try! Realm(configuration: directory.configuration(objectTypes: [Book.self, BookOwner.self]))
            try! realm.write { realm.add(Book(value: ["title": "a"])) }
            _ = realm.objects(Book.self).sectioned(by: \.title)[1]
        }.map { expectMessage($0, "Index 1 is out of bounds") }
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let directory = TestDirectory()
            let realm = try! Realm(configuration: directory.configuration(objectTypes: [Book.self, BookOwner.self]))
            try! realm.write { realm.add(Book(value: ["title": "a"])) }
            let section = realm.objects(Book.self).sectioned(by: \.title)[0]
            try! realm.write { realm.deleteAll() }
            _ = section.count
        }.map { expectMessage($0, "The section with key 'a' no longer exists") }
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = IndexPath(indexes: [1, 2, 3]).section
        }.map { expectMessage($0, "Invalid index path for use with sections") }
    }
}
