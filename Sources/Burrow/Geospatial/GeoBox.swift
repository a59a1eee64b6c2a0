/// A rectangle of latitudes and longitudes for `geoWithin` queries, as RealmSwift's `GeoBox`:
/// the points whose latitude is between the corners' and whose longitude is between theirs.
///
/// ```swift
/// let denmark = GeoBox(bottomLeft: (54.5, 8.0), topRight: (57.8, 15.2))!   // (latitude, longitude)
/// realm.objects(Shop.self).where { $0.location.geoWithin(denmark) }
/// ```
/// A box whose bottom-left longitude is east of its top-right one crosses the antimeridian
/// (longitude 180). A bottom-left latitude north of the top-right one is refused when queried.
public final class GeoBox: RLMGeospatial, Equatable, Hashable {
    /// The south-west corner.
    public let bottomLeft: GeoPoint
    /// The north-east corner.
    public let topRight: GeoPoint

    /// The box with these corners.
    public init(bottomLeft: GeoPoint, topRight: GeoPoint) {
        self.bottomLeft = bottomLeft
        self.topRight = topRight
    }

    /// The box with corners given as `(latitude, longitude)`, or `nil` when a corner is out of range.
    public convenience init?(bottomLeft: (Double, Double), topRight: (Double, Double)) {
        guard let bottomLeft = GeoPoint(latitude: bottomLeft.0, longitude: bottomLeft.1),
              let topRight = GeoPoint(latitude: topRight.0, longitude: topRight.1) else { return nil }
        self.init(bottomLeft: bottomLeft, topRight: topRight)
    }

    /// Whether both have the same corners.
    public static func == (lhs: GeoBox, rhs: GeoBox) -> Bool { lhs.bottomLeft == rhs.bottomLeft && lhs.topRight == rhs.topRight }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(bottomLeft)
        hasher.combine(topRight)
    }
}
