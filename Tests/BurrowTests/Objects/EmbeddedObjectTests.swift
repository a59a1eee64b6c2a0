import Burrow
import Foundation
import Testing

@Suite struct EmbeddedObjectTests {
    let directory = TestDirectory()

    @Test func embeddedObjectsAreStoredWithTheirOwner() throws {
        let realm = try directory.realm()
        let contact = Contact(value: ["id": 1, "address": ["street": "Main", "city": "Oslo", "geo": ["latitude": 59.9]],
                                      "previous": [["street": "Old"], ["street": "Older"]]])
        try realm.write { realm.add(contact) }
        #expect(contact.address?.city == "Oslo")
        #expect(contact.address?.geo?.latitude == 59.9)
        #expect(contact.previous.map(\.street) == ["Old", "Older"])
        #expect(realm.objects(Contact.self).filter("address.city == 'Oslo'").count == 1)
        #expect(realm.objects(Contact.self).filter("previous.street == 'Older'").count == 1)
        #expect(try realm.storedCount(of: Address.self) == 3)
        #expect(Address().objectSchema.className == "Address")
    }

    @Test func replacingOrRemovingAnEmbeddedObjectDeletesIt() throws {
        let realm = try directory.realm()
        let contact = Contact(value: ["id": 1, "address": ["street": "A", "geo": ["latitude": 1.0]], "previous": [["street": "P"]]])
        try realm.write { realm.add(contact) }
        try realm.write { contact.address = Address(value: ["street": "B"]) }
        #expect(contact.address?.street == "B")
        #expect(try realm.storedCount(of: Address.self) == 2)
        #expect(try realm.storedCount(of: Geo.self) == 0)  // the replaced address took its own embedded object along
        try realm.write { contact.address = nil }
        #expect(try realm.storedCount(of: Address.self) == 1)
        try realm.write { contact.previous.remove(at: 0) }
        #expect(try realm.storedCount(of: Address.self) == 0)
        try realm.write { contact.previous.append(Address(value: ["street": "Q"])); contact.previous.append(Address(value: ["street": "R"])) }
        try realm.write { contact.previous.move(from: 0, to: 1) }
        #expect(contact.previous.map(\.street) == ["R", "Q"])
        #expect(try realm.storedCount(of: Address.self) == 2)  // moving deletes nothing
    }

