/// A point on the Earth: a latitude and a longitude in degrees, and an altitude, as RealmSwift's
/// `GeoPoint`. It builds the shapes of `geoWithin` queries; it is not stored.
///
/// ```swift
/// let copenhagen = GeoPoint(latitude: 55.6761, longitude: 12.5683)!
/// GeoPoint(latitude: 91, longitude: 0)   // nil: out of range
/// ```
///
/// Objects are located by an embedded object of RealmSwift's shape: a `coordinates` list of
/// doubles (longitude first, then latitude) and a `type` string that reads `"Point"`:
///
/// ```swift
/// final class Location: EmbeddedObject {
///     @Persisted private(set) var coordinates: List<Double>
///     @Persisted var type = "Point"
///     convenience init(_ latitude: Double, _ longitude: Double) {
///         self.init()
///         coordinates.append(objectsIn: [longitude, latitude])
///     }
/// }
/// ```
public final class GeoPoint: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Degrees north of the equator, from -90 to 90.
    public let latitude: Double
    /// Degrees east of Greenwich, from -180 to 180.
    public let longitude: Double
    /// The altitude, 0 or more; queries do not use it.
    public let altitude: Double

    /// A point, or `nil` when the latitude is outside -90…90, the longitude outside -180…180,
    /// the altitude negative, or any of them not a number.
    public init?(latitude: Double, longitude: Double, altitude: Double = 0) {
        guard (-90...90).contains(latitude), (-180...180).contains(longitude), altitude >= 0 else { return nil }
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
    }

    /// Whether both have the same latitude, longitude and altitude.
    public static func == (lhs: GeoPoint, rhs: GeoPoint) -> Bool {
        lhs.latitude == rhs.latitude && lhs.longitude == rhs.longitude && lhs.altitude == rhs.altitude
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(latitude)
        hasher.combine(longitude)
        hasher.combine(altitude)
    }

    /// `[longitude, latitude, altitude]`, the order of the stored coordinates.
    public var description: String { "[\(GeoText.number(longitude)), \(GeoText.number(latitude)), \(GeoText.number(altitude))]" }
}

/// The texts of shapes in messages and in the query language.
enum GeoText {
    /// A number as messages print it: up to six significant digits (`-75.5176`, `10`).
    static func number(_ value: Double) -> String {
        var text = String(format: "%g", value)
        if text == "-0" { text = "0" }
        return text
    }

    /// A number exactly, for query text that must read back the same value.
    static func exact(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }
}
