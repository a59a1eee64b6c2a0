import Burrow
import Foundation
import Testing

private final class RowLedger: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted(indexed: true) var name = ""
    @Persisted var amount: Double?
    @Persisted var booked = Date(timeIntervalSince1970: 0)
    @Persisted var tags: List<String>
    @Persisted var owner: RowClerk?
}

private final class RowClerk: Object {
    @Persisted(primaryKey: true) var code = ""
    @Persisted var desk: Int?
}

private final class RowNote: Object {
    @Persisted var text = ""
}

/// Whole rows written by stored values, the bulk path of `burrow import`: the same objects,
/// indexes and notifications as `dynamicCreate`, and a taken primary key reported, not trapped.
@Suite struct DynamicRowWriterTests {
    let directory = TestDirectory()
    private let types: [ObjectBase.Type] = [RowLedger.self, RowClerk.self, RowNote.self]

    private func openByName() throws -> Realm {
        _ = try Realm(configuration: directory.configuration(objectTypes: types))
        return try Realm(configuration: directory.configuration(objectTypes: []))
    }

    @Test func rowsAreObjectsWithTheirIndexes() throws {
        let realm = try openByName()
        let booked = Date(timeIntervalSince1970: 1_000)
        let outcomes = try realm.write {
            let ledgers = realm.dynamicRowWriter(for: "RowLedger")
            #expect(ledgers.columnNames == ["id", "name", "amount", "booked", "tags", "owner"])
            let notes = realm.dynamicRowWriter(for: "RowNote")
            return [
                try ledgers.insert([.int(7), .string("Zoë ✓"), .double(2.5), .date(booked), .null, .null]),
                try ledgers.insert([.int(-3), .string(""), .null, .date(booked), .null, .null]),
                try realm.dynamicRowWriter(for: "RowClerk").insert([.string("a"), .int(4)]),
                // A class without a primary key takes every row.
                try notes.insert([.string("one")]),
                try notes.insert([.string("one")]),
            ]
        }
        #expect(outcomes == Array(repeating: .inserted, count: 5))
        let seven = try #require(realm.dynamicObject(ofType: "RowLedger", forPrimaryKey: 7))
        #expect(seven["name"] as? String == "Zoë ✓" && seven["amount"] as? Double == 2.5 && seven["booked"] as? Date == booked)
        #expect((seven["tags"] as? List<String>)?.isEmpty == true && seven["owner"] == nil)
        #expect(realm.dynamicObjects("RowLedger").filter("name == %@", "Zoë ✓").count == 1, "the index has the row")
        #expect(realm.dynamicObjects("RowLedger").sorted(byKeyPath: "id").map { $0["id"] as? Int } == [-3, 7])
        #expect(realm.dynamicObject(ofType: "RowClerk", forPrimaryKey: "a")?["desk"] as? Int == 4)
        #expect(realm.dynamicObjects("RowNote").count == 2)
        let report = try Realm.verifyFile(at: directory.file(), encryptionKey: directory.configuration().encryptionKey)
        #expect(report.isIntact, "\(report)")
    }

    @Test func aTakenPrimaryKeyIsReportedAndNothingIsWritten() throws {
        let realm = try openByName()
        try realm.write {
            realm.dynamicCreate("RowLedger", value: ["id": 1, "name": "first"])
            realm.dynamicCreate("RowClerk", value: ["code": "x"])
        }
        let outcomes = try realm.write {
            // An integer key is the row's key; a string key is found through its index.
            [try realm.dynamicRowWriter(for: "RowLedger").insert([.int(1), .string("second"), .null, .date(Date()), .null, .null]),
             try realm.dynamicRowWriter(for: "RowClerk").insert([.string("x"), .int(9)]),
             try realm.dynamicRowWriter(for: "RowClerk").insert([.string("y"), .null])]
        }
        #expect(outcomes == [.exists, .exists, .inserted])
        #expect(realm.dynamicObject(ofType: "RowLedger", forPrimaryKey: 1)?["name"] as? String == "first")
        #expect(realm.dynamicObjects("RowLedger").filter("name == 'second'").isEmpty, "no index entry was left behind")
        #expect(realm.dynamicObject(ofType: "RowClerk", forPrimaryKey: "x")?["desk"] == nil)
        #expect(realm.dynamicObjects("RowClerk").count == 2)
    }

    @Test func rowsAreUndoneWithTheWriteAndObservedLikeAnyOther() throws {
        let realm = try openByName()
        realm.beginWrite()
        _ = try realm.dynamicRowWriter(for: "RowNote").insert([.string("cancelled")])
        realm.cancelWrite()
        #expect(realm.dynamicObjects("RowNote").isEmpty)

        var insertions: [[Int]] = []
        let token = realm.dynamicObjects("RowNote").observe { change in
            if case .update(_, _, let inserted, _) = change { insertions.append(inserted) }
        }
        defer { token.invalidate() }
        realm.refresh()
        try realm.write {
            let writer = realm.dynamicRowWriter(for: "RowNote")
            for text in ["a", "b"] { _ = try writer.insert([.string(text)]) }
        }
        realm.refresh()
        #expect(insertions == [[0, 1]])
    }

    @Test(.plainFilesOnly("its child processes open files with configurations of their own")) func misuseTrapsWithAPreciseMessage() async throws {
        _ = try openByName()
        let path = directory.file().path
        let wrongKind = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [path = path as String] in
            let realm = try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: []))
            try realm.write { _ = try realm.dynamicRowWriter(for: "RowClerk").insert([.string("a"), .string("four")]) }
        }
        expectMessage(wrongKind, "Invalid value")
        let missing = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [path = path as String] in
            let realm = try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: []))
            try realm.write { _ = try realm.dynamicRowWriter(for: "RowNote").insert([.null]) }
        }
        expectMessage(missing, "Missing value for property 'RowNote.text'.")
        let link = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [path = path as String] in
            let realm = try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: []))
            try realm.write { _ = try realm.dynamicRowWriter(for: "RowLedger").insert([.int(1), .string(""), .null, .date(Date()), .null, .link(1)]) }
        }
        expectMessage(link, "Invalid value")
        let afterTheWrite = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [path = path as String] in
            let realm = try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: []))
            var writer: DynamicRowWriter?
            try realm.write { writer = realm.dynamicRowWriter(for: "RowNote") }
            try realm.write { _ = try writer?.insert([.string("late")]) }
        }
        expectMessage(afterTheWrite, "A row writer is used only inside the write it was made in.")
        let outside = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [path = path as String] in
            let realm = try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: []))
            _ = realm.dynamicRowWriter(for: "RowNote")
        }
        expectMessage(outside, "Cannot create an object in a Realm outside of a write transaction")
    }
}
