// The example Realm's documentation opens with, on Linux: models, a write, a live query,
// and a background thread that updates an object the main thread then sees.
import Burrow
import Foundation

final class Dog: Object {
    @Persisted var name = ""
    @Persisted var age = 0
    @Persisted var owner: Person?                 // properties can be optional
}

final class Person: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted(indexed: true) var name = ""
    @Persisted var picture: Data?                 // optionals supported
    @Persisted var dogs: List<Dog>
    @Persisted(originProperty: "owner") var pets: LinkingObjects<Dog>
}

// Start from an empty default realm so that the run always tells the same story.
let configuration = Realm.Configuration.defaultConfiguration
try Realm.deleteFiles(for: configuration)
print("Realm file: \(configuration.fileURL!.path)")

// Use models like regular Swift objects.
let myDog = Dog()
myDog.name = "Rex"
myDog.age = 1
print("name of dog: \(myDog.name)")

let realm = try Realm()

// Query for all dogs less than 2 years old: results are live.
let puppies = realm.objects(Dog.self).filter("age < 2")
print("puppies before the write: \(puppies.count)")   // 0

try realm.write {
    realm.add(myDog)
    realm.add(Person(value: ["id": 1, "name": "Jane"]))
}
print("puppies after the write: \(puppies.count)")     // 1

// Query and update from any thread: each thread opens its own Realm.
let finished = DispatchSemaphore(value: 0)
Thread {
    let realm = try! Realm()
    let theDog = realm.objects(Dog.self).filter("age == 1").first!
    try! realm.write {
        theDog.age = 3
        theDog.owner = realm.object(ofType: Person.self, forPrimaryKey: 1)
    }
    print("background thread: \(theDog.name) is now \(theDog.age)")
    finished.signal()
}.start()
finished.wait()

// The main thread reads its own snapshot until it refreshes.
print("main thread before refresh: \(myDog.name) is \(myDog.age), puppies: \(puppies.count)")
realm.refresh()
print("main thread after refresh: \(myDog.name) is \(myDog.age), owner \(myDog.owner?.name ?? "nobody"), puppies: \(puppies.count)")
let jane = realm.object(ofType: Person.self, forPrimaryKey: 1)!
print("Jane's pets, through the links back to her: \(jane.pets.map(\.name))")
