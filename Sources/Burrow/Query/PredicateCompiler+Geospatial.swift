/// `location GEOWITHIN shape`: the point an embedded object of RealmSwift's shape holds (a
/// `coordinates` list of doubles, longitude first, and a `type` string reading "Point", in any
/// case), tested against a region.
extension PredicateCompiler {
    func compileGeoWithin(column: Int, region: GeoRegion, _ comparison: Comparison, at position: Int) throws(Realm.Error) -> RowPredicate {
        let property = storedClass.properties[column]
        guard property.kind == .link, property.collection == nil, let targetName = property.objectClassName else {
            throw QueryError.at(position, "GEOWITHIN needs a link to an embedded object holding a point, and '\(property.name)' on \(storedClass.name) is \(property.typeName)")
        }
        let layout = links?.catalog.layouts[targetName]
        guard let target = layout?.storedClass ?? ClassInfo.type(named: targetName).map({ StoredClass(id: 0, info: ClassInfo.of($0)) }) else {
            throw QueryError.at(position, "'\(property.name)' goes to class '\(targetName)', which this process does not know")
        }
        guard target.isEmbedded == true else {
            throw QueryError.at(position, "A GEOWITHIN query can only operate on a link to an embedded class but '\(targetName)' is at the top level")
        }
        let typeColumn = target.properties.firstIndex { $0.name == "type" && $0.kind == .string && $0.collection == nil }
        let coordinatesColumn = target.properties.firstIndex { $0.name == "coordinates" && $0.kind == .double && $0.collection == .list }
        guard let typeColumn, let coordinatesColumn else {
            let shape = if case .shape(let shape, _) = comparison.rhs { "\(shape)" } else { "a shape" }
            throw QueryError.at(position, "Query '\(property.name) GEOWITHIN \(shape)' links to data in the wrong format for a geoWithin query")
        }
        // No table for the class: no object holds a point yet.
        guard let links, let layout, let coordinates = layout.collectionDatabase(of: coordinatesColumn) else { return { _ in false } }
        return { row in
            guard case .link(let key) = row.value(column, kind: .link), let pointRow = links.row(key, in: layout),
                  case .string(let type) = RowReader(pointRow).value(typeColumn, kind: .string), type.lowercased() == "point" else { return false }
            let values = links.listValues(of: ObjectKey(key), in: coordinates, kind: .double)
            guard values.count >= 2, case .double(let longitude) = values[0], case .double(let latitude) = values[1] else { return false }
            return region.contains(latitude: latitude, longitude: longitude)
        }
    }
}
