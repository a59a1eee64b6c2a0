import Foundation

/// The schema as stored in a file's metadata: classes and properties with stable numeric ids.
///
/// Databases are named by these ids (`t<class>`, `i<class>.<property>`, `p<class>`), never by
/// class or property names, so names can change without touching data.
struct StoredSchema: Codable, Equatable, Sendable {
    var classes: [StoredClass] = []
    var nextClassID: UInt32 = 1

    func storedClass(named name: String) -> StoredClass? {
        classes.first { $0.name == name }
    }

    func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // Encoding plain value types cannot fail.
        return try! encoder.encode(self)
    }

    static func decode(_ bytes: some Sequence<UInt8>) throws -> StoredSchema {
        try JSONDecoder().decode(StoredSchema.self, from: Data(bytes))
    }
}

/// One stored class: its id, name and properties in column order.
struct StoredClass: Codable, Hashable, Sendable {
    var id: UInt32
    var name: String
    var properties: [StoredProperty]
    var nextPropertyID: UInt32
    /// Whether the class holds embedded objects, deleted with their owner.
    var isEmbedded: Bool? = nil
    /// Whether object keys are the bits of the primary key; `nil`: when the primary key is a
    /// non-optional integer. A migration that changes the primary key sets it to `false`: the
    /// class keeps its object keys (so no link to it changes) and looks its primary key up in
    /// its primary-key database.
    var primaryKeyIsObjectKey: Bool? = nil

    /// A stored class from its parts.
    init(id: UInt32, name: String, properties: [StoredProperty], nextPropertyID: UInt32) {
        self.id = id
        self.name = name
        self.properties = properties
        self.nextPropertyID = nextPropertyID
    }

    var primaryKeyColumn: Int? { properties.firstIndex(where: \.isPrimary) }

    /// Whether object keys are the primary key's order-preserving bits.
    var keysArePrimaryKeys: Bool {
        guard let primary = primaryKeyColumn.map({ properties[$0] }) else { return false }
        return primaryKeyIsObjectKey ?? (primary.kind == .int && !primary.isOptional)
    }
}

/// One stored property.
struct StoredProperty: Codable, Hashable, Sendable {
    var id: UInt32
    var name: String
    var kind: _StorageKind
    var isOptional: Bool
    var isIndexed: Bool
    var isPrimary: Bool
    /// The linked class of a link property, or of a list of objects.
    var objectClassName: String? = nil
    /// The collection the property holds, if any (its `kind` is then its elements').
    var collection: _CollectionKind? = nil
    /// The name recorded for the property when its class maps it to another.
    var columnName: String? = nil

    /// The property's identity in the file, as RealmSwift's schema comparison matches it: its
    /// column name when it has one, else its name. A model that maps `riderId` to `rider_id`
    /// and one that declares `rider_id` name the same stored property.
    var storedName: String { columnName ?? name }
}
