@testable import Burrow
import LMDB

// The one place tests reach the engine behind a realm or results (`.core`): everything else
// goes through these, so that a change inside the engine changes one file of the tests.
// LayeringTests checks that no other test file names `.core`.

extension Realm {
    /// The engine state behind the realm, as tests look at it.
    var internals: RealmInternals { RealmInternals(core: core) }
}

extension Results {
    /// The query and keys behind the results, as tests look at them.
    var internals: ResultsInternals { ResultsInternals(core: core) }
}

/// The engine state behind a ``Realm``.
struct RealmInternals {
    let core: RealmCore

    /// The file's coordination, shared by every realm of it in the process.
    var coordinator: Coordinator { core.coordinator }
    /// The file's LMDB environment.
    var environment: Environment { core.coordinator.environment }
    /// The fault injector of the file's LMDB calls.
    var faults: FaultInjector { core.coordinator.environment.faults }
    /// The transaction reads go through: the write's when one is open.
    var transaction: Transaction { core.transaction }
    /// The snapshot the realm reads outside writes.
    var readTransaction: Transaction { core.readTransaction }
    /// The catalog the realm reads through.
    var catalog: Catalog { core.catalog }
    /// The open write, if any.
    var writeState: WriteState? { core.writeState }
    /// The engine object itself, for identity.
    var identity: ObjectIdentifier { ObjectIdentifier(core) }

    /// `type` resolved against the file.
    func bound(_ type: ObjectBase.Type) -> BoundClass? { core.bound(type) }
    /// `info` resolved against the file.
    func bound(_ info: ClassInfo) -> BoundClass? { core.bound(info) }
}

/// The query and keys behind ``Results``.
struct ResultsInternals {
    let core: ResultsCore

    /// What the results select.
    var query: ResultsQuery { core.query }
    /// A managed accessor for `key`.
    func object(for key: ObjectKey) -> ObjectBase { core.object(for: key) }
}
