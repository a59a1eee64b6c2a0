import Foundation

/// A point of the unit sphere, as a vector from its centre: what spherical geometry computes
/// with.
struct SpherePoint: Equatable, Sendable {
    var x, y, z: Double

    init(x: Double, y: Double, z: Double) {
        (self.x, self.y, self.z) = (x, y, z)
    }

    /// The point at `latitude` and `longitude` degrees.
    init(latitude: Double, longitude: Double) {
        let lat = latitude * .pi / 180, lng = longitude * .pi / 180
        self.init(x: cos(lat) * cos(lng), y: cos(lat) * sin(lng), z: sin(lat))
    }

    func dot(_ other: SpherePoint) -> Double { x * other.x + y * other.y + z * other.z }

    func cross(_ other: SpherePoint) -> SpherePoint {
        SpherePoint(x: y * other.z - z * other.y, y: z * other.x - x * other.z, z: x * other.y - y * other.x)
    }

    static func + (lhs: SpherePoint, rhs: SpherePoint) -> SpherePoint { SpherePoint(x: lhs.x + rhs.x, y: lhs.y + rhs.y, z: lhs.z + rhs.z) }

    static func * (scale: Double, point: SpherePoint) -> SpherePoint { SpherePoint(x: scale * point.x, y: scale * point.y, z: scale * point.z) }

    var length: Double { dot(self).squareRoot() }

    /// The same direction at length 1.
    var normalized: SpherePoint { (1 / length) * self }

    /// The angle between two points, in radians (0…π).
    func angle(to other: SpherePoint) -> Double { atan2(cross(other).length, dot(other)) }

    /// `[latitude, longitude]` in degrees with seven decimals, as messages about polygon edges
    /// print a point.
    var degreesText: String {
        let latitude = atan2(z, (x * x + y * y).squareRoot()) * 180 / .pi
        let longitude = atan2(y, x) * 180 / .pi
        return String(format: "[%.7f, %.7f]", latitude, longitude)
    }

    /// Whether the arcs `a`–`b` and `c`–`d` (each shorter than half a great circle) cross at
    /// a point inside both; arcs that only touch, at an end or along a shared great circle, do
    /// not cross.
    static func arcsCross(_ a: SpherePoint, _ b: SpherePoint, _ c: SpherePoint, _ d: SpherePoint) -> Bool {
        // c and d on opposite sides of the great circle through a and b, a and b on opposite
        // sides of the one through c and d, and all four turning the same way.
        let ab = a.cross(b)
        let acb = -ab.dot(c), bda = ab.dot(d)
        guard acb * bda > 0 else { return false }
        let cd = c.cross(d)
        let cbd = -cd.dot(b), dac = cd.dot(a)
        return acb * cbd > 0 && acb * dac > 0
    }

    /// Whether `point` lies on the arc `a`–`b`, away from its ends.
    static func arc(_ a: SpherePoint, _ b: SpherePoint, passesThrough point: SpherePoint) -> Bool {
        guard point != a, point != b else { return false }
        let normal = a.cross(b)
        let length = normal.length
        guard length > 0, abs(normal.dot(point)) <= 1e-15 * max(1, length) else { return false }
        // On the great circle: between the ends when it is on the near side of both.
        return a.cross(point).dot(normal) > 0 && point.cross(b).dot(normal) > 0
    }
}
