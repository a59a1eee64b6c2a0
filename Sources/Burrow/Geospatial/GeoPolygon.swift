/// A polygon on the Earth for `geoWithin` queries, as RealmSwift's `GeoPolygon`: an outer ring
/// and holes, each closed (its last point is its first) and of at least four points; edges are
/// arcs of great circles.
///
/// ```swift
/// let zealand = GeoPolygon(outerRing: [(55.0, 12.0), (55.67, 12.5), (55.67, 11.5), (55.0, 12.0)])!   // (latitude, longitude)
/// realm.objects(Shop.self).where { $0.location.geoWithin(zealand) }
/// ```
/// The rings must also form a valid polygon, which is checked when it is queried: no ring
/// crosses itself or another, holes lie inside the outer ring and not inside each other, and
/// no two rings share an edge. A ring is taken as the smaller of the two regions it divides
/// the sphere into.
public final class GeoPolygon: RLMGeospatial, Equatable, Hashable {
    /// The outer ring, closed.
    public let outerRing: [GeoPoint]
    /// The holes, each closed.
    public let holes: [[GeoPoint]]

    /// The polygon, or `nil` when a ring has fewer than four points or does not end where it
    /// starts.
    public init?(outerRing: [GeoPoint], holes: [[GeoPoint]]? = nil) {
        let holes = holes ?? []
        guard ([outerRing] + holes).allSatisfy({ $0.count > 3 && $0.first == $0.last }) else { return nil }
        self.outerRing = outerRing
        self.holes = holes
    }

    /// The polygon of rings given as `(latitude, longitude)` pairs, or `nil` when a point is
    /// out of range or a ring is not a closed ring of four points or more.
    public convenience init?(outerRing: [(Double, Double)], holes: [[(Double, Double)]] = []) {
        let points = { (ring: [(Double, Double)]) in ring.compactMap { GeoPoint(latitude: $0.0, longitude: $0.1) } }
        let outer = points(outerRing), inner = holes.map(points)
        guard outer.count == outerRing.count, zip(holes, inner).allSatisfy({ $0.count == $1.count }) else { return nil }
        self.init(outerRing: outer, holes: inner)
    }

    /// The polygon with holes given one after the other.
    public convenience init?(outerRing: [(Double, Double)], holes: [(Double, Double)]...) {
        self.init(outerRing: outerRing, holes: holes)
    }

    /// Whether both have the same rings.
    public static func == (lhs: GeoPolygon, rhs: GeoPolygon) -> Bool { lhs.outerRing == rhs.outerRing && lhs.holes == rhs.holes }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(outerRing)
        hasher.combine(holes)
    }
}
