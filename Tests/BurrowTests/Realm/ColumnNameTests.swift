import Burrow
import Foundation
import Testing

/// Two models of one stored class: one maps its properties to column names, the other
/// declares the columns by those names.
enum MappedRides {
    final class Ride: Object {
        @Persisted(primaryKey: true) var rideId = 0
        @Persisted(indexed: true) var riderId = 0
        @Persisted var stops: List<String>
        @Persisted var fare = 0.0

        override class func propertiesMapping() -> [String: String] { ["riderId": "rider_id", "stops": "stop_names"] }
    }
}

enum PlainRides {
    final class Ride: Object {
        @Persisted(primaryKey: true) var rideId = 0
        @Persisted(indexed: true) var rider_id = 0
        @Persisted var stop_names: List<String>
        @Persisted var fare = 0.0
    }
}

enum RemappedRides {
    final class Ride: Object {
        @Persisted(primaryKey: true) var rideId = 0
        @Persisted(indexed: true) var riderId = 0
        @Persisted var stops: List<String>
        @Persisted var fare = 0.0

        override class func propertiesMapping() -> [String: String] { ["riderId": "rider_key", "stops": "stop_names"] }
    }
}

/// Files are matched to models by column name, as RealmSwift's schema comparison matches them:
/// a model that maps a property to a column and one that declares the column by its name open
/// the same file without a migration, and each reads and queries it by its own names.
@Suite struct ColumnNameTests {
    let directory = TestDirectory()

    func configuration(_ type: Object.Type, readOnly: Bool = false) -> Realm.Configuration {
        var configuration = directory.configuration(objectTypes: [type])
        configuration.readOnly = readOnly
        return configuration
    }

    func fileWithMappedRides() throws {
        let realm = try Realm(configuration: configuration(MappedRides.Ride.self))
        try realm.write {
            for id in 1...5 { realm.add(MappedRides.Ride(value: ["rideId": id, "riderId": id % 2, "stops": ["a\(id)", "b"], "fare": Double(id)])) }
        }
    }

    @Test func aModelDeclaringTheColumnsOpensAFileOfTheMappingModel() throws {
        try fileWithMappedRides()
        let realm = try Realm(configuration: configuration(PlainRides.Ride.self))
        let rides = realm.objects(PlainRides.Ride.self)
        #expect(rides.count == 5)
        #expect(rides.filter("rider_id == 1").count == 3)
        #expect(rides.where { $0.rider_id == 0 }.map(\.rideId).sorted() == [2, 4])
        #expect(realm.object(ofType: PlainRides.Ride.self, forPrimaryKey: 3)?.stop_names.first == "a3")
        #expect(rides.sorted(byKeyPath: "rider_id").first?.rider_id == 0)
        #expect(rides.first?.value(forKey: "rider_id") as? Int == 1)
        #expect(realm.dynamicObjects("Ride").filter("rider_id == 1").count == 3)
        #expect(realm.fileSchema["Ride"]?["rider_id"]?.columnName == "rider_id")
        try realm.write { rides.first!.rider_id = 7 }
        #expect(rides.filter("rider_id == 7").count == 1)
    }

    @Test func theMappingModelOpensAFileOfTheDeclaringModel() throws {
        do {
            let realm = try Realm(configuration: configuration(PlainRides.Ride.self))
            try realm.write { realm.add(PlainRides.Ride(value: ["rideId": 1, "rider_id": 9, "stop_names": ["x"]])) }
        }
        let realm = try Realm(configuration: configuration(MappedRides.Ride.self))
        let ride = try #require(realm.object(ofType: MappedRides.Ride.self, forPrimaryKey: 1))
        #expect(ride.riderId == 9 && Array(ride.stops) == ["x"])
        #expect(realm.objects(MappedRides.Ride.self).filter("riderId == 9").count == 1)
        #expect(realm.fileSchema["Ride"]?["riderId"]?.columnName == "rider_id")
        // Key-value coding and the dynamic API name mapped properties by the model's names.
        #expect(ride.value(forKey: "riderId") as? Int == 9)
        #expect(ride["riderId"] as? Int == 9)
        try realm.write {
            ride.setValue(10, forKey: "riderId")
            ride["fare"] = 2.5
        }
        #expect(ride.riderId == 10 && ride.fare == 2.5)
        let dynamic = try #require(realm.dynamicObject(ofType: "Ride", forPrimaryKey: 1))
        #expect(dynamic["riderId"] as? Int == 10)
        #expect(realm.objects(MappedRides.Ride.self).value(forKey: "riderId") as? [Int] == [10])
    }

    @Test func aReadOnlyRealmReadsByTheModelsNamesWithoutWriting() throws {
        try fileWithMappedRides()
        do {
            let realm = try Realm(configuration: configuration(PlainRides.Ride.self, readOnly: true))
            #expect(realm.objects(PlainRides.Ride.self).filter("rider_id == 1").count == 3)
            #expect(realm.objects(PlainRides.Ride.self).first?.stop_names.count == 2)
        }
        // The file keeps the names it had.
        let mapped = try Realm(configuration: configuration(MappedRides.Ride.self, readOnly: true))
        #expect(mapped.objects(MappedRides.Ride.self).filter("riderId == 1").count == 3)
    }

    @Test func anotherColumnNameIsAnotherProperty() throws {
        try fileWithMappedRides()
        #expect {
            _ = try Realm(configuration: configuration(RemappedRides.Ride.self))
        } throws: { error in
            let message = "\(error)"
            return (error as? Realm.Error)?.code == .schemaMismatch && message.contains("has been added") && message.contains("has been removed")
        }
    }
}
