import Foundation

/// Collections in translated predicates: `contains(where:)`, `allSatisfy`, `count`, `isEmpty`,
/// `max()` and `min()`.
extension PredicateTranslation {
    /// `collection.contains { test }` (`all == false`) or `collection.allSatisfy { test }`:
    /// a `SUBQUERY` over objects, a quantified comparison over values.
    mutating func quantified(_ sequence: TranslatedExpression, elementType: Any.Type,
                             variable: PredicateExpressions.VariableID, test: some TranslatablePredicateExpression,
                             all: Bool, in expression: Any) throws(Realm.Error) -> TranslatedExpression {
        guard case .path(let path) = sequence, path.isCollection, path.quantifier == nil else {
            throw Self.untranslatable(expression, "contains(where:) and allSatisfy need a list, set or linking objects property")
        }
        try checkScope(path, in: expression)
        if let object = path.objectType {
            guard elementType == object else {
                throw Self.untranslatable(expression, "contains(where:) and allSatisfy over a map have no query form")
            }
            let matching = try subquery(variable, elementType: object) { (inner: inout PredicateTranslation) throws(Realm.Error) in
                let condition = try inner.condition(test.translated(in: &inner), of: test)
                return all ? .not(condition) : condition
            }
            // Some element matches: at least one; all match: none fails.
            return .condition(.comparison(Comparison(
                lhs: .subqueryCount(collection: path.keyPath, predicate: matching, position: 0),
                op: all ? .equal : .greater, rhs: .literal(.int(0), position: 0))))
        }
        guard elementType is any _Persistable.Type else {
            throw Self.untranslatable(expression, "contains(where:) and allSatisfy over a map have no query form")
        }
        return .condition(try elements(variable, of: path.names, quantifier: all ? .all : .any) {
            (inner: inout PredicateTranslation) throws(Realm.Error) in try inner.condition(test.translated(in: &inner), of: test)
        })
    }

    /// `collection.max()` or `.min()` of a collection of values.
    func aggregate(_ name: String, of collection: TranslatedExpression, in expression: Any) throws(Realm.Error) -> TranslatedExpression {
        guard case .path(var path) = collection, path.isCollection, path.objectType == nil else {
            throw Self.untranslatable(expression, "max() and min() need a list or set of values")
        }
        path.names.append(name)
        path.isCollection = false
        return .path(path)
    }
}

extension PredicatePath {
    /// What a property of Swift type `type` leads to: the class of its objects (a link, or a
    /// collection of objects) and whether it is a collection.
    static func target(of type: Any.Type) -> (objectType: ObjectBase.Type?, isCollection: Bool) {
        let isCollection = type is any PredicateCollection.Type
        if let object = type as? ObjectBase.Type { return (object, isCollection) }
        if let linkable = type as? any _QueryLinkable.Type { return (linkedClass(linkable), isCollection) }
        if let collection = type as? any RealmCollection.Type { return (elementType(collection) as? ObjectBase.Type, isCollection) }
        return (nil, isCollection)
    }

    private static func elementType<Collection: RealmCollection>(_: Collection.Type) -> Any.Type {
        Collection.Element.self
    }

    private static func linkedClass<Linkable: _QueryLinkable>(_: Linkable.Type) -> ObjectBase.Type {
        Linkable._LinkedObject.self
    }
}

/// What a translated predicate reads of a collection property.
enum PredicateAggregate {
    case count
    case isEmpty
}

/// The collection properties a translated predicate can count.
protocol PredicateCollection {
    /// What `keyPath` (`\.count`, `\.isEmpty`) reads, or `nil`.
    static func aggregate(of keyPath: AnyKeyPath) -> PredicateAggregate?
}

extension List: PredicateCollection {
    static func aggregate(of keyPath: AnyKeyPath) -> PredicateAggregate? {
        keyPath == \List<Element>.count ? .count : keyPath == \List<Element>.isEmpty ? .isEmpty : nil
    }
}

extension MutableSet: PredicateCollection {
    static func aggregate(of keyPath: AnyKeyPath) -> PredicateAggregate? {
        keyPath == \MutableSet<Element>.count ? .count : keyPath == \MutableSet<Element>.isEmpty ? .isEmpty : nil
    }
}

extension Map: PredicateCollection {
    static func aggregate(of keyPath: AnyKeyPath) -> PredicateAggregate? {
        keyPath == \Map<Key, Value>.count ? .count : keyPath == \Map<Key, Value>.isEmpty ? .isEmpty : nil
    }
}

extension LinkingObjects: PredicateCollection {
    static func aggregate(of keyPath: AnyKeyPath) -> PredicateAggregate? {
        keyPath == \LinkingObjects<Element>.count ? .count : keyPath == \LinkingObjects<Element>.isEmpty ? .isEmpty : nil
    }
}
