import LMDB

/// Writing objects: an unmanaged object is stored with everything its links and collections
/// reach, and becomes managed; a managed object's properties are written one column at a time.
/// The rows, indexes and links themselves are the ``TableWriter``'s.
extension RealmCore {
    /// Stores an unmanaged object (and, through its links, the unmanaged objects it reaches)
    /// and makes it managed.
    func insert(_ object: ObjectBase, update: UpdatePolicy, in write: WriteState) {
        write.withNestedUpdatePolicy(update) { storeGraph(of: object, update: update, in: write) }
    }

    /// Stores `object`'s row, then its links and collections, adding what they reach. With
    /// `reusing`, an unmanaged embedded object takes the place of the stored embedded object of
    /// that key: it is updated in place, so handles to it stay valid, as in RealmSwift.
    private func storeGraph(of object: ObjectBase, update: UpdatePolicy, in write: WriteState, reusing existing: ObjectKey? = nil) {
        let info = self.info(type(of: object))
        perform(in: write) {
            let bound = try boundForWriting(info, in: write)
            let layout = bound.layout
            var values = write.borrowRow(count: layout.kinds.count)
            defer { write.giveBack(values) }
            for index in info.storedFields where info.fields[index].kind != .link && info.fields[index].kind != .mixed {
                values[bound.fieldColumns[index]] = info.unmanagedValue(index, in: object)
            }
            if layout.primaryKeyColumn == nil && existing == nil {
                burrowPrecondition(update == .error, "'\(layout.className)' does not have a primary key and can not be updated")
            }
            let claim = try existing.map { ($0, true) } ?? claimKey(values, in: layout, write: write)
            // The row being replaced, whose embedded objects the new ones update in place with
            // `.modified`; with `.all` they are replaced (deleted and made anew), as in RealmSwift.
            let replaced = update != .modified || claim.exists == false ? nil : try write.tables.values(of: claim.key, in: layout)
            let reusedElements = replaced == nil ? [:] : try reusableEmbeddedElements(of: object, info: info, bound: bound, owner: claim.key, in: write)
            let links = info.linkFields
            if !links.isEmpty || !info.collectionFields.isEmpty {
                // The key is known before the links are followed, so a cycle back to this object
                // finds it instead of adding it again.
                write.pendingKeys[ObjectIdentifier(object)] = claim.key
                defer { write.pendingKeys[ObjectIdentifier(object)] = nil }
                for index in links {
                    let field = info.fields[index]
                    let column = bound.fieldColumns[index]
                    let target = field.accessor.linkedObject(at: info.pointer(to: index, in: object) + field.valueOffset)
                    if let target, target.management == nil, case .link(let old)? = replaced?[column],
                       self.info(type(of: target)).isEmbedded {
                        storeGraph(of: target, update: update, in: write, reusing: ObjectKey(old))
                        if let failure = write.failure { throw failure }
                        values[column] = .link(old)
                        continue
                    }
                    values[column] = try target.map { .link(try managedKey(of: $0, update: update, in: write).rawValue) } ?? .null
                }
            }
            for index in info.mixedFields {
                let field = info.fields[index]
                let held = field.accessor.read(at: info.pointer(to: index, in: object) + field.valueOffset) as? AnyRealmValue ?? .none
                values[bound.fieldColumns[index]] = try storedMixed(held, update: update, in: write)
            }
            // (`mapValues` allocates even for an empty dictionary, and most objects reuse nothing.)
            try store(values, claim: claim, in: layout, update: update, write: write,
                      keepingEmbedded: reusedElements.isEmpty ? [:] : reusedElements.mapValues { Set($0.compactMap { $0 }) })
            if !info.collectionFields.isEmpty {
                write.pendingKeys[ObjectIdentifier(object)] = claim.key
                defer { write.pendingKeys[ObjectIdentifier(object)] = nil }
                for index in info.collectionFields {
                    let field = info.fields[index]
                    let elements = field.accessor.collectionElements(at: info.pointer(to: index, in: object) + field.valueOffset)
                    if field.collection == .map {
                        let entries = field.accessor.mapEntries(at: info.pointer(to: index, in: object) + field.valueOffset)
                        try ManagedMap.store(entries, owner: claim.key, column: bound.fieldColumns[index], in: layout, realm: self, write: write)
                    } else if field.collection == .set {
                        try ManagedSet.store(elements, owner: claim.key, column: bound.fieldColumns[index], in: layout, realm: self, write: write)
                    } else if let reused = reusedElements[bound.fieldColumns[index]] {
                        try storeEmbeddedList(elements, reusing: reused, owner: claim.key, column: bound.fieldColumns[index], in: layout,
                                              update: update, write: write)
                    } else {
                        try ManagedList.store(elements, owner: claim.key, column: bound.fieldColumns[index], in: layout, realm: self, write: write)
                    }
                }
            }
            object.becomeManaged(by: self, bound: bound, key: claim.key)
        }
    }

