import Burrow
import Foundation
import Testing

/// A point as RealmSwift stores one: an embedded object with `coordinates` (longitude,
/// latitude) and `type`.
final class Location: EmbeddedObject {
    @Persisted private(set) var coordinates: List<Double>
    @Persisted var type = "Point"

    var latitude: Double { coordinates[1] }
    var longitude: Double { coordinates[0] }

    convenience init(_ latitude: Double, _ longitude: Double) {
        self.init()
        coordinates.append(objectsIn: [longitude, latitude])
    }
}

final class Place: Object {
    @Persisted var name = ""
    @Persisted var location: Location?
    @Persisted var owner: PlaceOwner?

    convenience init(_ name: String, _ location: Location?) {
        self.init()
        self.name = name
        self.location = location
    }
}

final class PlaceOwner: Object {
    @Persisted var name = ""
    @Persisted var home: Location?
}

final class CoordinatesOnly: EmbeddedObject {
    @Persisted var coordinates: List<Double>
}

final class TopLevelPoint: Object {
    @Persisted var coordinates: List<Double>
    @Persisted var type = "Point"
}

final class OddlyLocated: Object {
    @Persisted var coordinatesOnly: CoordinatesOnly?
    @Persisted var topLevel: TopLevelPoint?
}

/// Geospatial shapes and `geoWithin` queries, against known coordinates, as RealmSwift's
/// GeospatialTests check them, in all three query forms.
@Suite struct GeospatialTests {
    let directory = TestDirectory()

    func realmWithPlaces() throws -> Realm {
        let realm = try Realm(configuration: directory.configuration(objectTypes: [Place.self, PlaceOwner.self, OddlyLocated.self]))
        try realm.write {
            realm.add(Place("Diana", Location(40.7128, -74.0060)))   // New York
            realm.add(Place("Maria", Location(55.6761, 12.5683)))    // Copenhagen
            realm.add(Place("Tomas", Location(55.6280, 12.0826)))    // Roskilde
            realm.add(Place("Alba", Location(-76, -76)))
            realm.add(Place("Manuela", nil))
        }
        return realm
    }

    /// The names within `shape`, the same through `where`, `IN %@`, `GEOWITHIN %@` and the
    /// shape written in the query language.
    func names<S: RLMGeospatial>(within shape: S, in realm: Realm, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        let places = realm.objects(Place.self)
        let typed = places.where { $0.location.geoWithin(shape) }.map(\.name).sorted()
        #expect(places.filter("location IN %@", shape).map(\.name).sorted() == typed, sourceLocation: sourceLocation)
        #expect(places.filter("location GEOWITHIN %@", shape).map(\.name).sorted() == typed, sourceLocation: sourceLocation)
        #expect(places.filter("location GEOWITHIN $0", shape).map(\.name).sorted() == typed, sourceLocation: sourceLocation)
        let predicate = try QueryPredicate("location GEOWITHIN %@", shape)
        try places.validate(predicate)
        #expect(places.filter(predicate).map(\.name).sorted() == typed, sourceLocation: sourceLocation)
        return typed
    }

    @Test func pointsRefuseCoordinatesOutOfRange() {
        for (latitude, longitude, altitude) in [(90.0, 0.0, 0.0), (-90, 0, 0), (12.3456789, 0, 0), (0, 180, 0), (0, -180, 0), (90, 0, 500)] {
            #expect(GeoPoint(latitude: latitude, longitude: longitude, altitude: altitude) != nil)
        }
        for (latitude, longitude, altitude) in [(90.000000001, 0.0, 0.0), (-90.000000001, 0, 0), (9_999_999, 0, 0), (0, 180.000000001, 0),
                                                 (0, -9_999_999, 0), (90, 0, -1), (90, 0, .nan), (.nan, 0, 0), (0, .nan, 0)] {
            #expect(GeoPoint(latitude: latitude, longitude: longitude, altitude: altitude) == nil)
        }
        #expect(GeoBox(bottomLeft: (-90, -180), topRight: (90, 180)) != nil)
        #expect(GeoBox(bottomLeft: (-91, -181), topRight: (91, 181)) == nil)
        #expect(GeoCircle(center: (0, 70), radiusInRadians: 0) != nil)
        #expect(GeoCircle(center: (0, 70), radiusInRadians: -500) == nil)
        #expect(GeoCircle(center: GeoPoint(latitude: 0, longitude: 70)!, radiusInRadians: .nan) == nil)
    }

