import Burrow
import Foundation

/// The one class of the workload: an integer primary key, an indexed string and four plain
/// properties, as in the anchors' records.
final class Item: Object {
    @Persisted(primaryKey: true) var id: Int64 = 0
    @Persisted(indexed: true) var name = ""
    @Persisted var age: Int32 = 0
    @Persisted var score = 0.0
    @Persisted var flag = false
    @Persisted var blob = Data()
}

extension Item {
    /// An unmanaged item holding the workload's values for `id`.
    convenience init(workloadID id: Int) {
        self.init()
        self.id = Int64(id)
        name = Workload.name(of: id)
        age = Workload.age(of: id)
        score = Workload.score(of: id)
        flag = Workload.flag(of: id)
        blob = Workload.blob(of: id)
    }
}
