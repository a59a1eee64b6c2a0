/// Work that touches a realm, carried to the queue or actor the realm is confined to.
///
/// The realm and its closures are not `Sendable`; they cross to the scheduler's thread only to
/// run where the realm lives, which ``RealmSession/verifyThread()`` checks on every access.
struct ConfinedWork: @unchecked Sendable {
    let run: () -> Void
}
