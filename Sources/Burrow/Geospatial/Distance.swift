/// A distance on the Earth, kept as the angle it spans at the Earth's centre, as RealmSwift's
/// `Distance`: the radius of a ``GeoCircle``.
///
/// ```swift
/// let radius = Distance.kilometers(10)!
/// radius.radians        // 0.00157
/// radius.asMiles()      // 6.21
/// ```
public final class Distance: Equatable, Hashable, Sendable {
    /// The Earth's radius in metres RealmSwift converts with.
    static let earthRadiusMeters = 6_378_100.0
    static let metersPerMile = 1609.344

    /// The angle the distance spans, in radians.
    public let radians: Double

    private init?(radians: Double) {
        guard radians >= 0 else { return nil }   // also refuses NaN
        self.radians = radians
    }

    /// A distance of `kilometers`, or `nil` when negative or not a number.
    public static func kilometers(_ kilometers: Double) -> Distance? { Distance(radians: kilometers * 1000 / earthRadiusMeters) }
    /// A distance of `miles`, or `nil` when negative or not a number.
    public static func miles(_ miles: Double) -> Distance? { Distance(radians: miles * metersPerMile / earthRadiusMeters) }
    /// A distance spanning `degrees`, or `nil` when negative or not a number.
    public static func degrees(_ degrees: Double) -> Distance? { Distance(radians: degrees * .pi / 180) }
    /// A distance spanning `radians`, or `nil` when negative or not a number.
    public static func radians(_ radians: Double) -> Distance? { Distance(radians: radians) }

    /// The distance in kilometers.
    public func asKilometers() -> Double { radians * Self.earthRadiusMeters / 1000 }
    /// The distance in miles.
    public func asMiles() -> Double { radians * Self.earthRadiusMeters / Self.metersPerMile }
    /// The angle in degrees.
    public func asDegrees() -> Double { radians * 180 / .pi }

    /// Whether both span the same angle.
    public static func == (lhs: Distance, rhs: Distance) -> Bool { lhs.radians == rhs.radians }

    public func hash(into hasher: inout Hasher) { hasher.combine(radians) }
}
