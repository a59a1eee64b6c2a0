/// One step of the workload, in the order the engines run them and the table lists them.
enum Step: CaseIterable {
    /// Stores N objects in one write transaction, maintaining the name index.
    case insert
    /// Opens a closed file holding N objects and counts them.
    case openAndCount
    /// Reads `age` of N objects fetched by primary key in a seeded random order.
    case randomGet
    /// Counts the objects with `age < 2`, with no index to help.
    case scanFilter
    /// Counts the objects named like each of 10,000 names.
    case indexEquality
    /// Reads a page of 20 objects at offset N/2 in name order (name is indexed).
    case sortedPage
    /// Reads every property of every object, in key order.
    case readAll
    /// Adds one to every object's `age` in one write transaction.
    case updateAll
    /// Deletes every object in one write transaction.
    case deleteAll
    /// Commits 2,000 write transactions of one object each, each durable on return.
    case durableCommits

    /// The step's name in the tables.
    var title: String {
        switch self {
        case .insert: "insert"
        case .openAndCount: "open + count"
        case .randomGet: "random get"
        case .scanFilter: "scan filter age < 2"
        case .indexEquality: "index equality \(Workload.indexQueries)"
        case .sortedPage: "page of \(Workload.pageSize) by name"
        case .readAll: "read all properties"
        case .updateAll: "update all"
        case .deleteAll: "delete all"
        case .durableCommits: "\(Workload.durableCommits) durable commits"
        }
    }

    /// What the step's check value is.
    var checkMeaning: String {
        switch self {
        case .insert: "objects stored"
        case .openAndCount: "objects counted"
        case .randomGet: "sum of ages read"
        case .scanFilter: "matches"
        case .indexEquality: "hits"
        case .sortedPage: "sum of ids"
        case .readAll: "sum of all fields"
        case .updateAll: "objects updated"
        case .deleteAll: "objects left"
        case .durableCommits: "objects stored"
        }
    }
}