    /// For each list of embedded objects of the stored object `owner`, the stored embedded
    /// object each unmanaged element of `object`'s list takes the place of, by index (`nil`
    /// where the stored list is shorter): with `.modified`, RealmSwift updates the embedded
    /// objects of a list in place, index by index, as it does a to-one embedded object.
    private func reusableEmbeddedElements(of object: ObjectBase, info: ClassInfo, bound: BoundClass, owner: ObjectKey,
                                          in write: WriteState) throws -> [Int: [ObjectKey?]] {
        var reused: [Int: [ObjectKey?]] = [:]
        for index in info.collectionFields where info.fields[index].collection == .list && info.fields[index].kind == .link {
            let column = bound.fieldColumns[index]
            let stored = try write.tables.embeddedListElements(of: owner, column: column, in: bound.layout)
            guard !stored.isEmpty else { continue }
            let field = info.fields[index]
            let elements = field.accessor.collectionElements(at: info.pointer(to: index, in: object) + field.valueOffset)
            reused[column] = elements.indices.map { position in
                position < stored.count && (elements[position] as? ObjectBase)?.management == nil ? stored[position] : nil
            }
        }
        return reused
    }

    /// Stores a list of embedded objects where `reused` names the stored object each element
    /// updates in place (see ``reusableEmbeddedElements(of:info:bound:owner:in:)``); the
    /// others are added.
    private func storeEmbeddedList(_ elements: [any _Persistable], reusing reused: [ObjectKey?], owner: ObjectKey, column: Int,
                                   in layout: TableLayout, update: UpdatePolicy, write: WriteState) throws {
        for (index, element) in elements.enumerated() {
            let value: _PersistedValue
            if let old = reused[index], let object = element as? ObjectBase {
                storeGraph(of: object, update: update, in: write, reusing: old)
                if let failure = write.failure { throw failure }
                value = .link(old.rawValue)
            } else {
                value = try ManagedCollection.storedValue(of: element, kind: layout.kinds[column], realm: self, in: write, destination: .list)
            }
            try write.tables.putListElement(value, owner: owner, position: ListEntries.gap * UInt64(index + 1), column: column, in: layout)
        }
    }

    /// The key a new object will be stored under, and whether a row with it exists (`nil`:
    /// not known yet, for integer primary keys, which find out when they store).
    func claimKey(_ values: [_PersistedValue], in layout: TableLayout, write: WriteState) throws -> (key: ObjectKey, exists: Bool?) {
        guard let column = layout.primaryKeyColumn else {
            return (try coordinator.objectKeys.next(for: layout, in: write.tables.storage), false)
        }
        if layout.usesPrimaryKeyAsObjectKey { return (ObjectKey(primaryKey: integer(values[column])), nil) }
        if let existing = try layout.find(primaryKey: values[column], in: write.transaction)?.key { return (existing, true) }
        return (try coordinator.objectKeys.next(for: layout, in: write.tables.storage), false)
    }

    /// Writes a claimed row: new, or (with `.all` or `.modified`) over the row with its primary key.
    private func store(_ values: [_PersistedValue], claim: (key: ObjectKey, exists: Bool?), in layout: TableLayout,
                       update: UpdatePolicy, write: WriteState, keepingEmbedded kept: [Int: Set<ObjectKey>] = [:]) throws {
        switch claim.exists {
        case true?:
            try overwrite(claim.key, with: values, in: layout, update: update, write: write, keepingEmbedded: kept)
        case false?:
            try write.tables.insert(values, key: claim.key, in: layout)
        case nil:
            // The common case of a new, larger integer key is a single append; only a key that
            // is already taken costs a second look.
            do {
                try write.tables.insert(values, key: claim.key, in: layout)
            } catch LMDBError.keyExists {
                try overwrite(claim.key, with: values, in: layout, update: update, write: write, keepingEmbedded: kept)
            }
        }
    }

