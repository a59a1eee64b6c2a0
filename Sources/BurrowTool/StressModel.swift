import Burrow
import Foundation

/// An account of the stress workload: money moves between accounts, and notes are filed under
/// them. `noteCount` is kept by hand beside the `notes` list, so the two disagree if a commit
/// is ever half applied.
final class StressAccount: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var balance = 0
    @Persisted var noteCount = 0
    @Persisted var notes: List<StressNote>
}

/// A note filed under an account, linking back to it.
final class StressNote: Object {
    @Persisted(primaryKey: true) var id = ""
    @Persisted var account: StressAccount?
    @Persisted var text = ""
}

/// One counter every write of the workload moves forward: a snapshot that shows a smaller tick
/// than one its realm showed before went back in time.
final class StressClock: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var tick = 0
}

/// The workload's invariants, checked in every snapshot read.
enum StressLedger {
    static let objectTypes: [ObjectBase.Type] = [StressAccount.self, StressNote.self, StressClock.self]
    static let openingBalance = 1_000

    /// The file's configuration; encrypted with `BURROW_ENCRYPTION_KEY` when it is set (the
    /// command has checked it is well formed).
    static func configuration(_ path: String) -> Realm.Configuration {
        Realm.Configuration(fileURL: URL(fileURLWithPath: path), encryptionKey: (try? ToolEncryptionKey.fromEnvironment()) ?? nil,
                            objectTypes: objectTypes)
    }

    /// Creates `accounts` accounts and the clock, unless the file has them.
    static func seed(_ realm: Realm, accounts: Int) throws {
        guard realm.objects(StressClock.self).isEmpty else { return }
        try realm.write {
            realm.add(StressClock())
            for id in 0..<accounts { realm.add(StressAccount(value: ["id": id, "balance": openingBalance])) }
        }
    }

    /// What is wrong with the snapshot `realm` reads, or `nil`. `account` names one account
    /// whose notes are checked (all of them when `nil`).
    static func problem(in realm: Realm, checking account: Int? = nil) -> String? {
        let accounts = realm.objects(StressAccount.self)
        let expected = accounts.count * openingBalance
        let total: Int = accounts.sum(ofProperty: "balance")
        if total != expected { return "balances sum to \(total), not \(expected)" }
        let checked = account.map { Array(accounts.filter("id == %@", $0)) } ?? Array(accounts)
        for account in checked where account.notes.count != account.noteCount {
            return "account \(account.id) lists \(account.notes.count) notes but counts \(account.noteCount)"
        }
        if account == nil {
            let filed = accounts.reduce(0) { $0 + $1.noteCount }
            let notes = realm.objects(StressNote.self)
            if notes.count != filed { return "\(notes.count) notes exist but \(filed) are filed" }
            if !notes.filter("account == nil").isEmpty { return "a note has no account" }
        }
        return nil
    }

    static func tick(in realm: Realm) -> Int {
        realm.objects(StressClock.self).first?.tick ?? 0
    }
}
