import Baselines

/// The C entry points of one baseline engine in `Baselines.h`, so that one workload type can
/// drive raw LMDB and SQLite alike.
struct BaselineFunctions {
    let engine: String
    /// The file name of the engine's store inside the benchmark folder.
    let fileName: String
    let create: (String) -> OpaquePointer
    let close: (OpaquePointer) -> Void
    let insert: (OpaquePointer, Int) -> BaselineStep
    let randomGet: (OpaquePointer, Int) -> BaselineStep
    let scanFilter: (OpaquePointer) -> BaselineStep
    let indexEquality: (OpaquePointer, Int32) -> BaselineStep
    let sortedPage: (OpaquePointer, Int, Int32) -> BaselineStep
    let readAll: (OpaquePointer) -> BaselineStep
    let updateAll: (OpaquePointer) -> BaselineStep
    let deleteAll: (OpaquePointer) -> BaselineStep
    let durableCommits: (OpaquePointer, Int32) -> BaselineStep
    let openAndCount: (String) -> BaselineStep

    /// Raw LMDB: one environment with the records, an index database and a name database.
    static var lmdb: BaselineFunctions { BaselineFunctions(
        engine: "LMDB", fileName: "lmdb.mdb",
        create: { lmdb_baseline_create($0) }, close: { lmdb_baseline_close($0) },
        insert: { lmdb_baseline_insert($0, $1) }, randomGet: { lmdb_baseline_random_get($0, $1) },
        scanFilter: { lmdb_baseline_scan_filter($0) }, indexEquality: { lmdb_baseline_index_equality($0, $1) },
        sortedPage: { lmdb_baseline_sorted_page($0, $1, $2) }, readAll: { lmdb_baseline_read_all($0) }, updateAll: { lmdb_baseline_update_all($0) },
        deleteAll: { lmdb_baseline_delete_all($0) }, durableCommits: { lmdb_baseline_durable_commits($0, $1) },
        openAndCount: { lmdb_baseline_open_count($0) }) }

    /// SQLite: one table with a primary key and an index on the name.
    static var sqlite: BaselineFunctions { BaselineFunctions(
        engine: "SQLite", fileName: "sqlite.db",
        create: { sqlite_baseline_create($0) }, close: { sqlite_baseline_close($0) },
        insert: { sqlite_baseline_insert($0, $1) }, randomGet: { sqlite_baseline_random_get($0, $1) },
        scanFilter: { sqlite_baseline_scan_filter($0) }, indexEquality: { sqlite_baseline_index_equality($0, $1) },
        sortedPage: { sqlite_baseline_sorted_page($0, $1, $2) }, readAll: { sqlite_baseline_read_all($0) }, updateAll: { sqlite_baseline_update_all($0) },
        deleteAll: { sqlite_baseline_delete_all($0) }, durableCommits: { sqlite_baseline_durable_commits($0, $1) },
        openAndCount: { sqlite_baseline_open_count($0) }) }
}
