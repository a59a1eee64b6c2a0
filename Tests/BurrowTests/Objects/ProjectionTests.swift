import Burrow
@testable import LMDB
import Foundation
import Testing

final class CitizenHome: EmbeddedObject {
    @Persisted var city = ""
    @Persisted var country = ""
}

final class CitizenContact: Object {
    @Persisted var phone: CitizenPhone?
    @Persisted var email: String?
}

final class CitizenPhone: Object {
    @Persisted var number = ""
}

final class Citizen: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var firstName = ""
    @Persisted var lastName = ""
    @Persisted var birthday = Date(timeIntervalSince1970: 0)
    @Persisted var address: CitizenHome?
    @Persisted var contact: CitizenContact?
    @Persisted var friends: List<Citizen>
    @Persisted var clubs: MutableSet<CitizenClub>
    @Persisted var ignoredCount = 0

    var fullName: String { firstName + " " + lastName }
}

final class CitizenClub: Object {
    @Persisted var name = ""
}

final class CitizenView: Projection<Citizen> {
    @Projected(\Citizen.firstName) var name
    @Projected(\Citizen.lastName.localizedUppercase) var shoutedLastName
    @Projected(\Citizen.birthday.timeIntervalSince1970) var born
    @Projected(\Citizen.address?.city) var homeCity
    @Projected(\Citizen.contact?.phone?.number) var phone
    @Projected(\Citizen.friends.projectTo.firstName) var friendNames: ProjectedCollection<String>
    @Projected(\Citizen.clubs.projectTo.name) var clubNames: ProjectedCollection<String>
}

final class TwoViewsOfOneName: Projection<Citizen> {
    @Projected(\Citizen.firstName) var first
    @Projected(\Citizen.firstName.count) var firstLength
}

final class BrokenView: Projection<Citizen> {
    @Projected(\Citizen.fullName) var fullName
}

/// Projections: renamed, derived and linked properties read and written through an object,
/// results of projections, projected collections, observation, freezing and threads.
@Suite struct ProjectionTests {
    let directory = TestDirectory()

    func populatedRealm() throws -> Realm {
        let realm = try Realm(configuration: directory.configuration(objectTypes: [Citizen.self, CitizenClub.self, CitizenContact.self]))
        try realm.write {
            let jon = realm.create(Citizen.self, value: ["id": 1, "firstName": "John", "lastName": "Snow", "birthday": Date(timeIntervalSince1970: 10),
                                                         "address": ["city": "Winterfell", "country": "North"],
                                                         "contact": ["phone": ["number": "555-555"], "email": "jon@wall.example"]])
            let dany = realm.create(Citizen.self, value: ["id": 2, "firstName": "Daenerys", "lastName": "Targaryen",
                                                          "address": ["King's Landing", "Westeros"]])
            jon.friends.append(dany)
            dany.friends.append(jon)
            jon.clubs.insert(realm.create(CitizenClub.self, value: ["name": "Night's Watch"]))
        }
        return realm
    }

    func jon(in realm: Realm) -> CitizenView { realm.objects(CitizenView.self).filter("lastName == 'Snow'").first! }

    @Test func aProjectionReadsRenamedDerivedAndLinkedProperties() throws {
        let realm = try populatedRealm()
        let view = CitizenView(projecting: realm.object(ofType: Citizen.self, forPrimaryKey: 1)!)
        #expect(view.name == "John")
        #expect(view.shoutedLastName == "SNOW")
        #expect(view.born == 10)
        #expect(view.homeCity == "Winterfell")
        #expect(view.phone == "555-555")
        #expect(Array(view.friendNames) == ["Daenerys"])
        #expect(Array(view.clubNames) == ["Night's Watch"])
        let dany = realm.objects(CitizenView.self).filter("id == 2").first!
        #expect(dany.phone == nil)
        #expect(dany.clubNames.isEmpty)
        #expect(dany.realm != nil && !dany.isFrozen && !dany.isInvalidated)
    }

