import LMDB

/// The `@Projected` properties of a projection class: each one's label, the key path it reads
/// and the stored property path that key path goes through (`address.city`), learnt once per
/// class from an instance.
struct ProjectionSchema: Sendable {
    struct Property: @unchecked Sendable {
        /// The projection's property name.
        let label: String
        let keyPath: AnyKeyPath
        /// The stored property path the key path reads (`firstName`, `address.city`).
        let originPath: String

        /// The path as RealmSwift's descriptions show it: up to the list or set a `projectTo`
        /// reads through (`friends`, not `friends.firstName`).
        let describedPath: String

        /// The root object's property the key path starts with.
        var originProperty: Substring { originPath.split(separator: ".", maxSplits: 1)[0] }
    }

    let properties: [Property]

    private static let cache = Locked<[ObjectIdentifier: ProjectionSchema]>([:])

    /// The schema of `projection`'s class; traps for a `@Projected` key path that reads no
    /// stored property, as RealmSwift does.
    static func of(_ projection: AnyObject, root: ObjectBase.Type) -> ProjectionSchema {
        let identifier = ObjectIdentifier(type(of: projection))
        if let known = cache.withLock({ $0[identifier] }) { return known }
        let info = ClassInfo.of(root)
        var properties: [Property] = []
        for child in Mirror(reflecting: projection).children {
            guard let label = child.label?.dropFirst(), let projected = child.value as? AnyProjected else { continue }
            guard let origin = info.persistedPropertyName(of: projected.projectedKeyPath) else {
                burrowPreconditionFailure("@Projected property '\(label)' must be a part of Realm object: \(projected.projectedKeyPath) reads no @Persisted property of '\(info.className)'.")
            }
            properties.append(Property(label: String(label), keyPath: projected.projectedKeyPath, originPath: origin,
                                       describedPath: Self.describedPath(origin, from: info)))
        }
        let schema = ProjectionSchema(properties: properties)
        cache.withLock { $0[identifier] = schema }
        return schema
    }

    /// `path` up to and including its first list, set or map.
    private static func describedPath(_ path: String, from root: ClassInfo) -> String {
        var info: ClassInfo? = root
        var names: [Substring] = []
        for name in path.split(separator: ".") {
            names.append(name)
            guard let current = info, let index = current.fieldIndex[String(name)] else { break }
            let field = current.fields[index]
            if field.collection != nil { break }
            info = field.linkedType.map(ClassInfo.of)
        }
        return names.joined(separator: ".")
    }
}
