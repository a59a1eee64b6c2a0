@testable import Burrow
import Foundation
import Testing

/// Notifications of realms, results and objects, delivered where the realm moves.
@Suite struct NotificationTests {
    let directory = TestDirectory()

    @Test func resultsReportInitialThenEachChange() throws {
        let realm = try Realm(configuration: directory.configuration(objectTypes: [Dog.self]))
        try realm.write { for age in 0..<5 { realm.add(Dog(value: ["name": "d\(age)", "age": age])) } }
        var seen: [String] = []
        let token = realm.objects(Dog.self).filter("age >= 2").sorted(byKeyPath: "age").observe { change in
            switch change {
            case .initial(let results): seen.append("initial \(results.count)")
            case .update(_, let deletions, let insertions, let modifications): seen.append("update \(deletions) \(insertions) \(modifications)")
            case .error(let error): seen.append("error \(error)")
            }
        }
        realm.refresh()
        #expect(seen == ["initial 3"])
        try realm.write {
            realm.add(Dog(value: ["name": "new", "age": 10]))
            realm.objects(Dog.self).filter("age == 3").first!.name = "renamed"
            realm.delete(realm.objects(Dog.self).filter("age == 2"))
        }
        #expect(seen.last == "update [0] [2] [1]")
        try realm.write { realm.objects(Dog.self).filter("age == 0").first!.name = "not in the results" }
        #expect(seen.count == 2)
        token.invalidate()
        try realm.write { realm.add(Dog(value: ["age": 50])) }
        #expect(seen.count == 2)
    }
}
