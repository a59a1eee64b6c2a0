import Foundation

/// A shape made ready to test points, once per query: its rings on the sphere, checked as
/// realm-core checks them (which refuses what MongoDB's GeoJSON refuses).
///
/// A box holds the points whose latitude and longitude lie between its corners'; a circle
/// those within its radius of its centre, along the sphere; a polygon those inside its outer
/// ring and outside every hole, its edges being arcs of great circles.
struct GeoRegion: Sendable {
    /// Why a shape cannot be queried with.
    struct Invalid: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    private enum Kind: Sendable {
        case box(latitudes: ClosedRange<Double>, west: Double, east: Double)
        case circle(center: SpherePoint, radians: Double)
        case polygon(outer: SphereLoop, holes: [SphereLoop])
    }

    private let kind: Kind

    /// The region of `shape`.
    ///
    /// - Throws: ``Invalid`` for a box whose south is north of its north, and a polygon whose
    ///   rings cross, repeat a vertex or an edge, or nest in the wrong way.
    init(_ shape: GeoShape) throws(Invalid) {
        switch shape {
        case .box(let box):
            guard box.bottomLeft.latitude <= box.topRight.latitude else { throw Invalid("Invalid rectangle") }
            kind = .box(latitudes: box.bottomLeft.latitude...box.topRight.latitude, west: box.bottomLeft.longitude, east: box.topRight.longitude)
        case .circle(let circle):
            kind = .circle(center: SpherePoint(latitude: circle.center.latitude, longitude: circle.center.longitude), radians: circle.radians)
        case .polygon(let polygon):
            kind = try Self.polygon(polygon)
        }
    }

    /// Whether the point at `latitude` and `longitude` (degrees) is in the region; a point out
    /// of range is in none.
    func contains(latitude: Double, longitude: Double) -> Bool {
        guard (-90...90).contains(latitude), (-180...180).contains(longitude) else { return false }
        switch kind {
        case .box(let latitudes, let west, let east):
            guard latitudes.contains(latitude) else { return false }
            // Longitude 180 and -180 are one meridian; a west edge east of the east edge wraps.
            if west <= east {
                return (west...east).contains(longitude) || (abs(longitude) == 180 && (abs(west) == 180 || abs(east) == 180))
            }
            return longitude >= west || longitude <= east
        case .circle(let center, let radians):
            return center.angle(to: SpherePoint(latitude: latitude, longitude: longitude)) <= radians
        case .polygon(let outer, let holes):
            let point = SpherePoint(latitude: latitude, longitude: longitude)
            return outer.contains(point) && !holes.contains { $0.contains(point) }
        }
    }

    /// A polygon's rings, checked in realm-core's order: each ring, then holes inside the outer
    /// ring, then edges shared or crossing between rings, then vertices shared with the ring
    /// around, then nesting.
    private static func polygon(_ polygon: GeoPolygon) throws(Invalid) -> Kind {
        var loops: [SphereLoop] = []
        for (index, ring) in ([polygon.outerRing] + polygon.holes).enumerated() {
            let loop = try SphereLoop(ring: ring, index: index)
            if index > 0, !loops[0].contains(loop) {
                throw Invalid("Secondary ring \(index) not contained by first exterior ring - secondary rings must be holes in the first ring")
            }
            loops.append(loop)
        }
        try checkEdgesApart(loops)
        // The ring around each hole: the outer ring, or a hole holding it.
        var depths = [Int](repeating: 0, count: loops.count)
        for index in loops.indices.dropFirst() {
            let around = loops.indices.filter { $0 != index && $0 > 0 && loops[$0].contains(loops[index]) }
            depths[index] = 1 + around.count
            let parent = around.last ?? 0
            if loops[index].sharedVertexCount(with: loops[parent]) > 1 {
                throw Invalid("Polygon is not normalized: 'Ring \(index) shares more than one vertex with its parent ring \(parent)'")
            }
        }
        if let nested = depths.firstIndex(where: { $0 > 1 }) {
            throw Invalid("Polygon interior rings cannot be nested: \(nested)")
        }
        return .polygon(outer: loops[0], holes: Array(loops.dropFirst()))
    }

    /// Refuses an edge two rings share (either way round) and holes whose edges cross.
    private static func checkEdgesApart(_ loops: [SphereLoop]) throws(Invalid) {
        struct Edge: Hashable {
            let from, to: [Double]
            init(_ a: SpherePoint, _ b: SpherePoint) {
                let (p, q) = ([a.x, a.y, a.z], [b.x, b.y, b.z])
                (from, to) = p.lexicographicallyPrecedes(q) ? (p, q) : (q, p)
            }
        }
        var seen: [Edge: (ring: Int, edge: Int)] = [:]
        for (ring, loop) in loops.enumerated() {
            for index in 0..<loop.edgeCount {
                let (a, b) = loop.edge(index)
                let edge = Edge(a, b)
                if let earlier = seen[edge], earlier.ring != ring {
                    throw Invalid("Polygon isn't valid: 'Duplicate edge: ring \(ring), edge \(index) and ring \(earlier.ring), edge \(earlier.edge)'")
                }
                seen[edge] = seen[edge] ?? (ring, index)
            }
        }
        for first in loops.indices.dropFirst() {
            for second in loops.indices where second > first && loops[first].crosses(loops[second]) {
                throw Invalid("Polygon isn't valid: 'Ring \(first) crosses ring \(second)'")
            }
        }
    }
}