    @Test func resultsOfProjectionsFilterSortAndStayLive() throws {
        let realm = try populatedRealm()
        let views = realm.objects(CitizenView.self)
        #expect(views.count == 2)
        #expect(views.sorted(byKeyPath: "firstName").first!.name == "Daenerys")
        #expect(views.sorted(byKeyPath: "birthday", ascending: false).map(\.name) == ["John", "Daenerys"])
        #expect(views.filter("address.city == 'Winterfell'").map(\.name) == ["John"])
        #expect(views.sorted(byKeyPath: _name(for: \Citizen.address?.city)).map(\.name) == ["Daenerys", "John"])
        #expect(views.index(of: jon(in: realm)) == views.firstIndex { $0.name == "John" })
        var seen: [String] = []
        for view in views { seen.append(view.name) }
        #expect(seen.sorted() == ["Daenerys", "John"])
        try realm.write { realm.create(Citizen.self, value: ["id": 3, "firstName": "Arya", "lastName": "Stark"]) }
        #expect(views.count == 3)
        #expect(jon(in: realm) == jon(in: realm))
        #expect(jon(in: realm) != views.filter("id == 2").first!)
        #expect(Set(views).count == 3)
        let sections = views.sectioned(sortDescriptors: [SortDescriptor(keyPath: "firstName")]) { String($0.name.prefix(1)) }
        #expect(sections.allKeys == ["A", "D", "J"])
    }

    @Test func writesGoThroughToTheObject() throws {
        let realm = try populatedRealm()
        let view = jon(in: realm)
        try realm.write {
            view.name = "Jon"
            view.rootObject.address?.city = "Castle Black"
            view.friendNames[0] = "Dany"
        }
        let citizen = realm.object(ofType: Citizen.self, forPrimaryKey: 1)!
        #expect(citizen.firstName == "Jon")
        #expect(citizen.address?.city == "Castle Black")
        #expect(citizen.friends[0].firstName == "Dany")
        #expect(view.friendNames.index(of: "Dany") == 0)
        #expect(view.description.hasPrefix("CitizenView<Citizen> <0x"))
        #expect(view.description.contains("> {\n\t\tname(\\.firstName) = Jon;\n\tshoutedLastName(\\.lastName) = SNOW;\n"))
        #expect(view.description.contains("\n\thomeCity(\\.address.city) = Optional(\"Castle Black\");\n"))
        #expect(view.description.contains("\n\tfriendNames(\\.friends) = ProjectedCollection<String> {\n\t[0] Dany\n};\n"))
    }

    @Test func keyPathsThroughLinksNameThePathTheyRead() {
        #expect(_name(for: \Citizen.address?.city) == "address.city")
        #expect(_name(for: \Citizen.contact?.phone?.number) == "contact.phone.number")
        #expect(_name(for: \Citizen.firstName) == "firstName")
    }

    @Test func observingReportsTheProjectionsProperties() throws {
        let realm = try populatedRealm()
        let view = jon(in: realm)
        var seen: [String] = []
        let token = view.observe { (change: ObjectChange<CitizenView>) in
            switch change {
            case .change(let changed, let properties):
                #expect(changed === view)
                seen.append(properties.map { "\($0.name): \($0.oldValue.map { "\($0)" } ?? "nil") -> \($0.newValue.map { "\($0)" } ?? "nil")" }.joined(separator: ", "))
            case .deleted: seen.append("deleted")
            case .error(let error): seen.append("error \(error)")
            }
        }
        // The realm's own writes report no old values, as RealmSwift's; another thread's do.
        try realm.write { view.name = "Jon" }
        #expect(seen.last == "name: nil -> Jon")
        let configuration = realm.configuration
        onAnotherThread {
            let other = try! Realm(configuration: configuration)
            try! other.write { other.object(ofType: Citizen.self, forPrimaryKey: 1)!.lastName = "Stark" }
        }
        realm.refresh()
        #expect(seen.last == "shoutedLastName: SNOW -> STARK")
        try realm.write { realm.object(ofType: Citizen.self, forPrimaryKey: 1)!.address!.city = "The Wall" }
        #expect(seen.last?.hasPrefix("homeCity:") == true && seen.last?.hasSuffix("-> Optional(\"The Wall\")") == true)
        try realm.write { realm.object(ofType: Citizen.self, forPrimaryKey: 2)!.firstName = "Dany" }
        #expect(seen.last?.hasPrefix("friendNames:") == true)
        let count = seen.count
        try realm.write { realm.object(ofType: Citizen.self, forPrimaryKey: 1)!.ignoredCount += 1 }
        #expect(seen.count == count)
        try realm.write { realm.delete(realm.object(ofType: Citizen.self, forPrimaryKey: 1)!) }
        #expect(seen.last == "deleted")
        withExtendedLifetime(token) {}
    }

