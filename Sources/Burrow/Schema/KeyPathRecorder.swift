import Foundation

/// Notes which fields of a probe object are read; the probe answers with the values its
/// fields were initialised with.
@usableFromInline
final class KeyPathRecorder {
    private(set) var accessed: [Int] = []

    @usableFromInline
    func record(_ field: Int) {
        accessed.append(field)
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
