import Foundation

/// One ring of a ``GeoPolygon`` on the sphere: its vertices, without the closing repeat, in an
/// order that keeps the ring's inside on the left, the inside being the smaller of the two
/// regions the ring divides the sphere into.
struct SphereLoop: Sendable {
    let vertices: [SpherePoint]
    /// A point a little inside the loop, from which arcs to other points are followed.
    private let reference: SpherePoint

    /// The loop of `ring` (ring `index` of its polygon), checked as realm-core's rings are:
    /// closed, at least three distinct vertices, no vertex twice, no two edges crossing.
    init(ring: [GeoPoint], index: Int) throws(GeoRegion.Invalid) {
        guard let first = ring.first, let last = ring.last else { throw GeoRegion.Invalid("Ring has no vertices") }
        guard first == last else {
            throw GeoRegion.Invalid("Ring is not closed, first vertex 'GeoPoint(\(first))' does not equal last vertex 'GeoPoint(\(last))'")
        }
        var points: [SpherePoint] = []
        for point in ring {
            let spherical = SpherePoint(latitude: point.latitude, longitude: point.longitude)
            if points.last != spherical { points.append(spherical) }
        }
        points.removeLast()
        guard points.count >= 3 else {
            throw GeoRegion.Invalid("Ring \(index) must have at least 3 different vertices, \(points.count) unique vertices were provided")
        }
        try Self.checkSimple(points, ring: index)
        // Left of the edges is the inside: when that is more than half the sphere, go the other way.
        if Self.leftArea(points) > 2 * .pi { points.reverse() }
        vertices = points
        reference = Self.pointJustInside(points)
    }

    var edgeCount: Int { vertices.count }

    /// Edge `index`: from vertex `index` to the next.
    func edge(_ index: Int) -> (SpherePoint, SpherePoint) { (vertices[index], vertices[(index + 1) % vertices.count]) }

    /// Whether `point` is inside the loop: an arc from the reference point, which is inside,
    /// crosses the edges an even number of times.
    func contains(_ point: SpherePoint) -> Bool {
        var crossings = 0
        for index in 0..<edgeCount {
            let (a, b) = edge(index)
            if SpherePoint.arcsCross(reference, point, a, b) { crossings += 1 }
        }
        return crossings % 2 == 0
    }

    /// Whether `point` lies on an edge of the loop (a vertex too).
    func boundaryHolds(_ point: SpherePoint) -> Bool {
        vertices.contains(point) || (0..<edgeCount).contains { SpherePoint.arc(edge($0).0, edge($0).1, passesThrough: point) }
    }

    /// Whether the loop holds `other` (S2's rule for a hole in an outer ring): no edges cross,
    /// and each vertex of `other` is inside this loop or is one of its vertices.
    func contains(_ other: SphereLoop) -> Bool {
        if crosses(other) { return false }
        return other.vertices.allSatisfy { vertex in
            vertices.contains(vertex) || (!boundaryHolds(vertex) && contains(vertex))
        }
    }

    /// Whether an edge of this loop crosses an edge of `other`.
    func crosses(_ other: SphereLoop) -> Bool {
        for mine in 0..<edgeCount {
            let (a, b) = edge(mine)
            for theirs in 0..<other.edgeCount {
                let (c, d) = other.edge(theirs)
                if SpherePoint.arcsCross(a, b, c, d) { return true }
            }
        }
        return false
    }

    /// How many vertices both loops have.
    func sharedVertexCount(with other: SphereLoop) -> Int {
        other.vertices.reduce(0) { $0 + (vertices.contains($1) ? 1 : 0) }
    }

    // MARK: Building

    /// Refuses a vertex repeated, and two edges that are not neighbours crossing.
    private static func checkSimple(_ points: [SpherePoint], ring: Int) throws(GeoRegion.Invalid) {
        let count = points.count
        for i in 0..<count {
            for j in (i + 1)..<count where points[i] == points[j] {
                throw GeoRegion.Invalid("Ring \(ring) is not valid: 'Duplicate vertices: \(i) and \(j)'")
            }
        }
        for i in 0..<count {
            let a = points[i], b = points[(i + 1) % count]
            for j in stride(from: i + 2, to: count, by: 1) where !(i == 0 && j == count - 1) {
                let c = points[j], d = points[(j + 1) % count]
                if SpherePoint.arcsCross(a, b, c, d) {
                    throw GeoRegion.Invalid("Ring \(ring) is not valid: 'Edges \(i) and \(j) cross. Edge locations in degrees: "
                                            + "\(a.degreesText)-\(b.degreesText) and \(c.degreesText)-\(d.degreesText)'")
                }
            }
        }
    }

    /// The area of the region left of the loop's edges: 2π less the turns at the vertices.
    private static func leftArea(_ points: [SpherePoint]) -> Double {
        var turning = 0.0
        let count = points.count
        for index in 0..<count {
            let a = points[(index + count - 1) % count], b = points[index], c = points[(index + 1) % count]
            let incoming = a.cross(b), outgoing = b.cross(c)
            let angle = atan2(incoming.cross(outgoing).length, incoming.dot(outgoing))
            turning += incoming.dot(c) > 0 ? angle : -angle
        }
        return 2 * .pi - turning
    }

    /// A point just left of the middle of the longest edge: inside the loop, as it is nearer
    /// that edge than any other edge is. Its distance from the edge is a fraction of the
    /// loop's own scale, so that the tests of arcs from it stay exact for tiny loops too.
    private static func pointJustInside(_ points: [SpherePoint]) -> SpherePoint {
        var longest = 0, longestAngle = -1.0
        for index in points.indices {
            let angle = points[index].angle(to: points[(index + 1) % points.count])
            if angle > longestAngle { (longest, longestAngle) = (index, angle) }
        }
        let a = points[longest], b = points[(longest + 1) % points.count]
        let middle = (a + b).normalized
        var clearance = longestAngle / 4
        for index in points.indices where index != longest {
            clearance = min(clearance, distance(from: middle, toArc: points[index], points[(index + 1) % points.count]) / 4)
        }
        let left = a.cross(b).normalized
        return (cos(clearance) * middle + sin(clearance) * left).normalized
    }

    /// The angle from `point` to the nearest point of the arc `a`–`b`.
    private static func distance(from point: SpherePoint, toArc a: SpherePoint, _ b: SpherePoint) -> Double {
        let normal = a.cross(b)
        if normal.length > 0, a.cross(point).dot(normal) > 0, point.cross(b).dot(normal) > 0 {
            return asin(min(1, abs(normal.normalized.dot(point))))
        }
        return min(point.angle(to: a), point.angle(to: b))
    }
}