    @Test func keyPathsNarrowWhatCounts() throws {
        let realm = try populatedRealm()
        let view = jon(in: realm)
        var byName: [[String]] = [], byTypedPath: [[String]] = [], twice: [[String]] = []
        let tokens = [
            view.observe(keyPaths: ["firstName"]) { (change: ObjectChange<CitizenView>) in
                if case .change(_, let properties) = change { byName.append(properties.map(\.name)) }
            },
            view.observe(keyPaths: [\CitizenView.homeCity]) { (change: ObjectChange<CitizenView>) in
                if case .change(_, let properties) = change { byTypedPath.append(properties.map(\.name)) }
            },
            TwoViewsOfOneName(projecting: view.rootObject).observe { (change: ObjectChange<TwoViewsOfOneName>) in
                if case .change(let names, let properties) = change {
                    twice.append(properties.map { "\($0.name)=\($0.newValue ?? "nil")" })
                    #expect(names.firstLength == names.first.count)
                }
            },
        ]
        try realm.write { view.name = "Jon" }
        try realm.write { view.rootObject.address!.city = "The Wall" }
        try realm.write { view.rootObject.lastName = "Stark" }
        #expect(byName == [["name"]])
        #expect(byTypedPath == [["homeCity"]])
        #expect(twice == [["first=Jon", "firstLength=3"]])
        withExtendedLifetime(tokens) {}
    }

    @Test func projectedCollectionsAreLiveFrozenAndObserved() throws {
        let realm = try populatedRealm()
        let names = jon(in: realm).friendNames
        var events: [String] = []
        let token = names.observe { change in
            switch change {
            case .initial(let names): events.append("initial \(Array(names))")
            case .update(let names, let deletions, let insertions, let modifications):
                events.append("update \(Array(names)) \(deletions) \(insertions) \(modifications)")
            case .error(let error): events.append("error \(error)")
            }
        }
        realm.refresh()
        let frozen = names.freeze()
        try realm.write {
            let jon = realm.object(ofType: Citizen.self, forPrimaryKey: 1)!
            jon.friends.append(realm.create(Citizen.self, value: ["id": 3, "firstName": "Sam"]))
        }
        #expect(Array(names) == ["Daenerys", "Sam"])
        #expect(frozen.isFrozen && Array(frozen) == ["Daenerys"])
        #expect(Array(try #require(frozen.thaw())) == ["Daenerys", "Sam"])
        // Daenerys links back to John, whose list changed: a change of a linked object is a modification.
        #expect(events == ["initial [\"Daenerys\"]", "update [\"Daenerys\", \"Sam\"] [] [1] [0]"])
        #expect(names.description == "ProjectedCollection<String> {\n\t[0] Daenerys\n\t[1] Sam\n}")
        withExtendedLifetime(token) {}
    }

    @Test func projectionsFreezeThawAndCrossThreads() throws {
        let realm = try populatedRealm()
        let view = jon(in: realm)
        let frozen = view.freeze()
        #expect(frozen != view && frozen == view.freeze() && frozen == frozen.freeze())
        try realm.write { view.name = "Jon" }
        #expect(frozen.isFrozen && frozen.name == "John")
        #expect(try #require(frozen.thaw()).name == "Jon")
        let reference = ThreadSafeReference(to: view)
        let configuration = realm.configuration
        let name = Locked<String?>(nil)
        onAnotherThread {
            let other = try! Realm(configuration: configuration)
            name.withLock { $0 = other.resolve(reference)?.homeCity }
        }
        #expect(name.withLock { $0 } == "Winterfell")
        let queued = DispatchSemaphore(value: 0)
        let arrived = Locked<[String]>([])
        let queue = DispatchQueue(label: "projection")
        let token = view.observe(on: queue) { (change: ObjectChange<CitizenView>) in
            if case .change(let changed, let properties) = change { arrived.withLock { $0.append("\(changed.name) \(properties.map(\.name))") } }
            queued.signal()
        }
        // The queue's observation starts when the queue gets to it, with no initial notification:
        // write until one arrives.
        var attempt = 0
        repeat {
            attempt += 1
            try realm.write { view.name = "Lord Snow \(attempt)" }
        } while queued.wait(timeout: .now() + 0.5) == .timedOut && attempt < 100
        #expect(arrived.withLock { $0 }.first == "Lord Snow \(attempt) [\"name\"]")
        token.invalidate()
        // The queue's realm is released on the queue, after the deliveries it still had.
        queue.sync {}
        try realm.write { realm.delete(view.rootObject) }
        #expect(view.isInvalidated)
        #expect(frozen.thaw() == nil)
    }