    @Test func polygonsNeedClosedRingsOfFourPoints() {
        let point = { (latitude: Double, longitude: Double) in GeoPoint(latitude: latitude, longitude: longitude)! }
        #expect(GeoPolygon(outerRing: [point(0, 0)]) == nil)
        #expect(GeoPolygon(outerRing: [point(0, 0), point(1, 1), point(0, 0)]) == nil)
        #expect(GeoPolygon(outerRing: [point(0, 0), point(1, 1), point(2, 0), point(0, 0)]) != nil)
        #expect(GeoPolygon(outerRing: [point(0, 0), point(1, 1), point(2, 0), point(3, 3)]) == nil)
        #expect(GeoPolygon(outerRing: [(0, 0), (1, 1), (2, 2), (0, 0)], holes: [[(0, 0), (1, 1), (2, 2), (0, 0)]]) != nil)
        #expect(GeoPolygon(outerRing: [(0, 0), (1, 1), (2, 2), (0, 0)], holes: [(0, 0), (1, 1), (2, 2), (0, 0)], [(0, 0), (1, 1), (2, 2), (0, 0)]) != nil)
        #expect(GeoPolygon(outerRing: [(0, 0), (1, 1), (2, 2), (0, 0)], holes: [[(0, 0)]]) == nil)
        #expect(GeoPolygon(outerRing: [(0, 0), (1, 1), (2, 2), (0, 0)], holes: [[(0, 0), (1, 1), (2, 2), (3, 3)]]) == nil)
        #expect(GeoPolygon(outerRing: [(91, 0), (1, 1), (2, 2), (91, 0)]) == nil)
    }

