/// A view of an object through chosen, renamed and derived properties, as RealmSwift's
/// `Projection`: declare the view's properties with ``Projected``, and query, observe and
/// write through it.
///
/// ```swift
/// final class PersonView: Projection<Person> {
///     @Projected(\Person.firstName) var name
///     @Projected(\Person.address?.city) var homeCity
///     @Projected(\Person.friends.projectTo.firstName) var friendNames: ProjectedCollection<String>
/// }
/// let views = realm.objects(PersonView.self).filter("lastName == 'Snow'")   // live Results
/// try realm.write { views[0].name = "Jon" }                                  // writes Person.firstName
/// ```
/// Queries and sorts name the object's stored properties. Two projections are equal when they
/// project the same object.
open class Projection<Root: ObjectBase & RealmCollectionValue & ThreadConfined>: RealmCollectionValue, ProjectionObservable,
    CustomStringConvertible {
    /// Projections are stored as the object they project.
    public typealias PersistedType = Root

    /// The projected object.
    public let rootObject: Root

    /// A projection of `object`; traps for a `@Projected` key path that reads no stored property.
    public required init(projecting object: Root) {
        rootObject = object
        _ = schema
    }

    var schema: ProjectionSchema { ProjectionSchema.of(self, root: Root.self) }

    /// Whether both project the same object: the same instance, or the same stored object read
    /// through the same realm instance, whatever its class's primary key (a live projection is
    /// not its frozen snapshot), as RealmSwift compares projections.
    public static func == (lhs: Projection, rhs: Projection) -> Bool {
        let (left, right) = (lhs.rootObject, rhs.rootObject)
        if left === right { return true }
        guard let l = left.management, let r = right.management, l.realm === r.realm else { return false }
        return l.bound.layout.classID == r.bound.layout.classID && l.key == r.key
    }

    /// Hashes what ``==(_:_:)`` compares: the stored object of a managed root, the instance of
    /// an unmanaged one.
    public func hash(into hasher: inout Hasher) {
        guard let management = rootObject.management else {
            hasher.combine(ObjectIdentifier(rootObject))
            return
        }
        hasher.combine(ObjectIdentifier(management.realm))
        hasher.combine(management.bound.layout.classID)
        hasher.combine(management.key.rawValue)
    }

    /// The projection's properties, the stored paths they read and their values, in RealmSwift's
    /// layout.
    open var description: String {
        let lines = schema.properties.map { "\t\($0.label)(\\.\($0.describedPath)) = \(rootObject[keyPath: $0.keyPath].map { "\($0)" } ?? "nil");" }
        let address = Unmanaged.passUnretained(rootObject).toOpaque()
        return "\(type(of: self))<\(type(of: rootObject))> <\(address)> {\n\t" + lines.joined(separator: "\n") + "\n}"
    }
}

/// What observable projections share: the object they project, and a way to project another.
///
/// ```swift
/// func watch<P: ProjectionObservable>(_ view: P) -> NotificationToken where P.Root: Object {
///     view.observe { (change: ObjectChange<P>) in print(change) }
/// }
/// ```
public protocol ProjectionObservable: AnyObject, ThreadConfined {
    /// The class of the projected object.
    associatedtype Root: ObjectBase
    /// The projected object.
    var rootObject: Root { get }
    /// A projection of `object`.
    init(projecting object: Root)
}

/// What ``Realm/objects(_:)`` fetches: objects, or projections of them.
///
/// ```swift
/// func storedName<T: RealmFetchable>(of type: T.Type) -> String { type.className() }
/// storedName(of: PersonView.self)   // "Person"
/// ```
public protocol RealmFetchable: RealmCollectionValue {
    /// The name of the class stored in the file.
    static func className() -> String
}

extension Object: RealmFetchable {}

extension Projection: RealmFetchable {
    /// The stored class of the projected objects.
    public static func className() -> String { ClassInfo.storedName(of: Root.self) }
}

extension Projection: ThreadConfined {
    /// The realm of the projected object, or `nil` while it is unmanaged.
    public var realm: Realm? { rootObject.realm }
    /// Whether the projected object was deleted, or its realm invalidated.
    public var isInvalidated: Bool { rootObject.isInvalidated }
    /// Whether the projected object is frozen.
    public var isFrozen: Bool { rootObject.isFrozen }

    /// A projection of the object frozen at its realm's current version.
    public func freeze() -> Self { Self(projecting: rootObject.freeze()) }

    /// A projection of the live object in the calling thread's realm, or `nil` when it was
    /// deleted.
    public func thaw() -> Self? { rootObject.thaw().map { Self(projecting: $0) } }
}

extension Projection: RealmBound {
    var boundRealm: RealmCore? { (rootObject as? any RealmBound)?.boundRealm }

    func moved(to core: RealmCore) -> Self? {
        guard let bound = rootObject as? any RealmBound, let moved = bound.moved(to: core) as? Root else { return nil }
        return Self(projecting: moved)
    }
}
