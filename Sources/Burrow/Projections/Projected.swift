/// A property of a ``Projection``: a key path into the projected object, read and written
/// through it, as RealmSwift's `@Projected`.
///
/// ```swift
/// final class PersonView: Projection<Person> {
///     @Projected(\Person.firstName) var name                          // a renamed property
///     @Projected(\Person.address?.city) var homeCity                  // a path through a link
///     @Projected(\Person.lastName.localizedUppercase) var shouting    // a value computed from one
///     @Projected(\Person.friends.projectTo.firstName) var friendNames: ProjectedCollection<String>
/// }
/// ```
/// Writing one writes the object's property (inside a write); a key path that cannot be
/// written traps.
@propertyWrapper
public struct Projected<T: ObjectBase, Value>: AnyProjected {
    let keyPath: KeyPath<T, Value>

    var projectedKeyPath: AnyKeyPath { keyPath }

    /// Only a projection's property can be `@Projected`.
    @available(*, unavailable, message: "@Projected can only be used as a property of a Projection")
    public var wrappedValue: Value {
        get { fatalError() }
        // swiftlint:disable:next unused_setter_value
        set { fatalError() }
    }

    /// Reads and writes the property through the projection's object.
    public static subscript<EnclosingSelf: Projection<T>>(
        _enclosingInstance projection: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Self>
    ) -> Value {
        get {
            projection.rootObject[keyPath: projection[keyPath: storageKeyPath].keyPath]
        }
        set {
            let keyPath = projection[keyPath: storageKeyPath].keyPath
            guard let writable = keyPath as? ReferenceWritableKeyPath<T, Value> else {
                burrowPreconditionFailure("The key path \(keyPath) of a @Projected property cannot be written: it is computed or read-only.")
            }
            projection.rootObject[keyPath: writable] = newValue
        }
    }

    /// The property `projectedKeyPath` reads from the projected object.
    public init(_ projectedKeyPath: KeyPath<T, Value>) {
        keyPath = projectedKeyPath
    }
}

/// A `@Projected` property, whatever its types, as the projection's schema finds it.
protocol AnyProjected {
    var projectedKeyPath: AnyKeyPath { get }
}