    private func overwrite(_ key: ObjectKey, with values: [_PersistedValue], in layout: TableLayout,
                           update: UpdatePolicy, write: WriteState, keepingEmbedded kept: [Int: Set<ObjectKey>]) throws {
        guard update != .error else {
            // The data, not the program, is wrong: the write fails as a whole and throws.
            let primaryKey = layout.primaryKeyColumn.map { values[$0] } ?? .null
            throw Realm.Error(.primaryKeyExists,
                              "Attempting to create an object of type '\(layout.className)' with an existing primary key value '\(primaryKey.anyValue.map { "\($0)" } ?? "nil")'.")
        }
        guard let old = try write.tables.values(of: key, in: layout) else {
            burrowPreconditionFailure(TrapMessage.objectInvalidated)
        }
        try write.tables.replace(key, old: old, new: values, in: layout)
        // The added object's lists and sets replace the stored ones.
        try write.tables.removeCollections(of: key, in: layout, keepingEmbedded: kept)
    }

    /// Where an object is being stored, for RealmSwift's message refusing an embedded object
    /// that has an owner already.
    enum EmbeddingDestination {
        case link, list, dictionary

        var refusal: String {
            switch self {
            case .link: "Can't set link to existing managed embedded object"
            case .list: "Cannot add an existing managed embedded object to a List."
            case .dictionary: "Cannot add an existing managed embedded object to a Dictionary."
            }
        }
    }

    /// The key of `target` in this realm, adding it first when it is unmanaged; traps for an
    /// embedded object that has an owner already, with the message of its `destination`.
    func managedKey(of target: ObjectBase, update: UpdatePolicy, in write: WriteState,
                    destination: EmbeddingDestination = .link) throws -> ObjectKey {
        if let management = target.management {
            burrowPrecondition(management.realm === self,
                               "Object is already managed by another Realm. Use create instead to copy it into this Realm.")
            burrowPrecondition(!management.bound.layout.isEmbedded, destination.refusal)
            return management.key
        }
        if let pending = write.pendingKeys[ObjectIdentifier(target)] { return pending }
        // Objects without a primary key cannot be matched to stored ones: they are always new.
        insert(target, update: info(type(of: target)).primaryKeyField == nil ? .error : update, in: write)
        if let failure = write.failure { throw failure }
        return target.management!.key
    }

    private func integer(_ value: _PersistedValue) -> Int64 {
        guard case .int(let integer) = value else { burrowPreconditionFailure("Integer primary key expected, got \(value.displayText).") }
        return integer
    }

    /// Traps for a change to `object` outside a write: as invalidated when it is (RealmSwift
    /// checks that first), else as ``RealmSession/refuseModificationOutsideWrite()`` does.
    func refuseModificationOutsideWrite(of object: ObjectBase) -> Never {
        if let management = object.management, !isFrozen,
           invalidated(since: object.cachedRowGeneration) || !contains(management.key, in: management.bound.layout) {
            burrowPreconditionFailure(TrapMessage.objectInvalidated)
        }
        refuseModificationOutsideWrite()
    }

    /// Writes one column of a managed object.
    func update(_ object: ObjectBase, key: ObjectKey, layout: TableLayout, column: Int, to value: _PersistedValue) {
        verifyThread()
        guard let write = writeState else {
            refuseModificationOutsideWrite(of: object)
        }
        // Any assignment, even of the value it holds, as RealmSwift's accessors refuse it.
        burrowPrecondition(column != layout.primaryKeyColumn, "Primary key can't be changed after an object is inserted.")
        let row = object.currentRow()
        perform(in: write) {
            try write.tables.update(key, column: column, to: value, row: row, in: layout)
        }
    }

    /// Deletes a managed object's row.
    func remove(_ management: ObjectBase.Management, in write: WriteState) {
        var existed = true
        perform(in: write) {
            existed = try write.tables.delete(management.key, in: management.bound.layout)
        }
        burrowPrecondition(existed, TrapMessage.objectInvalidated)
    }
}
