import LMDB

/// The objects whose link property `originProperty` points at the object that holds this
/// property: live and read-only.
///
/// ```swift
/// final class Person: Object {
///     @Persisted(originProperty: "owner") var pets: LinkingObjects<Dog>
/// }
/// person.pets.count            // the dogs whose owner is this person
/// ```
///
/// A list property as origin counts each object once, however often its list holds the target.
/// Found through the backlink index: the cost follows the number of links, not the database.
public final class LinkingObjects<Element: ObjectBase>: RandomAccessCollection {
    /// The link property of `Element` that points here.
    public let originProperty: String
    let owner: ObjectBase?
    private var cache = GenerationCache<[ObjectKey]>([])
    /// The one element of a probe's linking objects (``KeyPathProbeCollection``).
    private var probeElement: Element?

    /// An unmanaged, empty value naming the origin property.
    public init(originProperty: String) {
        self.originProperty = originProperty
        owner = nil
    }

    init(originProperty: String, owner: ObjectBase) {
        self.originProperty = originProperty
        self.owner = owner
    }

    /// The realm of the object holding the property, or `nil` while unmanaged.
    public var realm: Realm? { owner?.management.map { Realm(core: $0.realm) } }

    /// Walks the linking objects; inside a write, those there when the walk began, so that a
    /// loop deleting what it walks meets every one (RealmSwift snapshots them so too).
    ///
    /// ```swift
    /// try realm.write { for dog in person.dogsLinkingHere { realm.delete(dog) } }
    /// ```
    public func makeIterator() -> CollectionIterator<LinkingObjects<Element>> {
        CollectionIterator(self, snapshotting: owner?.management?.realm.writeState != nil)
    }

    /// Always 0.
    public var startIndex: Int { 0 }
    /// The number of linking objects.
    public var endIndex: Int { count }
    /// The number of linking objects.
    public var count: Int { probeElement == nil ? keys.count : 1 }

    /// The linking object at `position`; traps when out of range.
    public subscript(position: Int) -> Element {
        if owner == nil, let probeElement { return probeElement }
        let keys = self.keys
        IndexBounds.check(position, count: keys.count)
        guard let management = owner?.management else { burrowPreconditionFailure(TrapMessage.objectInvalidated) }
        // The keys come from the backlink index of this version: one of no object is damage.
        let object = management.realm.storedLinkTarget(keys[position], of: Element.self, describing:
            "the backlink index of object \(management.key.rawValue) of '\(management.bound.info.className)'")
        return unsafeDowncast(object, to: Element.self)
    }

    /// The position of `object` among the linking objects, or `nil`.
    public func index(of object: Element) -> Int? {
        guard let key = object.management?.key else { return nil }
        return keys.firstIndex(of: key)
    }

    /// The keys of the linking objects in the realm's current version, in key order.
    private var keys: [ObjectKey] {
        guard let management = owner?.management else { return [] }
        let realm = management.realm
        realm.verifyThread()
        return realm.exclusively {
            if cache.generation == realm.generation { return cache.value }
            do {
                cache = GenerationCache(try LinkingObjectsKeys.keys(linkingTo: management.key, of: management.bound.layout, from: Element.self,
                                                                    through: originProperty, in: realm),
                                        generation: realm.generation)
            } catch {
                burrowPreconditionFailure(TrapMessage.cannotRead(realm.coordinator.path, error))
            }
            return cache.value
        }
    }
}

/// Finds the objects linking to an object through one property, in the backlink index.
enum LinkingObjectsKeys {
    /// The keys of the `origin` objects whose `property` links to `target`, each once, in key order.
    static func keys(linkingTo target: ObjectKey, of layout: TableLayout, from origin: ObjectBase.Type,
                     through property: String, in realm: RealmCore) throws -> [ObjectKey] {
        try keys(linkingTo: target, classID: layout.classID, from: ClassInfo.storedName(of: origin), through: property,
                 catalog: realm.catalog, txn: realm.transaction)
    }

