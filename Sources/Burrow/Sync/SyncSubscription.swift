import Foundation

/// One subscription of a ``SyncSubscriptionSet``: a class and a query.
///
/// ```swift
/// if let mine = realm.subscriptions.first(named: "mine") {
///     print(mine.objectClassName, mine.queryString)   // Task (owner == "ana" AND done == false)
/// }
/// ```
public struct SyncSubscription: Sendable {
    /// The name it was given, if any.
    public var name: String? { entry.name }
    /// The class whose objects it selects.
    public var objectClassName: String { entry.className }
    /// Its query in the query language (`TRUEPREDICATE` for every object).
    public var queryString: String { entry.queryText }
    /// When it was appended.
    public var createdAt: Date { entry.createdAt }
    /// When its query last changed.
    public var updatedAt: Date { entry.updatedAt }

    let entry: SubscriptionEntry
    let set: SyncSubscriptionSet

    /// Changes its query, inside ``SyncSubscriptionSet/update(_:)``; the class stays `T`'s.
    ///
    /// ```swift
    /// try await realm.subscriptions.update {
    ///     realm.subscriptions.first(named: "mine")?.updateQuery(toType: Task.self) { $0.owner == "ana" }
    /// }
    /// ```
    public func updateQuery<T: Object>(toType type: T.Type, where query: (Query<T>) -> Query<Bool>) {
        let node = query(Query<T>(.root(ClassInfo.of(T.self)))).node
        set.replaceQuery(of: entry, name: entry.name, className: ClassInfo.of(T.self).className, node: node)
    }

    /// Changes its query to a query string, inside ``SyncSubscriptionSet/update(_:)``.
    public func updateQuery(to predicateFormat: String, _ args: Any...) {
        let node: PredicateNode
        do {
            node = try QueryParser.parse(predicateFormat, arguments: args).node
        } catch {
            burrowPreconditionFailure("Invalid subscription query '\(predicateFormat)': \(error)")
        }
        set.replaceQuery(of: entry, name: entry.name, className: entry.className, node: node)
    }
}

/// Where the latest change of a ``SyncSubscriptionSet`` stands.
public enum SyncSubscriptionState: Equatable, Sendable {
    /// The file holds what the subscriptions select.
    case complete
    /// The change waits to be applied: the objects it brings are not all here yet.
    case pending
    /// The change was refused (the message names why); the file keeps what it held.
    case error(SyncError)
    /// In RealmSwift, a set replaced by a newer copy. Here every `realm.subscriptions` is the
    /// session's one set, always current, so this is never reported; the case is kept so that
    /// code written against RealmSwift that matches it still compiles.
    case superseded
}

/// A subscription as the set keeps it and the file stores it.
struct SubscriptionEntry: Equatable, Sendable {
    var name: String?
    var className: String
    var queryText: String
    /// The SQL condition on the class's server table; `nil` selects every object.
    var condition: String?
    var createdAt: Date
    var updatedAt: Date

    var json: JSONValue {
        .object([("name", name.map(JSONValue.string) ?? .null), ("class", .string(className)), ("query", .string(queryText)),
                 ("sql", condition.map(JSONValue.string) ?? .null),
                 ("created", .number(String(createdAt.timeIntervalSince1970))),
                 ("updated", .number(String(updatedAt.timeIntervalSince1970)))])
    }

    init(name: String?, className: String, queryText: String, condition: String?, createdAt: Date, updatedAt: Date) {
        self.name = name
        self.className = className
        self.queryText = queryText
        self.condition = condition
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// Reads an entry the file stored.
    ///
    /// - Throws: ``StorageError/damaged(_:)`` when it does not read.
    init(json: JSONValue) throws {
        guard let className = json["class"]?.stringValue, let queryText = json["query"]?.stringValue,
              case .number(let createdText)? = json["created"], let created = Double(createdText),
              case .number(let updatedText)? = json["updated"], let updated = Double(updatedText) else {
            throw StorageError.damaged("a stored sync subscription does not read")
        }
        self.init(name: json["name"]?.stringValue, className: className, queryText: queryText, condition: json["sql"]?.stringValue,
                  createdAt: Date(timeIntervalSince1970: created), updatedAt: Date(timeIntervalSince1970: updated))
    }

    /// Whether it selects the same objects as `other`.
    func selectsSame(as other: SubscriptionEntry) -> Bool {
        className == other.className && condition == other.condition
    }
}
