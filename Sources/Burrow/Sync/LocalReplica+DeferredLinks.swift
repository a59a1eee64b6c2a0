import Foundation
import LMDB

extension LocalReplica {
    /// A link property's value, as the server has it, whose targets are not all here: the
    /// objects of one upload arrive one after another, a first download goes class by class,
    /// and a target deleted and created again comes back. On the server a link is its target's
    /// primary key; here it is set as far as it resolves, and whole once its targets arrive.
    /// Kept in the journal (`sync.links`) until then, or until a newer value replaces it.
    struct DeferredLink {
        let className: String
        /// The owner's primary key, in wire form.
        let primaryKey: JSONValue
        let property: String
        /// The property's value in wire form.
        let value: JSONValue
        /// A list's position keys, as the server sent them.
        let keys: [String]?
        /// Whether the value came from the server, so that the collection's shadow follows
        /// what the property is set to (a link kept from a deleted object's owners does not).
        let fromServer: Bool
        /// Whether the property was set as far as it resolves (done at the end of a pull).
        var settled: Bool

        /// Names the property of one object: a later value of it replaces this one.
        var name: String { Self.name(className: className, primaryKey: primaryKey, property: property) }

        static func name(className: String, primaryKey: JSONValue, property: String) -> String {
            "\(className)\u{0}\(primaryKey.text)\u{0}\(property)"
        }

        var json: JSONValue {
            .object([("class", .string(className)), ("pk", primaryKey), ("property", .string(property)), ("value", value),
                     ("keys", keys.map { .array($0.map(JSONValue.string)) } ?? .null), ("server", .bool(fromServer)),
                     ("settled", .bool(settled))])
        }

        init(className: String, primaryKey: JSONValue, property: String, value: JSONValue, keys: [String]?, fromServer: Bool,
             settled: Bool) {
            self.className = className
            self.primaryKey = primaryKey
            self.property = property
            self.value = value
            self.keys = keys
            self.fromServer = fromServer
            self.settled = settled
        }

        init(json: JSONValue) throws {
            guard let className = json["class"]?.stringValue, let primaryKey = json["pk"], let property = json["property"]?.stringValue,
                  let value = json["value"], case .bool(let fromServer)? = json["server"], case .bool(let settled)? = json["settled"] else {
                throw StorageError.damaged("a link of the sync journal waiting for its target does not read")
            }
            let keys = json["keys"]?.arrayValue?.compactMap(\.stringValue)
            self.init(className: className, primaryKey: primaryKey, property: property, value: value, keys: keys,
                      fromServer: fromServer, settled: settled)
        }
    }

    /// `value`, in wire form, for `property`, with its links resolved among the objects here;
    /// `complete` is false when a link's target is not here (it is then left out).
    func decode(_ value: JSONValue, of property: Property,
                schemas: [String: ObjectSchema]) throws(SyncValueCodec.Mismatch) -> (value: Any, complete: Bool) {
        var complete = true
        let decoded = try SyncValueCodec.decode(value, of: property, schemas: schemas) { className, primaryKey in
            guard let object = self.object(ofType: className, primaryKey: SyncValueCodec.scalar(primaryKey), schemas: schemas) else {
                complete = false
                return nil
            }
            return object
        } ?? NSNull()
        return (decoded, complete)
    }

    /// The object of `className` whose primary key is `primaryKey` (wire form), when it is here.
    func object(ofType className: String, primaryKey: JSONValue, schemas: [String: ObjectSchema]) -> DynamicObject? {
        guard let keyProperty = schemas[className]?.primaryKeyProperty,
              let key = try? SyncValueCodec.scalar(primaryKey, type: keyProperty.type, name: keyProperty.name) else { return nil }
        return realm.dynamicObject(ofType: className, forPrimaryKey: key)
    }

    /// The table, primary key and stored primary key of the object `primaryKey` (wire form) of
    /// `className`; `nil` when the file does not sync that class.
    ///
    /// - Throws: ``SyncError/Code/malformedServerData`` when the key does not fit the class's.
    func address(of className: String, primaryKey: JSONValue,
                 schemas: [String: ObjectSchema]) throws(SyncError) -> (layout: TableLayout, key: Any, storedKey: _PersistedValue)? {
        guard let layout = realm.core.catalog.layouts[className], let column = layout.primaryKeyColumn,
              let keyProperty = schemas[className]?.primaryKeyProperty else { return nil }
        do {
            let key = primaryKey.isNull ? NSNull() : try SyncValueCodec.scalar(primaryKey, type: keyProperty.type, name: keyProperty.name)
            return (layout, key, try StoredValueConversion.scalar(key, for: layout.storedClass.properties[column], of: className))
        } catch {
            throw SyncError(.malformedServerData, "a change of '\(className)' has a primary key that does not fit: \(error)")
        }
    }

    /// Keeps `link` waiting (or with `nil`, forgets the one named `name`), here and in the
    /// journal.
    func setDeferredLink(_ link: DeferredLink?, name: String, journal: SyncJournal, txn: Transaction) throws {
        let existing = deferredLinks[name]
        guard let any = link ?? existing, let address = try? address(of: any.className, primaryKey: any.primaryKey, schemas: schemasByName),
              let propertyID = address.layout.storedClass.properties.first(where: { $0.name == any.property })?.id else {
            deferredLinks[name] = nil
            return
        }
        deferredLinks[name] = link
        try journal.setWaitingLink(link.map { Array($0.json.text.utf8) }, classID: address.layout.classID,
                                   primaryKey: address.storedKey, property: propertyID, in: txn)
    }

