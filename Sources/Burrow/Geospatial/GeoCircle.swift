/// A circle on the Earth for `geoWithin` queries, as RealmSwift's `GeoCircle`: the points
/// within an angular distance of a centre, along the sphere.
///
/// ```swift
/// let nearby = GeoCircle(center: (55.67, 12.56), radius: .kilometers(10)!)!   // (latitude, longitude)
/// realm.objects(Shop.self).where { $0.location.geoWithin(nearby) }
/// ```
public final class GeoCircle: RLMGeospatial, Equatable, Hashable {
    /// The centre.
    public let center: GeoPoint
    /// The radius, as the angle it spans at the Earth's centre.
    public let radians: Double

    /// The circle, or `nil` when the radius is negative or not a number.
    public init?(center: GeoPoint, radiusInRadians: Double) {
        guard radiusInRadians >= 0 else { return nil }
        self.center = center
        radians = radiusInRadians
    }

    /// The circle of a ``Distance``.
    public init(center: GeoPoint, radius: Distance) {
        self.center = center
        radians = radius.radians
    }

    /// The circle around `(latitude, longitude)`, or `nil` when the centre is out of range or
    /// the radius negative.
    public convenience init?(center: (Double, Double), radiusInRadians: Double) {
        guard let point = GeoPoint(latitude: center.0, longitude: center.1) else { return nil }
        self.init(center: point, radiusInRadians: radiusInRadians)
    }

    /// The circle around `(latitude, longitude)`, or `nil` when the centre is out of range.
    public convenience init?(center: (Double, Double), radius: Distance) {
        guard let point = GeoPoint(latitude: center.0, longitude: center.1) else { return nil }
        self.init(center: point, radius: radius)
    }

    /// Whether both have the same centre and radius.
    public static func == (lhs: GeoCircle, rhs: GeoCircle) -> Bool { lhs.center == rhs.center && lhs.radians == rhs.radians }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(center)
        hasher.combine(radians)
    }
}
