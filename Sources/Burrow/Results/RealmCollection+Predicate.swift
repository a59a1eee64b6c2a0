import Foundation

extension RealmCollection where Element: ObjectBase {
    /// The objects matching a Foundation `Predicate`, translated into the same query as the
    /// string form and `where { }`, with the same index plans.
    ///
    /// ```swift
    /// let puppies = try dogs.filter(#Predicate { $0.age < 2 && $0.name.starts(with: "R") })
    /// let owned = try dogs.filter(#Predicate { $0.owner?.name == "Ann" })
    /// let chosen = try people.filter(#Predicate { ids.contains($0.id) && !$0.dogs.isEmpty })
    /// let keen = try people.filter(#Predicate { $0.dogs.contains { $0.age > 10 } })
    /// ```
    ///
    /// What translates: `==`, `!=`, `<`, `<=`, `>`, `>=` between a property and a constant or
    /// another property; `&&`, `||`, `!`; `starts(with:)` and `contains(_:)` of strings;
    /// `range.contains(property)`; `constants.contains(property)` (`IN`); `?.`, `!` and `??`
    /// on links and optionals; and of lists, sets and linking objects `count`, `isEmpty`,
    /// `contains(value)`, `contains(where:)`, `allSatisfy`, `max()` and `min()`. A `nil` link
    /// reads as an object whose properties are all `nil`, so `!` on a link never traps.
    ///
    /// - Throws: ``Realm/Error/Code/invalidQuery`` naming the first expression with no query
    ///   form, such as arithmetic, casts, regular expressions or a computed property, or for a
    ///   comparison the query language refuses (two properties both behind links).
    public func filter(_ predicate: Predicate<Element>) throws -> Results<Element> {
        let (node, template) = try PredicateTranslation.translation(of: predicate)
        let translated = QueryPredicate(node: node)
        let results = filter(translated)
        // What the translation cannot know is refused here, thrown rather than trapped when the
        // results are first read. The expression's type fixes what it reads and how, up to
        // which property of one Swift type: one check per type is enough.
        try PredicateTranslation.validateOnce(predicate, template: template) { try results.validate(translated) }
        return results
    }
}

extension Results where Element: ObjectBase {
    /// The objects matching a Foundation `Predicate`, as ``RealmCollection/filter(_:)-(Predicate<Element>)``
    /// makes them; results nothing else holds (`realm.objects(Dog.self).filter(#Predicate { … })`)
    /// give their core to the new ones.
    ///
    /// ```swift
    /// let puppies = try realm.objects(Dog.self).filter(#Predicate { $0.age < 2 })
    /// ```
    ///
    /// - Throws: ``Realm/Error/Code/invalidQuery`` naming the first expression with no query form.
    public consuming func filter(_ predicate: Predicate<Element>) throws -> Results<Element> {
        let (node, template) = try PredicateTranslation.translation(of: predicate)
        let translated = QueryPredicate(node: node)
        let results = filter(translated)
        try PredicateTranslation.validateOnce(predicate, template: template) { try results.validate(translated) }
        return results
    }
}

extension QueryPredicate {
    /// A Foundation `Predicate` translated into a query, to filter with, validate or keep.
    ///
    /// ```swift
    /// let recent = try QueryPredicate(#Predicate<Dog> { $0.born > cutoff })
    /// try dogs.validate(recent)
    /// ```
    ///
    /// - Throws: ``Realm/Error/Code/invalidQuery`` naming the first expression with no query
    ///   form (see ``RealmCollection/filter(_:)-(Predicate<Element>)``).
    public init<Root: ObjectBase>(_ predicate: Predicate<Root>) throws {
        self.init(node: try PredicateTranslation.node(of: predicate))
    }
}