    /// As RealmSwift's `testSetEmbedded`: the replaced object is gone at once, inside the write.
    @Test func aReplacedEmbeddedObjectIsInvalidatedAtOnce() throws {
        let realm = try directory.realm()
        let contact = Contact(value: ["id": 1, "address": ["street": "A"], "previous": [["street": "P"]]])
        let book = AddressBook(value: ["addresses": ["ann": ["street": "M"]]])
        try realm.write { realm.add([contact, book]) }
        let (address, previous, mapped) = (try #require(contact.address), contact.previous[0], try #require(book.addresses["ann"] ?? nil))
        let geo = Geo(value: [2.0])
        try realm.write {
            contact.address?.geo = Geo(value: [1.0])
            let oldGeo = try #require(contact.address?.geo)
            contact.address?.geo = geo
            #expect(oldGeo.isInvalidated && !geo.isInvalidated && contact.address?.geo?.latitude == 2)
            contact.address = Address(value: ["street": "B"])
            #expect(address.isInvalidated && geo.isInvalidated)
            let replacement = Address(value: ["street": "Q"])
            contact.previous[0] = replacement
            #expect(previous.isInvalidated)
            #expect(contact.previous[0].isSameObject(as: replacement) && replacement.realm == realm)
            book.addresses["ann"] = Address(value: ["street": "N"])
            #expect(mapped.isInvalidated)
            #expect(book.addresses["ann"]??.street == "N")
        }
        #expect(try realm.storedCount(of: Address.self) == 3)
        #expect(contact.address?.street == "B" && contact.previous.map(\.street) == ["Q"])
    }

    @Test func updateAllReplacesEmbeddedObjectsAndUpdateModifiedUpdatesThemInPlace() throws {
        // RealmSwift's testAddAndUpdateEmbedded and testAddAndUpdateChangedEmbedded (to-one).
        let realm = try directory.realm()
        let first = Contact(value: ["id": 1, "address": ["street": "A", "geo": [1.0]], "previous": [["street": "P"]]])
        try realm.write { realm.add(first) }
        let (address, geo, previous) = (try #require(first.address), try #require(first.address?.geo), first.previous[0])
        try realm.write {
            realm.add(Contact(value: ["id": 1, "address": ["street": "B", "geo": [2.0]], "previous": [["street": "Q"]]]), update: .all)
        }
        #expect(address.isInvalidated && geo.isInvalidated && previous.isInvalidated)
        #expect(first.address?.street == "B" && first.address?.geo?.latitude == 2 && first.previous.map(\.street) == ["Q"])
        #expect(try realm.storedCount(of: Address.self) == 2 && realm.storedCount(of: Geo.self) == 1)
        let current = try #require(first.address)
        try realm.write { realm.add(Contact(value: ["id": 1, "address": ["street": "C", "geo": [3.0]]]), update: .modified) }
        #expect(!current.isInvalidated && current.street == "C" && current.geo?.latitude == 3)
        #expect(try realm.storedCount(of: Address.self) == 1 && realm.storedCount(of: Geo.self) == 1)
    }

    @Test func updateModifiedUpdatesTheEmbeddedObjectsOfAListInPlace() throws {
        // RealmSwift's testAddAndUpdateChangedEmbedded (lists): element by element, the stored
        // embedded objects take the new values and stay valid; a longer list adds, a shorter
        // one deletes what is left over.
        let realm = try directory.realm()
        let first = Contact(value: ["id": 1, "previous": [["street": "A", "geo": [1.0]], ["street": "B"], ["street": "C"]]])
        try realm.write { realm.add(first) }
        let (a, aGeo, b, c) = (first.previous[0], try #require(first.previous[0].geo), first.previous[1], first.previous[2])
        let second = Contact(value: ["id": 1, "previous": [["street": "A2", "geo": [2.0]], ["street": "B2", "city": "X"]]])
        try realm.write { realm.add(second, update: .modified) }
        #expect(!a.isInvalidated && !aGeo.isInvalidated && !b.isInvalidated && c.isInvalidated)
        #expect(a.street == "A2" && aGeo.latitude == 2 && b.street == "B2" && b.city == "X")
        #expect(second.previous[0].isSameObject(as: a) && second.previous[1].isSameObject(as: b))
        #expect(first.previous.map(\.street) == ["A2", "B2"])
        #expect(try realm.storedCount(of: Address.self) == 2 && realm.storedCount(of: Geo.self) == 1)

        // Longer: the first two are updated, the third is new.
        try realm.write {
            realm.add(Contact(value: ["id": 1, "previous": [["street": "A3"], ["street": "B3"], ["street": "D"]]]), update: .modified)
        }
        #expect(!a.isInvalidated && !b.isInvalidated && aGeo.isInvalidated)
        #expect(first.previous.map(\.street) == ["A3", "B3", "D"] && a.street == "A3" && a.geo == nil)
        #expect(try realm.storedCount(of: Address.self) == 3 && realm.storedCount(of: Geo.self) == 0)

        // `.all` still replaces them, and an empty list deletes them all.
        try realm.write { realm.add(Contact(value: ["id": 1, "previous": [["street": "E"]]]), update: .all) }
        #expect(a.isInvalidated && b.isInvalidated && first.previous.map(\.street) == ["E"])
        let e = first.previous[0]
        try realm.write { realm.add(Contact(value: ["id": 1]), update: .modified) }
        #expect(e.isInvalidated && first.previous.isEmpty)
        #expect(try realm.storedCount(of: Address.self) == 0)
    }

    @Test func createUpdateModifiedUpdatesEmbeddedObjectsInPlace() throws {
        let realm = try directory.realm()
        try realm.write {
            realm.create(Contact.self, value: ["id": 1, "address": ["street": "A", "city": "X", "geo": [1.0]],
                                               "previous": [["street": "P"], ["street": "Q"]]])
        }
        let contact = try #require(realm.object(ofType: Contact.self, forPrimaryKey: 1))
        let (address, geo, p, q) = (try #require(contact.address), try #require(contact.address?.geo), contact.previous[0], contact.previous[1])
        try realm.write {
            realm.create(Contact.self, value: ["id": 1, "address": ["street": "B", "geo": [2.0]], "previous": [["street": "P2"]]],
                         update: .modified)
        }
        // Properties the value does not name keep theirs, as for the object itself.
        #expect(!address.isInvalidated && address.street == "B" && address.city == "X")
        #expect(!geo.isInvalidated && geo.latitude == 2)
        #expect(!p.isInvalidated && p.street == "P2" && q.isInvalidated && contact.previous.count == 1)
        #expect(try realm.storedCount(of: Address.self) == 2 && realm.storedCount(of: Geo.self) == 1)

        try realm.write {
            realm.create(Contact.self, value: ["id": 1, "previous": [["street": "P3"], Address(value: ["street": "R"])]], update: .modified)
        }
        #expect(!p.isInvalidated && contact.previous.map(\.street) == ["P3", "R"])
        // `.all` replaces them.
        try realm.write { realm.create(Contact.self, value: ["id": 1, "address": ["street": "C"], "previous": []], update: .all) }
        #expect(address.isInvalidated && geo.isInvalidated && p.isInvalidated && contact.address?.street == "C")
        #expect(try realm.storedCount(of: Address.self) == 1 && realm.storedCount(of: Geo.self) == 0)
    }

    @Test func anUpdateInPlaceOfAListIsReportedAsModifications() throws {
        let realm = try directory.realm()
        try realm.write { realm.add(Contact(value: ["id": 1, "previous": [["street": "A"], ["street": "B"]]])) }
        let contact = try #require(realm.object(ofType: Contact.self, forPrimaryKey: 1))
        var changes: [(deletions: [Int], insertions: [Int], modifications: [Int])] = []
        let token = contact.previous.observe { change in
            if case .update(_, let deletions, let insertions, let modifications) = change {
                changes.append((deletions, insertions, modifications))
            }
        }
        defer { token.invalidate() }
        realm.refresh()
        try realm.write { realm.add(Contact(value: ["id": 1, "previous": [["street": "A"], ["street": "B2"]]]), update: .modified) }
        realm.refresh()
        #expect(changes.count == 1)
        #expect(changes.first?.deletions == [] && changes.first?.insertions == [] && changes.first?.modifications == [1])
    }

    @Test func settingALinkToTheEmbeddedObjectItHoldsChangesNothing() throws {
        // RealmSwift's testSetEmbeddedLink: no trap, and the object stays valid; another
        // owner's embedded object is still refused (MisuseTests).
        let realm = try directory.realm()
        let contact = Contact(value: ["id": 1, "address": ["street": "A"]])
        try realm.write { realm.add(contact) }
        let address = try #require(contact.address)
        try realm.write { contact.address = address }
        #expect(!address.isInvalidated)
        #expect(contact.address?.street == "A")
        #expect(try realm.storedCount(of: Address.self) == 1)
    }

    @Test func removingAnEmbeddedObjectFromAMapDeletesIt() throws {
        let realm = try directory.realm()
        let book = AddressBook(value: ["addresses": ["a": ["street": "A"], "b": ["street": "B"], "c": ["street": "C"], "none": NSNull()]])
        try realm.write { realm.add(book) }
        #expect(try realm.storedCount(of: Address.self) == 3)
        let a = try #require(book.addresses["a"] ?? nil)
        try realm.write { book.addresses.removeObject(for: "a") }
        #expect(a.isInvalidated && book.addresses.count == 3)
        #expect(try realm.storedCount(of: Address.self) == 2)
        try realm.write { book.addresses["b"] = nil }
        #expect(try realm.storedCount(of: Address.self) == 1)
        try realm.write { book.addresses.removeAll() }
        #expect(try realm.storedCount(of: Address.self) == 0)
        try realm.write { book.addresses["d"] = Address(value: ["street": "D"]) }
        try realm.write { realm.delete(book) }
        #expect(try realm.storedCount(of: Address.self) == 0)
    }

    @Test func deletingTheOwnerDeletesItsEmbeddedObjects() throws {
        let realm = try directory.realm()
        try realm.write {
            realm.add(Contact(value: ["id": 1, "address": ["street": "A", "geo": ["latitude": 2.0]], "previous": [["street": "P"]]]))
            realm.add(Contact(value: ["id": 2, "address": ["street": "Other"]]))
        }
        try realm.write { realm.delete(realm.object(ofType: Contact.self, forPrimaryKey: 1)!) }
        #expect(try realm.storedCount(of: Address.self) == 1)
        #expect(try realm.storedCount(of: Geo.self) == 0)
        let other = realm.object(ofType: Contact.self, forPrimaryKey: 2)!
        try realm.write { realm.delete(other.address!) }
        #expect(other.address == nil)
    }

    @Test func creatingFromAManagedObjectCopiesItsEmbeddedObjects() throws {
        let realm = try directory.realm()
        let other = try Realm(configuration: directory.configuration("other.realm"))
        let source = Contact(value: ["id": 1, "address": ["street": "Main", "geo": ["latitude": 1.5]],
                                     "previous": [["street": "Old"], ["street": "Older"]]])
        try realm.write { realm.add(source) }
        let copy = try realm.write { realm.create(Contact.self, value: ["id": 2, "address": source.address as Any, "previous": source.previous]) }
        #expect(copy.address?.street == "Main" && copy.address?.geo?.latitude == 1.5)
        #expect(copy.previous.map(\.street) == ["Old", "Older"])
        #expect(source.address?.street == "Main" && source.previous.count == 2)
        #expect(try realm.storedCount(of: Address.self) == 6)
        // Into another realm, the whole object is copied.
        let moved = try other.write { other.create(Contact.self, value: source) }
        #expect(moved.realm == other && moved.id == 1 && moved.previous.map(\.street) == ["Old", "Older"])
        #expect(moved.address?.geo?.latitude == 1.5)
        #expect(source.realm == realm && !source.isInvalidated)
    }

    @Test func addingAnEmbeddedObjectDirectlyTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = MisuseTests.freshRealm()
            try! realm.write { realm.add(Address()) }
        }
        expectMessage(result, "Cannot add embedded object 'Address' to a Realm directly")
    }

    @Test func queryingEmbeddedObjectsDirectlyTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = MisuseTests.freshRealm().objects(Address.self)
        }
        expectMessage(result, "Embedded object 'Address' cannot be queried directly")
    }

    @Test func aSecondOwnerTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = MisuseTests.freshRealm()
            let first = Contact(value: ["id": 1, "address": ["street": "A"]])
            try! realm.write { realm.add(first) }
            try! realm.write { realm.add(Contact(value: ["id": 2, "address": first.address!])) }
        }
        expectMessage(result, "Can't set link to existing managed embedded object")
    }
}
