import Foundation

/// Notes which fields of probe objects are read, in order: a probe answers with the values its
/// fields were initialised with, except that a to-one link answers with a probe of the linked
/// class, so that a key path through links (`\Person.address?.city`) is followed to its end.
@usableFromInline
final class KeyPathRecorder: @unchecked Sendable {
    /// Each field read: the class of the probe it was read from, and its index there.
    private(set) var accessed: [(type: ObjectBase.Type, field: Int)] = []

    /// The recorder of the key path being read on this thread, for readers that are not
    /// fields (a projection's `projectTo` of a list).
    @TaskLocal static var active: KeyPathRecorder?

    @usableFromInline
    func record(_ field: Int, in object: ObjectBase) {
        accessed.append((type(of: object), field))
    }

    /// What a probe's field of type `Value` answers: a probe of the linked class for an
    /// optional to-one link; for a list, set or linking objects, `value` holding one element to
    /// read on (a probe, or a value), so that `\.dogs[0].name` names `dogs.name`; else `value`
    /// (a custom type stored as an object is named as the property itself).
    @usableFromInline
    func probeValue<Value: _Persistable>(_ value: Value) -> Value {
        if Value._collectionKind != nil {
            (value as? any KeyPathProbeCollection)?.holdProbeElement(recordingInto: self)
            return value
        }
        guard Value.self is any LinkedObjectValue.Type, let linked = Value._linkedType, !(linked is DynamicObject.Type) else { return value }
        return Value._fromLinkedObject(ClassInfo.of(linked).probe(recordingInto: self))
    }

    /// An element for a probe's collection of `Element`s: a probe of the linked class for
    /// objects, the type's default for values; `nil` when there is none.
    func probeElement<Element: _Persistable>(of type: Element.Type) -> Element? {
        if Element.self is any LinkedObjectValue.Type, let linked = Element._linkedType {
            return linked is DynamicObject.Type ? nil : Element._fromLinkedObject(ClassInfo.of(linked).probe(recordingInto: self))
        }
        return Element._defaultIfBuildable
    }

    /// Notes the names read past a collection of `elements`: `friends.projectTo.firstName`.
    func recordElements(of elements: ObjectBase.Type, path: [String]) {
        let info = ClassInfo.of(elements)
        for name in path {
            guard let field = info.fieldIndex[name] else { return }
            accessed.append((elements, field))
        }
    }
}

/// Property names learnt for key paths, shared across threads.
///
/// Looked up by the key path object's identity, which is cheap to hash; each entry keeps its key
/// path alive, so an address can never be reused by another key path while it is cached.
final class KeyPathNameCache: @unchecked Sendable {
    private let lock = NSLock()
    private var names: [ObjectIdentifier: (keyPath: AnyKeyPath, name: String)] = [:]

    subscript(keyPath: AnyKeyPath) -> String? {
        get {
            lock.withLock {
                guard let entry = names[ObjectIdentifier(keyPath)], entry.keyPath === keyPath else { return nil }
                return entry.name
            }
        }
        set {
            lock.withLock {
                if names.count >= 4096 { names.removeAll(keepingCapacity: true) }
                names[ObjectIdentifier(keyPath)] = newValue.map { (keyPath, $0) }
            }
        }
    }
}

/// An object type, or an optional one: what a probe's link field answers with a probe.
protocol LinkedObjectValue {}
extension ObjectBase: LinkedObjectValue {}
extension Optional: LinkedObjectValue where Wrapped: ObjectBase {}

/// A collection property of a probe (``ClassInfo/probe(recordingInto:)``), which holds one
/// element to read on when a key path reads past it.
protocol KeyPathProbeCollection: AnyObject {
    func holdProbeElement(recordingInto recorder: KeyPathRecorder)
}
