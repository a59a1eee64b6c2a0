import Burrow
import Foundation

final class Dog: Object {
    @Persisted var name = ""
    @Persisted var age = 0
}

final class Person: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted(indexed: true) var name = ""
    @Persisted var picture: Data?
}

let myDog = Dog()
myDog.name = "Rex"
myDog.age = 1
print("name of dog: \(myDog.name)")

let realm = try Realm()
let puppies = realm.objects(Dog.self).filter("age < 2")
print("puppies before: \(puppies.count)")
try realm.write { realm.add(myDog) }
print("puppies after: \(puppies.count)")