    /// The same, from the catalog and a transaction.
    static func keys(linkingTo target: ObjectKey, classID: UInt32, from origin: String, through property: String,
                     catalog: Catalog, txn: Transaction) throws -> [ObjectKey] {
        guard let links = catalog.links(visibleTo: txn), let originLayout = catalog.layouts[origin],
              let originProperty = originLayout.storedClass.properties.first(where: { $0.name == property }) else { return [] }
        var prefix: [UInt8] = []
        prefix.append(contentsOf: withUnsafeBytes(of: classID.bigEndian, Array.init))
        target.append(to: &prefix)
        prefix.append(contentsOf: withUnsafeBytes(of: originLayout.classID.bigEndian, Array.init))
        prefix.append(contentsOf: withUnsafeBytes(of: originProperty.id.bigEndian, Array.init))
        var keys = Set<ObjectKey>()
        let cursor = try txn.openCursor(links)
        var entry = try cursor.seek(atLeast: prefix)
        while let (key, _) = entry, key.count >= 28, key.starts(with: prefix) {
            keys.insert(ObjectKey(bytes: UnsafeRawBufferPointer(rebasing: key[20..<28])))
            entry = try cursor.next()
        }
        return keys.sorted()
    }
}

/// Lets schema discovery read the origin property of a `LinkingObjects` wrapper.
protocol _LinkingObjectsValue {
    var originProperty: String { get }
}

extension LinkingObjects: _LinkingObjectsValue {}

/// Columns given to `LinkingObjects` fields, which have no stored column: far above any real
/// column, and telling which field they stand for.
enum LinkingObjectsColumn {
    static let base = 1 << 40

    static func column(ofField index: Int) -> Int { base + index }
    static func field(ofColumn column: Int) -> Int { column - base }
}

extension LinkingObjects: _Persistable {
    /// Implementation detail of `_Persistable`; do not use.
    public static var _storageKind: _StorageKind { .link }
    /// Implementation detail of `_Persistable`; do not use.
    public static var _defaultValue: LinkingObjects<Element> { LinkingObjects(originProperty: "") }
    /// Implementation detail of `_Persistable`; do not use.
    public var _persistedValue: _PersistedValue { .null }
    /// Implementation detail of `_Persistable`; do not use.
    public static func _fromPersisted(_ value: _PersistedValue) -> LinkingObjects<Element> {
        burrowPreconditionFailure("LinkingObjects are read through the object that holds them.")
    }
    /// Implementation detail of `_Persistable`; do not use.
    public static var _linkedType: ObjectBase.Type? { Element.self }
    /// Implementation detail of `_Persistable`; do not use.
    public static var _collectionKind: _CollectionKind? { .linkingObjects }

    /// Implementation detail of `_Persistable`; do not use.
    public static func _get(from object: ObjectBase, column: Int) -> LinkingObjects<Element> {
        guard let info = object.management?.bound.info,
              let origin = info.fields[LinkingObjectsColumn.field(ofColumn: column)].originProperty else {
            burrowPreconditionFailure(TrapMessage.objectInvalidated)
        }
        return LinkingObjects(originProperty: origin, owner: object)
    }

    /// Implementation detail of `_Persistable`; do not use.
    public static func _set(_ value: LinkingObjects<Element>, on object: ObjectBase, column: Int) {
        burrowPreconditionFailure("LinkingObjects are read-only: change the links of the objects instead.")
    }
}

extension LinkingObjects: KeyPathProbeCollection {
    func holdProbeElement(recordingInto recorder: KeyPathRecorder) {
        guard owner == nil, probeElement == nil, !(Element.self is DynamicObject.Type) else { return }
        probeElement = unsafeDowncast(ClassInfo.of(Element.self).probe(recordingInto: recorder), to: Element.self)
    }
}