    @Test func distancesConvertThroughTheEarthsRadius() throws {
        let circumference = try #require(Distance.kilometers(40_075))
        #expect(abs(circumference.radians - 2 * .pi) < 2 * .pi * 0.0001)
        #expect(abs(circumference.asKilometers() - 40_075) < 1e-6)
        #expect(abs(try #require(Distance.miles(24_901)).radians - 2 * .pi) < 2 * .pi * 0.0001)
        #expect(abs(try #require(Distance.degrees(180)).radians - .pi) < 1e-12)
        #expect(try #require(Distance.degrees(180)).asDegrees() == 180)
        #expect(try #require(Distance.radians(.pi)).radians == .pi)
        for invalid in [-10.0, .nan] {
            #expect(Distance.kilometers(invalid) == nil && Distance.miles(invalid) == nil
                    && Distance.degrees(invalid) == nil && Distance.radians(invalid) == nil)
        }
        #expect(Distance.kilometers(25.01) != Distance.kilometers(25.02))
        #expect(Distance.degrees(180) == Distance.degrees(180))
    }

    @Test func shapesAreEqualByValue() {
        #expect(GeoPoint(latitude: 1, longitude: 1, altitude: 1) == GeoPoint(latitude: 1, longitude: 1, altitude: 1))
        #expect(GeoPoint(latitude: 1, longitude: 1, altitude: 1) != GeoPoint(latitude: 1, longitude: 1, altitude: 2))
        #expect(GeoBox(bottomLeft: (0, 0), topRight: (1, 1)) == GeoBox(bottomLeft: (0, 0), topRight: (1, 1)))
        #expect(GeoBox(bottomLeft: (1, 1), topRight: (0, 0)) != GeoBox(bottomLeft: (0, 0), topRight: (1, 1)))
        #expect(GeoPolygon(outerRing: [(0, 0), (10, 0), (5, 4), (0, 0)], holes: [[(1, 1), (9, 0), (4, 4), (1, 1)]])
                == GeoPolygon(outerRing: [(0, 0), (10, 0), (5, 4), (0, 0)], holes: [[(1, 1), (9, 0), (4, 4), (1, 1)]]))
        #expect(GeoPolygon(outerRing: [(0, 0), (10, 0), (5, 4), (0, 0)], holes: [[(1, 1), (9, 0), (3, 3), (1, 1)]])
                != GeoPolygon(outerRing: [(0, 0), (10, 0), (5, 4), (0, 0)], holes: [[(1, 1), (9, 0), (4, 4), (1, 1)]]))
        #expect(GeoCircle(center: (55, 12), radiusInRadians: 1) != GeoCircle(center: (55, 12), radiusInRadians: 5))
    }

    @Test func boxesHoldWhatLiesBetweenTheirCorners() throws {
        let realm = try realmWithPlaces()
        #expect(try names(within: GeoBox(bottomLeft: (55.6281, 12.0826), topRight: (55.6762, 12.5684))!, in: realm) == ["Maria"])
        #expect(try names(within: GeoBox(bottomLeft: (55.6279, 12.0825), topRight: (55.6762, 12.5684))!, in: realm) == ["Maria", "Tomas"])
        #expect(try names(within: GeoBox(bottomLeft: (0, -75), topRight: (60, 15))!, in: realm) == ["Diana", "Maria", "Tomas"])
        // West of the east edge: the box crosses the antimeridian, and holds none of them.
        #expect(try names(within: GeoBox(bottomLeft: (-80, 170), topRight: (80, -170))!, in: realm) == [])
        #expect(try names(within: GeoBox(bottomLeft: (-80, 10), topRight: (80, -80))!, in: realm) == ["Maria", "Tomas"])
    }

    @Test func circlesMeasureAlongTheSphere() throws {
        let realm = try realmWithPlaces()
        #expect(try names(within: GeoCircle(center: (55.67, 12.56), radiusInRadians: 0.001)!, in: realm) == ["Maria"])
        #expect(try names(within: GeoCircle(center: (55.67, 12.56), radius: .kilometers(10)!)!, in: realm) == ["Maria"])
        #expect(try names(within: GeoCircle(center: (55.67, 12.56), radius: .kilometers(100)!)!, in: realm) == ["Maria", "Tomas"])
        #expect(try names(within: GeoCircle(center: (45, -20), radius: .kilometers(5000)!)!, in: realm) == ["Diana", "Maria", "Tomas"])
        // Copenhagen to Roskilde is 30.8 km along the sphere of radius 6378.1 km.
        #expect(try names(within: GeoCircle(center: (55.6761, 12.5683), radius: .kilometers(30.5)!)!, in: realm) == ["Maria"])
        #expect(try names(within: GeoCircle(center: (55.6761, 12.5683), radius: .kilometers(31)!)!, in: realm) == ["Maria", "Tomas"])
        // Around the south pole, across every meridian.
        #expect(try names(within: GeoCircle(center: (-90, 0), radius: .degrees(14.5)!)!, in: realm) == ["Alba"])
        #expect(try names(within: GeoCircle(center: (0, 0), radiusInRadians: .pi)!, in: realm) == ["Alba", "Diana", "Maria", "Tomas"])
    }

    @Test func polygonsHoldTheirInsideLessTheirHoles() throws {
        let realm = try realmWithPlaces()
        #expect(try names(within: GeoPolygon(outerRing: [(55.6281, 12.0826), (55.6761, 12.0826), (55.6761, 12.5684), (55.6281, 12.5684), (55.6281, 12.0826)])!,
                          in: realm) == ["Maria"])
        #expect(try names(within: GeoPolygon(outerRing: [(55, 12), (55.67, 12.5), (55.67, 11.5), (55, 12)])!, in: realm) == ["Tomas"])
        let large = [(40.0096192, -75.5175781), (60, 20), (20, 20), (-75.5175781, -75.5175781), (40.0096192, -75.5175781)]
        #expect(try names(within: GeoPolygon(outerRing: large)!, in: realm) == ["Diana", "Maria", "Tomas"])
        // The same ring the other way round is the same region: a ring is its smaller side.
        #expect(try names(within: GeoPolygon(outerRing: large.reversed())!, in: realm) == ["Diana", "Maria", "Tomas"])
        let outer = [(50.0, -80.0), (62, 22), (22, 22), (-80, -80), (50, -80)]
        let newYork = [(40.7129, -75.0), (40.7129, -74), (40.7126, -74), (40.7129, -75)]
        let south = [(-77.0, -77.0), (-77, -75), (-75, -75), (-75, -77), (-77, -77)]
        let copenhagen = [(55.6760, 12.5682), (55.6760, 12.5684), (55.6763, 12.5684), (55.6763, 12.5682), (55.6760, 12.5682)]
        let roskilde = [(55.6279, 12.0825), (55.6279, 12.0827), (55.6281, 12.0827), (55.6281, 12.0825), (55.6279, 12.0825)]
        #expect(try names(within: GeoPolygon(outerRing: [(50, -80), (61, 21), (21, 21), (-80, -80), (50, -80)], holes: [large])!, in: realm) == ["Alba"])
        #expect(try names(within: GeoPolygon(outerRing: outer, holes: [newYork])!, in: realm) == ["Alba", "Maria", "Tomas"])
        #expect(try names(within: GeoPolygon(outerRing: outer, holes: [newYork, south])!, in: realm) == ["Maria", "Tomas"])
        #expect(try names(within: GeoPolygon(outerRing: outer, holes: [newYork, south, copenhagen])!, in: realm) == ["Tomas"])
        #expect(try names(within: GeoPolygon(outerRing: outer, holes: [newYork, south, copenhagen, roskilde])!, in: realm) == [])
    }

    @Test func theQueryLanguageWritesShapesAsLongitudeThenLatitude() throws {
        let realm = try realmWithPlaces()
        let places = realm.objects(Place.self)
        #expect(places.filter("location GEOWITHIN geoBox([12.0825, 55.6279], [12.5684, 55.6762])").map(\.name).sorted() == ["Maria", "Tomas"])
        #expect(places.filter("location geoWithin geoCircle([12.56, 55.67], 0.001)").map(\.name) == ["Maria"])
        #expect(places.filter("location GEOWITHIN geoPolygon({[12, 55], [12.5, 55.67], [11.5, 55.67], [12, 55]})").map(\.name) == ["Tomas"])
        #expect(places.filter("NOT location GEOWITHIN geoCircle([12.56, 55.67], 0.001) AND name BEGINSWITH 'M'").map(\.name).sorted() == ["Manuela"])
        // A predicate reads back from its text.
        let polygon = GeoPolygon(outerRing: [(55, 12), (55.67, 12.5), (55.67, 11.5), (55, 12)], holes: [])!
        let text = Internals.queryText(of: Internals.rootQuery(of: Place.self).location.geoWithin(polygon))
        #expect(text == "location GEOWITHIN geoPolygon({[12, 55], [12.5, 55.67], [11.5, 55.67], [12, 55]})")
        #expect(places.filter(text).map(\.name) == ["Tomas"])
        for bad in ["location GEOWITHIN geoBox([12, 91], [13, 56])", "location GEOWITHIN geoCircle([12, 55], -1)",
                    "location GEOWITHIN geoPolygon({[12, 55], [13, 55], [12, 55]})", "location GEOWITHIN 5",
                    "name == %@", "location GEOWITHIN geoBox([12, 55])"] {
            #expect(throws: Realm.Error.self, "\(bad)") { try places.validate(QueryPredicate(bad, GeoBox(bottomLeft: (0, 0), topRight: (1, 1))!)) }
        }
    }

    @Test func onlyPointsCount() throws {
        let realm = try realmWithPlaces()
        let places = realm.objects(Place.self)
        let box = GeoBox(bottomLeft: (55.6281, 12.0826), topRight: (55.6762, 12.5684))!
        let inBox = places.where { $0.location.geoWithin(box) }
        #expect(inBox.count == 1)
        try realm.write { for place in places { place.location?.type = "Polygon" } }
        #expect(inBox.count == 0)
        try realm.write { for place in places { place.location?.type = "pOiNt" } }
        #expect(inBox.count == 1)
        // Fewer than two coordinates, or a latitude out of range, is no point.
        let maria = places.filter("name == 'Maria'").first!
        try realm.write { maria.location = Location(95, 12.3) }
        #expect(inBox.count == 0)
        try realm.write { maria.location = Location() }
        #expect(inBox.count == 0)
        try realm.write { maria.location = Location(55.65, 12.3) }
        #expect(inBox.map(\.name) == ["Maria"])
    }

    @Test func throughALinkAndLive() throws {
        let realm = try realmWithPlaces()
        try realm.write {
            let owner = realm.create(PlaceOwner.self, value: ["name": "Ann", "home": ["coordinates": [12.5683, 55.6761]]])
            realm.objects(Place.self).forEach { $0.owner = owner }
        }
        let circle = GeoCircle(center: (55.67, 12.56), radius: .kilometers(10)!)!
        let owned = realm.objects(Place.self).filter("owner.home GEOWITHIN %@", circle)
        #expect(owned.count == 5)
        #expect(realm.objects(Place.self).where { $0.owner.home.geoWithin(circle) }.count == 5)
        try realm.write { realm.objects(PlaceOwner.self).first!.home = Location(40.7128, -74.0060) }
        #expect(owned.count == 0)
        // The template cache binds shapes too: the same text with another shape.
        let everywhere = GeoCircle(center: (0, 0), radiusInRadians: .pi)!
        #expect(realm.objects(Place.self).filter("owner.home GEOWITHIN %@", everywhere).count == 5)
    }

    @Test func dataOfTheWrongShapeIsRefused() throws {
        let realm = try realmWithPlaces()
        let shape = GeoCircle(center: (0, 0), radiusInRadians: 10)!
        let odd = realm.objects(OddlyLocated.self)
        #expect(throws: Realm.Error.self) { try odd.validate(QueryPredicate("coordinatesOnly GEOWITHIN %@", shape)) }
        do {
            try odd.validate(QueryPredicate("coordinatesOnly GEOWITHIN %@", shape))
        } catch let error as Realm.Error {
            #expect(error.code == .invalidQuery)
            #expect(error.localizedDescription.contains("Query 'coordinatesOnly GEOWITHIN GeoCircle([0, 0, 0], 10)' links to data in the wrong format for a geoWithin query"))
        }
        do {
            try odd.validate(QueryPredicate("topLevel IN %@", shape))
        } catch let error as Realm.Error {
            #expect(error.localizedDescription.contains("A GEOWITHIN query can only operate on a link to an embedded class but 'TopLevelPoint' is at the top level"))
        }
        #expect(throws: Realm.Error.self) { try realm.objects(Place.self).validate(QueryPredicate("name GEOWITHIN %@", shape)) }
    }

    /// The message a polygon is refused with, through `validate`.
    func refusal(of polygon: GeoPolygon, in realm: Realm) -> String {
        do {
            try realm.objects(Place.self).validate(QueryPredicate("location GEOWITHIN %@", polygon))
            return "accepted"
        } catch {
            return "\(error)"
        }
    }

    @Test func invalidPolygonsAreRefusedWithRealmCoresReasons() throws {
        let realm = try realmWithPlaces()
        let unit = [(0.0, 0.0), (0, 1), (1, 1), (1, 0), (0, 0)]
        for hole in [[(2.0, 2.0), (2, 3), (3, 3), (3, 2), (2, 2)], [(0, 0.1), (0.5, 0.1), (0.5, 0.5), (0, 0.5), (0, 0.1)],
                     [(0.25, 0.5), (0.75, 0.5), (0.75, 1.5), (0.25, 1.5), (0.25, 0.5)]] {
            #expect(refusal(of: GeoPolygon(outerRing: unit, holes: [hole])!, in: realm)
                .contains("Secondary ring 1 not contained by first exterior ring - secondary rings must be holes in the first ring"))
        }
        #expect(refusal(of: GeoPolygon(outerRing: unit, holes: [[(0.25, 0.25), (0.25, 0.75), (0.75, 0.75), (0.75, 0.25), (0.25, 0.25)]])!, in: realm) == "accepted")
        let crossing = GeoPolygon(outerRing: [GeoPoint(latitude: 50, longitude: -50)!, GeoPoint(latitude: 55, longitude: 55)!,
                                              GeoPoint(latitude: -50, longitude: 50)!, GeoPoint(latitude: 70, longitude: -25)!,
                                              GeoPoint(latitude: 50, longitude: -50)!])!
        #expect(refusal(of: crossing, in: realm).contains(
            "Invalid region in GEOWITHIN query for parameter 'GeoPolygon({[-50, 50, 0], [55, 55, 0], [50, -50, 0], [-25, 70, 0], [-50, 50, 0]})': "
            + "'Ring 0 is not valid: 'Edges 0 and 2 cross. Edge locations in degrees: [50.0000000, -50.0000000]-[55.0000000, 55.0000000] and "
            + "[-50.0000000, 50.0000000]-[70.0000000, -25.0000000]''"))
        let sharedEdge = GeoPolygon(outerRing: [(50, -80), (60, 20), (20, 20), (-80, -80), (50, -80)],
                                    holes: [[(40.0096192, -75.5175781), (60, 20), (20, 20), (-75.5175781, -75.5175781), (40.0096192, -75.5175781)]])!
        #expect(refusal(of: sharedEdge, in: realm).contains(
            "'GeoPolygon({[-80, 50, 0], [20, 60, 0], [20, 20, 0], [-80, -80, 0], [-80, 50, 0]}, {[-75.5176, 40.0096, 0], [20, 60, 0], [20, 20, 0], "
            + "[-75.5176, -75.5176, 0], [-75.5176, 40.0096, 0]})': 'Polygon isn't valid: 'Duplicate edge: ring 1, edge 1 and ring 0, edge 1''"))
        let nested = GeoPolygon(outerRing: [(50, -80), (62, 22), (22, 22), (-80, -80), (50, -80)],
                                holes: [[(45, -77), (61, 21), (21, 21), (-77, -77), (45, -77)],
                                        [(40.0096192, -75.5175780), (60, 20), (20, 20), (-75.5175781, -75.5175781), (40.0096192, -75.5175780)]])!
        #expect(refusal(of: nested, in: realm).contains("'Polygon interior rings cannot be nested: 2'"))
        let repeated = GeoPolygon(outerRing: [(0, 0), (0, 1), (1, 1), (0, 1), (1, 0), (0, 0)])!
        #expect(refusal(of: repeated, in: realm).contains("Ring 0 is not valid: 'Duplicate vertices: 1 and 3'"))
        #expect(refusal(of: GeoPolygon(outerRing: [(0, 0), (0, 1), (0, 1), (0, 0)])!, in: realm)
            .contains("Ring 0 must have at least 3 different vertices, 2 unique vertices were provided"))
        let invertedBox = GeoBox(bottomLeft: (1, 1), topRight: (0, 0))
        #expect(throws: Realm.Error.self) { try realm.objects(Place.self).validate(QueryPredicate("location GEOWITHIN %@", invertedBox)) }
    }

    @Test func anInvalidShapeTrapsInTheNonThrowingForms() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let directory = TestDirectory()
            let realm = try! Realm(configuration: directory.configuration(objectTypes: [Place.self, PlaceOwner.self]))
            let polygon = GeoPolygon(outerRing: [(0, 0), (0, 1), (1, 1), (1, 0), (0, 0)], holes: [[(2, 2), (2, 3), (3, 3), (3, 2), (2, 2)]])!
            _ = realm.objects(Place.self).where { $0.location.geoWithin(polygon) }
        }.map { expectMessage($0, "Secondary ring 1 not contained by first exterior ring") }
    }
}
