import Foundation
import LMDB

extension LocalReplica {
    /// A property of a downloaded change that links to an object not downloaded yet: the
    /// objects of one upload arrive one after another, so a link can come before its target.
    /// It is set once the target arrives, or, at the end of the pull, as far as it resolves.
    struct DeferredLink {
        let className: String
        let key: Any
        let property: Property
        let field: SyncOperation.Field
        /// Where the collection's shadow goes, for a collection of links.
        let shadow: (classID: UInt32, primaryKey: _PersistedValue, property: UInt32)?

        /// Names the property of one object: a later change of it replaces this one.
        static func name(className: String, primaryKey: JSONValue, property: String) -> String {
            "\(className)\u{0}\(primaryKey.text)\u{0}\(property)"
        }
    }

    /// `field`'s value for `property`, with its links resolved among the objects here;
    /// `complete` is false when a link's target is not here (it is then left out).
    func decode(_ field: SyncOperation.Field, of property: Property,
                schemas: [String: ObjectSchema]) throws(SyncValueCodec.Mismatch) -> (value: Any, complete: Bool) {
        var complete = true
        let value = try SyncValueCodec.decode(field.value, of: property, schemas: schemas) { className, primaryKey in
            guard let target = schemas[className]?.primaryKeyProperty,
                  let typed = try? SyncValueCodec.scalar(SyncValueCodec.scalar(primaryKey), type: target.type, name: target.name),
                  let object = self.realm.dynamicObject(ofType: className, forPrimaryKey: typed) else {
                complete = false
                return nil
            }
            return object
        } ?? NSNull()
        return (value, complete)
    }

    /// Sets the deferred links whose targets are here now (all of them when `final`, as far
    /// as they resolve), in the write under way.
    func resolveDeferredLinks(final: Bool, schemas: [String: ObjectSchema], journal: SyncJournal, txn: Transaction) throws {
        for (name, link) in deferredLinks {
            guard let object = realm.dynamicObject(ofType: link.className, forPrimaryKey: link.key) else {
                deferredLinks[name] = nil
                continue
            }
            // A value that fit its property when first decoded fits it again.
            guard let (value, complete) = try? decode(link.field, of: link.property, schemas: schemas), complete || final else { continue }
            deferredLinks[name] = nil
            if !Self.holds(object, link.field.value, property: link.property) {
                object[link.property.name] = value is NSNull ? nil : value
            }
            if let shadow = link.shadow, let kind = CollectionKind(of: link.property),
               let elements = try? KeyedElements(kind: kind, value: link.field.value, keys: link.field.keys) {
                try store([ShadowUpdate(classID: shadow.classID, primaryKey: shadow.primaryKey, property: shadow.property, elements: elements)],
                          in: journal, txn: txn)
            }
        }
    }

    /// Sets what is left of the deferred links as far as they resolve: the end of a pull.
    func settleDeferredLinks() throws {
        guard !deferredLinks.isEmpty else { return }
        try journaledWriteForDownload { journal, txn in
            let schemas = Dictionary(realm.schema.objectSchema.map { ($0.className, $0) }, uniquingKeysWith: { first, _ in first })
            try resolveDeferredLinks(final: true, schemas: schemas, journal: journal, txn: txn)
        }
    }
}
