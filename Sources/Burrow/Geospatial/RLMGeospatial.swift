/// A shape a `geoWithin` query can test points against: ``GeoBox``, ``GeoCircle`` and
/// ``GeoPolygon``, under RealmSwift's name for them, so that generic code over shapes compiles.
///
/// ```swift
/// func near<S: RLMGeospatial>(_ shape: S) -> Results<Restaurant> {
///     realm.objects(Restaurant.self).where { $0.location.geoWithin(shape) }
/// }
/// ```
/// Only Burrow's three shapes can be queried with; a query with another conforming type is
/// refused (`invalidQuery`).
public protocol RLMGeospatial: Sendable {}

/// The shape of a query, whichever of the three it is.
enum GeoShape: Sendable, CustomStringConvertible {
    case box(GeoBox)
    case polygon(GeoPolygon)
    case circle(GeoCircle)

    /// The shape `value` is, or `nil` when it is not one of Burrow's shapes.
    init?(_ value: Any) {
        switch value {
        case let box as GeoBox: self = .box(box)
        case let polygon as GeoPolygon: self = .polygon(polygon)
        case let circle as GeoCircle: self = .circle(circle)
        default: return nil
        }
    }

    /// As realm-core names a shape in messages: `GeoCircle([0, 0, 0], 10)`.
    var description: String {
        switch self {
        case .box(let box): "GeoBox(\(box.bottomLeft), \(box.topRight))"
        case .circle(let circle): "GeoCircle(\(circle.center), \(GeoText.number(circle.radians)))"
        case .polygon(let polygon):
            "GeoPolygon(" + ([polygon.outerRing] + polygon.holes).map { "{" + $0.map(\.description).joined(separator: ", ") + "}" }
                .joined(separator: ", ") + ")"
        }
    }

    /// The shape in the query language, exactly: `geoBox([lng, lat], [lng, lat])`,
    /// `geoCircle([lng, lat], radians)`, `geoPolygon({[lng, lat], …}, {…})`.
    var queryText: String {
        func point(_ point: GeoPoint) -> String { "[\(GeoText.exact(point.longitude)), \(GeoText.exact(point.latitude))]" }
        switch self {
        case .box(let box): return "geoBox(\(point(box.bottomLeft)), \(point(box.topRight)))"
        case .circle(let circle): return "geoCircle(\(point(circle.center)), \(GeoText.exact(circle.radians)))"
        case .polygon(let polygon):
            let rings = ([polygon.outerRing] + polygon.holes).map { "{" + $0.map(point).joined(separator: ", ") + "}" }
            return "geoPolygon(" + rings.joined(separator: ", ") + ")"
        }
    }
}