    /// Reads the links waiting in the journal, the first time.
    func loadDeferredLinks(journal: SyncJournal, txn: Transaction) throws {
        guard !deferredLinksLoaded else { return }
        for bytes in try journal.waitingLinks(in: txn) {
            let link = try DeferredLink(json: JSONValue(parsing: String(decoding: bytes, as: UTF8.self)))
            deferredLinks[link.name] = link
        }
        deferredLinksLoaded = true
    }

    /// Keeps waiting the links to `object` (about to be deleted by a download) of the objects
    /// that hold one: on the server they stay, and should the object come back, so do they.
    func deferLinks(to object: DynamicObject, journal: SyncJournal, txn: Transaction) throws {
        guard let management = object.management, let tables = realm.core.writeState?.tables else { return }
        for source in try tables.incomingLinks(to: management.key, of: management.bound.layout) {
            guard let layout = realm.core.catalog.layouts.values.first(where: { $0.classID == source.classID }),
                  layout.storedClass.isEmbedded != true, let keyColumn = layout.primaryKeyColumn,
                  let propertyName = layout.storedClass.properties.first(where: { $0.id == source.propertyID })?.name,
                  let owner = realm.core.dynamicObject(source.key, of: layout.className),
                  let property = owner.objectSchema[propertyName] else { continue }
            let keyProperty = owner.objectSchema[layout.storedClass.properties[keyColumn].name]!
            let primaryKey = SyncValueCodec.encode(owner[keyProperty.name], of: keyProperty)
            let name = DeferredLink.name(className: layout.className, primaryKey: primaryKey, property: propertyName)
            guard deferredLinks[name] == nil else { continue }
            let link = DeferredLink(className: layout.className, primaryKey: primaryKey, property: propertyName,
                                    value: SyncValueCodec.encode(owner[propertyName], of: property), keys: nil, fromServer: false,
                                    settled: true)
            try setDeferredLink(link, name: name, journal: journal, txn: txn)
        }
    }

    /// Sets the waiting links whose targets are all here now, in the write under way; with
    /// `settling`, sets the others as far as they resolve, once.
    func resolveDeferredLinks(settling: Bool, schemas: [String: ObjectSchema], journal: SyncJournal, txn: Transaction) throws {
        try loadDeferredLinks(journal: journal, txn: txn)
        for (name, link) in deferredLinks {
            guard let address = try? address(of: link.className, primaryKey: link.primaryKey, schemas: schemas),
                  let object = realm.dynamicObject(ofType: link.className, forPrimaryKey: address.key),
                  let property = schemas[link.className]?[link.property],
                  let propertyID = address.layout.storedClass.properties.first(where: { $0.name == link.property })?.id else {
                try setDeferredLink(nil, name: name, journal: journal, txn: txn)
                continue
            }
            // A change of the property made here since wins: its upload settles the server's.
            let pending = try journal.pendingObject(classID: address.layout.classID, primaryKey: address.storedKey, in: txn)
            guard pending?.created == nil, pending?.properties[propertyID] == nil,
                  let (value, complete) = try? decode(link.value, of: property, schemas: schemas) else {
                try setDeferredLink(nil, name: name, journal: journal, txn: txn)
                continue
            }
            if complete {
                if !Self.holds(object, link.value, property: property) { object[link.property] = value is NSNull ? nil : value }
                try storeShadow(of: link, resolvedOnly: false, property: property, classID: address.layout.classID,
                                storedKey: address.storedKey, propertyID: propertyID, schemas: schemas, journal: journal, txn: txn)
                try setDeferredLink(nil, name: name, journal: journal, txn: txn)
            } else if settling && !link.settled {
                object[link.property] = value is NSNull ? nil : value
                // The shadow holds what the property now holds, so that an edit here does not
                // read the targets still missing as removed.
                try storeShadow(of: link, resolvedOnly: true, property: property, classID: address.layout.classID,
                                storedKey: address.storedKey, propertyID: propertyID, schemas: schemas, journal: journal, txn: txn)
                var settled = link
                settled.settled = true
                try setDeferredLink(settled, name: name, journal: journal, txn: txn)
            }
        }
    }

    /// Stores the shadow of the collection `link` sets, when it came from the server: all its
    /// elements, or with `resolvedOnly` those whose targets are here (a map's others as empty).
    private func storeShadow(of link: DeferredLink, resolvedOnly: Bool, property: Property, classID: UInt32,
                             storedKey: _PersistedValue, propertyID: UInt32, schemas: [String: ObjectSchema],
                             journal: SyncJournal, txn: Transaction) throws {
        guard link.fromServer, let kind = CollectionKind(of: property),
              let elements = try? KeyedElements(kind: kind, value: link.value, keys: link.keys) else { return }
        var shadow = elements
        if resolvedOnly, let target = property.objectClassName {
            let kept: [(key: String, value: JSONValue)] = elements.entries.compactMap { entry in
                if entry.value.isNull || object(ofType: target, primaryKey: entry.value, schemas: schemas) != nil { return entry }
                return kind == .map ? (entry.key, .null) : nil
            }
            shadow = KeyedElements(kind: kind, entries: kept)
        }
        try store([ShadowUpdate(classID: classID, primaryKey: storedKey, property: propertyID, elements: shadow)], in: journal, txn: txn)
    }

    /// Sets the waiting links as far as they resolve: the end of a pull.
    func settleDeferredLinks() throws {
        guard deferredLinks.contains(where: { !$0.value.settled }) else { return }
        do {
            try journaledWrite { journal, txn in
                let schemas = schemasByName
                try resolveDeferredLinks(settling: true, schemas: schemas, journal: journal, txn: txn)
            }
        } catch {
            forgetDeferredLinks()
            throw error
        }
    }

    /// Forgets the waiting links read from the journal, after a write that changed them failed.
    func forgetDeferredLinks() {
        deferredLinks = [:]
        deferredLinksLoaded = false
    }
}
