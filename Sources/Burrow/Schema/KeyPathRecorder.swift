import Foundation

/// Notes which fields of a probe object are read, answering each with a default value.
final class KeyPathRecorder {
    private let defaults: [_PersistedValue]
    private(set) var accessed: [Int] = []

    init(defaults: [_PersistedValue]) {
        self.defaults = defaults
    }

    func record(_ field: Int) -> _PersistedValue {
        accessed.append(field)
        return defaults[field]
    }
}

/// Property names learnt for key paths, shared across threads.
final class KeyPathNameCache: @unchecked Sendable {
    private let lock = NSLock()
    private var names: [AnyKeyPath: String] = [:]

    subscript(keyPath: AnyKeyPath) -> String? {
        get { lock.withLock { names[keyPath] } }
        set { lock.withLock { names[keyPath] = newValue } }
    }
}
