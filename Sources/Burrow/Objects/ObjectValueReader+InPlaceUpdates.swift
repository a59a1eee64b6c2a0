/// `create(_:value:update: .modified)` over an existing object updates the embedded objects it
/// holds in place, as RealmSwift's diffing update does: a to-one embedded object takes the
/// values given for it, and the embedded objects of a list take the values given at their
/// index (a longer list adds objects, a shorter one deletes those left over). Their accessors
/// stay valid, and notifications report modifications. `.all` replaces them.
extension ObjectValueReader {
    /// Whether values for field `index` of the managed `object` update its embedded objects in
    /// place rather than replace them.
    private func updatesEmbeddedInPlace(field index: Int, of object: ObjectBase) -> Bool {
        guard object.management != nil, failingWrite?.nestedUpdatePolicy == .modified,
              let linkedType = info.fields[index].linkedType, info.fields[index].collection != .map else { return false }
        return ClassInfo.of(linkedType).isEmbedded
    }

    /// Applies `value` to the embedded object field `index` of the managed `object` links to,
    /// when the update is one that does so; `false` otherwise, when there is none, or when
    /// `value` does not describe one.
    func updateLinkedEmbeddedObject(_ value: Any, field index: Int, of object: ObjectBase) -> Bool {
        guard updatesEmbeddedInPlace(field: index, of: object), let management = object.management, let linkedType = info.fields[index].linkedType, Self.describesNewObject(value),
              let existing = object.linkedObject(column: management.bound.fieldColumns[index], of: linkedType) else { return false }
        reader(of: linkedType).apply(value, to: existing, isNew: false)
        return true
    }

    /// Applies `items` to the embedded objects of the list in field `index` of the managed
    /// `object`, index by index, when the update is one that does so; `false` otherwise, or when
    /// an item does not describe an object (the list is then assigned as a whole, which refuses it).
    func updateEmbeddedList(_ items: [Any], field index: Int, of object: ObjectBase) -> Bool {
        guard updatesEmbeddedInPlace(field: index, of: object), let management = object.management,
              let linkedType = info.fields[index].linkedType, items.allSatisfy(Self.describesNewObject) else { return false }
        let list = ManagedList(owner: object, column: management.bound.fieldColumns[index], targetType: linkedType)
        let elementReader = reader(of: linkedType)
        let stored = list.count
        for (position, item) in items.enumerated() {
            if position < stored, case .link(let key) = list.value(at: position),
               let existing = management.realm.linkTarget(ObjectKey(key), of: linkedType) {
                elementReader.apply(item, to: existing, isNew: false)
            } else {
                let created = linkedType.init()
                elementReader.apply(item, to: created, isNew: true)
                list.append(created as! any _Persistable)
            }
        }
        for position in (items.count..<max(stored, items.count)).reversed() { list.remove(at: position) }
        return true
    }

    /// A reader for the embedded class `type` sharing this one's write and copies.
    private func reader(of type: ObjectBase.Type) -> ObjectValueReader {
        ObjectValueReader(info: ClassInfo.of(type), copyingInto: copyingInto, failingWrite: failingWrite, copies: copies)
    }

    /// Whether `value` gives an object's values: a dictionary, an array, or an unmanaged object.
    private static func describesNewObject(_ value: Any) -> Bool {
        if value is [String: Any] || value is [Any] { return true }
        guard let object = value as? ObjectBase else { return false }
        return object.management == nil
    }
}
