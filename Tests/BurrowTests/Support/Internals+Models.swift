@testable import Burrow
import Foundation
import Testing

// Model classes, schemas and queries, as the engine sees them (see Internals.swift).

// MARK: - Model classes

extension Internals {
    /// The model classes found in the program's type records, as a realm without
    /// `objectTypes` stores them.
    static var discoveredModelTypes: [ObjectBase.Type] { ModelDiscovery.modelTypes }

    /// Whether `type` is a class of embedded objects.
    static func isEmbedded(_ type: ObjectBase.Type) -> Bool { ClassInfo.isEmbedded(type) }

    /// Whether `type` is a `@Persisted` wrapper, as reflection shows a model's stored field.
    static func isPersistedField(_ type: Any.Type) -> Bool { type is any PersistedField.Type }

    /// The names of the persisted properties of `type`, in the order its class lists them.
    static func fieldNames(of type: ObjectBase.Type) -> [String] { ClassInfo.of(type).fields.map(\.name) }

    /// The stored form of `property` of the unmanaged `object`, read at its field's offset.
    static func unmanagedValue(of property: String, in object: ObjectBase) -> _PersistedValue {
        let info = ClassInfo.of(type(of: object))
        return info.unmanagedValue(info.field(named: property), in: object)
    }

    /// Makes `object` immortal, as the offset cache makes the key paths it names wrappers by.
    static func immortalize(_ object: AnyObject) { FieldOffsetCache.immortalize(object) }
}

// MARK: - Schemas

extension RealmInternals {
    /// The schema a realm without `objectTypes` shows for the models `types` (with the classes
    /// they link to) and the file's stored classes, with one more stored class, `className`,
    /// numbered `id`, whose `properties` are required, unindexed and numbered from 1.
    func schema(of types: [ObjectBase.Type], addingStoredClass className: String, id: UInt32,
                properties: [(name: String, kind: _StorageKind)]) -> Schema {
        var stored = catalog.schema
        let added = properties.enumerated().map { index, property in
            StoredProperty(id: UInt32(index + 1), name: property.name, kind: property.kind, isOptional: false, isIndexed: false,
                           isPrimary: false)
        }
        stored.classes.append(StoredClass(id: id, name: className, properties: added, nextPropertyID: UInt32(added.count + 1)))
        return Schema.of(models: ClassInfo.closure(of: types), stored: stored)
    }
}

// MARK: - Queries

extension Internals {
    /// The deepest nesting of parentheses and `NOT` the query parser takes.
    static var maximumQueryNesting: Int { QueryParser.maximumNesting }

    /// Whether predicates of `predicate`'s expression type are translated once and bound.
    static func hasPredicateTemplate<Root>(for predicate: Predicate<Root>) -> Bool { PredicateTemplates.hasTemplate(for: predicate) }

    /// Whether predicates of `predicate`'s expression type are bound by reading their constants,
    /// key paths and operators where they lie in the expression.
    static func readsPredicateLeavesInPlace<Root>(for predicate: Predicate<Root>) -> Bool {
        PredicateTemplates.hasTemplate(for: predicate, readInPlace: true)
    }

    /// The deepest predicate tree a query may hold, however it was built.
    static var maximumPredicateDepth: Int { PredicateLimits.maximumDepth }

    /// The query a `where` closure on objects of `type` is given (`$0`).
    static func rootQuery<T: ObjectBase>(of type: T.Type) -> Query<T> { Query<T>(.root(ClassInfo.of(type))) }

    /// Checks `predicate` against the bounds every query is held to (``maximumPredicateDepth``
    /// among them), as results built from it would.
    static func checkLimits(of predicate: Query<Bool>) throws(Realm.Error) { try PredicateLimits.check(predicate.node) }

    /// The predicate as the query language writes it.
    static func queryText(of predicate: Query<Bool>) -> String { predicate.node.queryText }
}

extension ResultsInternals {
    /// Whether the planner reads the results' objects by scanning their table, rather than
    /// through an index.
    func isPlannedAsAScan() throws -> Bool {
        let layout = try #require(core.realm.bound(core.info)?.layout)
        let bound = try PredicateBinder(storedClass: layout.storedClass).bind(#require(core.query.predicate))
        if case .scan = QueryPlanner(layout: layout).plan(bound) { return true }
        return false
    }
}
