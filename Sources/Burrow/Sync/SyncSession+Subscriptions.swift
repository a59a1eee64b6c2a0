import Foundation

extension SyncSession {
    /// Finds the primary key of an object a subscription's query names (`owner == person`),
    /// reading the file on the calling thread: the server knows objects by primary key only.
    static func primaryKeyResolver(for configuration: Realm.Configuration) -> @Sendable (_PersistedValue, String?) -> JSONValue? {
        var plain = configuration
        plain.syncConfiguration = nil
        return { [plain] value, className in
            guard let realm = try? Realm(configuration: plain) else { return nil }
            let target: (key: UInt64, className: String)
            switch value {
            case .link(let key):
                guard let className else { return nil }
                target = (key, className)
            case .typedLink(let classID, let key):
                guard let layout = realm.core.catalog.layouts.values.first(where: { $0.classID == classID }) else { return nil }
                target = (key, layout.className)
            default:
                return nil
            }
            guard let object = realm.core.dynamicObject(ObjectKey(target.key), of: target.className),
                  let keyProperty = object.objectSchema.primaryKeyProperty else { return nil }
            return SyncValueCodec.encode(object[keyProperty.name], of: keyProperty)
        }
    }
}
