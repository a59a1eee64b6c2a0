import Burrow
import Dispatch
import Foundation

/// The notification listeners of one `burrow stress` process, on a queue of their own, for
/// commits of every thread and process:
///
/// - the clock: every write moves it by one, so each notification must report the tick moving
///   up from the value the previous one left (`oldValue` is that value: no commit skipped,
///   none reported twice, none out of order);
/// - the notes: a mirror of their number kept from insertions and deletions alone must match
///   the results' count at every notification.
final class StressListener: @unchecked Sendable {
    private let queue = DispatchQueue(label: "burrow stress listener")
    private var tokens: [NotificationToken] = []
    // Used only on `queue`.
    private var lastTick: Int?
    private var mirroredNotes: Int?

    /// Starts listening; `notified` counts notifications, `violation` reports a broken rule.
    func start(configuration: Realm.Configuration, notified: @escaping @Sendable () -> Void,
               violation: @escaping @Sendable (String) -> Void) throws {
        let realm = try Realm(configuration: configuration)
        guard let clock = realm.objects(StressClock.self).first else { return violation("the file has no clock") }
        tokens.append(clock.observe(on: queue) { [self] (change: ObjectChange<StressClock>) in
            notified()
            switch change {
            case .change(let clock, let properties):
                guard let tick = properties.first(where: { $0.name == "tick" }) else { return }
                let old = tick.oldValue as? Int, new = tick.newValue as? Int
                if let lastTick, old != lastTick {
                    violation("a clock notification went from \(old.map(String.init) ?? "nil"), not from \(lastTick)")
                }
                if let old, let new, new <= old { violation("the clock went from \(old) to \(new)") }
                lastTick = clock.tick
            case .deleted: violation("the clock was deleted")
            case .error(let error): violation("the clock's notifications failed: \(error)")
            }
        })
        tokens.append(realm.objects(StressNote.self).observe(on: queue) { [self] change in
            notified()
            switch change {
            case .initial(let notes): mirroredNotes = notes.count
            case .update(let notes, let deletions, let insertions, _):
                let mirrored = (mirroredNotes ?? 0) - deletions.count + insertions.count
                if mirrored != notes.count { violation("note notifications add up to \(mirrored) notes, the results hold \(notes.count)") }
                mirroredNotes = notes.count
            case .error(let error): violation("the notes' notifications failed: \(error)")
            }
        })
    }

    /// Stops listening, once the notifications under way have been delivered.
    func stop() {
        queue.sync {}
        tokens.forEach { $0.invalidate() }
    }
}
