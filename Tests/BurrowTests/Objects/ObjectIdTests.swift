import Burrow
import Foundation
import Testing

@Suite struct ObjectIdTests {
    let directory = TestDirectory()

    @Test func aPrimaryKeyDeclaredWithoutAValueIsNewForEveryObject() throws {
        let realm = try directory.realm()
        let notes = (0..<100).map { Note(value: ["text": "note \($0)"]) }
        #expect(Set(notes.map(\._id)).count == 100)
        try realm.write { realm.add(notes) }
        #expect(realm.objects(Note.self).count == 100)
        let first = try #require(realm.object(ofType: Note.self, forPrimaryKey: notes[0]._id))
        #expect(first.text == "note 0")
    }

    @Test func generatedIdentifiersAreDistinctOrderedAndCarryTheirTime() {
        let before = Date()
        let ids = (0..<1000).map { _ in ObjectId.generate() }
        #expect(Set(ids).count == 1000)
        #expect(ObjectId() != ObjectId())
        let seconds = ids[0].timestamp.timeIntervalSince1970
        #expect(abs(seconds - before.timeIntervalSince1970.rounded(.down)) <= 1)
        // The counter is the last three bytes: identifiers of one second sort as they were made,
        // unless the counter wrapped in between.
        let sortedIds = ids.sorted()
        #expect(sortedIds == ids || sortedIds.first != ids.first)
    }

    @Test func stringsAndLiteralsRoundTrip() throws {
        let text = "000123450000ffbeef91906c"
        let parsed = try ObjectId(string: text)
        #expect(parsed.stringValue == text)
        #expect(parsed.description == text)
        #expect(ObjectId("000123450000ffbeef91906c") == parsed)
        let literal: ObjectId = "000123450000FFBEEF91906C"
        #expect(literal == parsed)
        #expect(try ObjectId(string: "000123450000ffbeef91906d") > parsed)
        #expect(parsed.timestamp == Date(timeIntervalSince1970: 0x0001_2345))
    }

    @Test func badStringsThrow() {
        for text in ["", "abc", "000123450000ffbeef91906", "000123450000ffbeef91906cc", "000123450000ffbeef91906g", "ü23450000ffbeef91906c"] {
            #expect(throws: Realm.Error.self, "\(text)") { try ObjectId(string: text) }
        }
    }

    @Test func aBadLiteralTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = ObjectId("not an object id")
        }
    }

    @Test func anIdentifierFromItsParts() {
        let time = Date(timeIntervalSince1970: 1_700_000_000.75)
        let id = ObjectId(timestamp: time, machineId: 0x0A0B0C, processId: 0x1415)
        #expect(id.timestamp == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(Array(id.byteArray[4..<9]) == [0x0A, 0x0B, 0x0C, 0x14, 0x15])
        #expect(ObjectId(timestamp: time, machineId: 10, processId: 20) != ObjectId(timestamp: time, machineId: 10, processId: 20))
        // Times before 1970 or past 2106 are clamped to what four bytes of seconds hold.
        #expect(ObjectId(timestamp: Date(timeIntervalSince1970: -5), machineId: 0, processId: 0).timestamp == Date(timeIntervalSince1970: 0))
        #expect(ObjectId(timestamp: .distantFuture, machineId: 0, processId: 0).timestamp == Date(timeIntervalSince1970: Double(UInt32.max)))
    }

    @Test func codableAsItsString() throws {
        let id = try ObjectId(string: "6401f0b0c1d2e3f405060708")
        let data = try JSONEncoder().encode([id])
        #expect(String(decoding: data, as: UTF8.self) == #"["6401f0b0c1d2e3f405060708"]"#)
        #expect(try JSONDecoder().decode([ObjectId].self, from: data) == [id])
        #expect(throws: (any Error).self) { try JSONDecoder().decode([ObjectId].self, from: Data(#"["zz"]"#.utf8)) }
    }
}
