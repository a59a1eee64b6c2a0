extension Query where T: _QueryLinkable & ExpressibleByNilLiteral, T._LinkedObject: EmbeddedObject {
    /// The objects whose embedded point lies within `shape`: a ``GeoBox``, ``GeoCircle`` or
    /// ``GeoPolygon``, as RealmSwift's `geoWithin`.
    ///
    /// ```swift
    /// let nearby = GeoCircle(center: (55.67, 12.56), radius: .kilometers(10)!)!
    /// realm.objects(Shop.self).where { $0.location.geoWithin(nearby) }
    /// ```
    /// The embedded class must hold a `coordinates` list of doubles (longitude, latitude) and
    /// a `type` string; objects whose `type` is not "Point", or with fewer than two coordinates,
    /// or without a location, are not within any shape. Traps, when the query is used, for an
    /// embedded class of another shape and for a polygon that is not valid (see ``GeoPolygon``).
    public func geoWithin<U: RLMGeospatial>(_ shape: U) -> Query<Bool> {
        guard let shape = GeoShape(shape) else {
            burrowPreconditionFailure("geoWithin needs a GeoBox, GeoCircle or GeoPolygon, not a \(U.self).")
        }
        return spelled(Query<Bool>(.predicate(.comparison(Comparison(lhs: lhsOperand, op: .geoWithin, rhs: .shape(shape, position: 0)))))) {
            $0.comparing("IN", value: shape)
        }
    }
}