    @Test func resultsOfProjectionsAreObserved() throws {
        let realm = try populatedRealm()
        var seen: [String] = []
        let token = realm.objects(CitizenView.self).sorted(byKeyPath: "firstName").observe { change in
            switch change {
            case .initial(let views): seen.append("initial \(views.map(\.name))")
            case .update(let views, let deletions, let insertions, let modifications):
                seen.append("update \(views.map(\.name)) \(deletions) \(insertions) \(modifications)")
            case .error: break
            }
        }
        realm.refresh()
        try realm.write { realm.create(Citizen.self, value: ["id": 3, "firstName": "Arya"]) }
        #expect(seen == ["initial [\"Daenerys\", \"John\"]", "update [\"Arya\", \"Daenerys\", \"John\"] [] [0] []"])
        withExtendedLifetime(token) {}
    }

    @Test func misuseTraps() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let directory = TestDirectory()
            let realm = try! Realm(configuration: directory.configuration(objectTypes: [Citizen.self, CitizenClub.self, CitizenContact.self]))
            try! realm.write { realm.create(Citizen.self, value: ["id": 1]) }
            _ = realm.objects(BrokenView.self).first
        }.map { expectMessage($0, "@Projected property 'fullName' must be a part of Realm object") }
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let directory = TestDirectory()
            let realm = try! Realm(configuration: directory.configuration(objectTypes: [Citizen.self, CitizenClub.self, CitizenContact.self]))
            try! realm.write { realm.create(Citizen.self, value: ["id": 1]) }
            let view = realm.objects(CitizenView.self).first!
            try! realm.write { view.homeCity = "Braavos" }
        }.map { expectMessage($0, "cannot be written: it is computed or read-only") }
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let directory = TestDirectory()
            let realm = try! Realm(configuration: directory.configuration(objectTypes: [Citizen.self, CitizenClub.self, CitizenContact.self]))
            try! realm.write { realm.create(Citizen.self, value: ["id": 1]) }
            _ = realm.objects(CitizenView.self).first!.observe(keyPaths: ["ignoredCount"]) { (_: ObjectChange<CitizenView>) in }
        }.map { expectMessage($0, "Key path 'ignoredCount' is not read by any @Projected property of CitizenView") }
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let directory = TestDirectory()
            let realm = try! Realm(configuration: directory.configuration(objectTypes: [Citizen.self, CitizenClub.self, CitizenContact.self]))
            try! realm.write { realm.create(Citizen.self, value: ["id": 1]) }
            jonName(realm.objects(CitizenView.self).first!)
        }.map { expectMessage($0, "Attempting to modify object outside of a write transaction") }
    }

    /// RealmSwift's testProjectionEquality: projections of one stored object are equal, even of
    /// a class without a primary key, whose objects are not.
    @Test func projectionsOfOneObjectAreEqualWithoutAPrimaryKey() throws {
        let realm = try directory.realm()
        try realm.write { realm.add(Dog(value: ["name": "rex"])); realm.add(Dog(value: ["name": "bo"])) }
        let rex = DogView(projecting: realm.objects(Dog.self).filter("name == 'rex'").first!)
        let rexAgain = realm.objects(DogView.self).filter("name == 'rex'").first!
        #expect(rex.rootObject != rexAgain.rootObject)
        #expect(rex == rexAgain && rex.hashValue == rexAgain.hashValue && Set([rex, rexAgain]).count == 1)
        #expect(rex != realm.objects(DogView.self).filter("name == 'bo'").first!)
        #expect(rex != rex.freeze() && DogView(projecting: Dog()) != DogView(projecting: Dog()))
    }
}

private func jonName(_ view: CitizenView) { view.name = "x" }

final class DogView: Projection<Dog> {
    @Projected(\Dog.name) var name
}
