@_spi(Benchmarks) import Burrow
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The workload on Burrow, through its public, RealmSwift-style API only.
///
/// The realm is opened (an empty file) before the first step and kept for every step, as the
/// baselines keep their environment or connection.
final class BurrowWorkload: EngineWorkload {
    let engine: String
    private let count: Int
    private let directory: URL
    private let encryptionKey: Data?
    /// Whether the files are made with row checksums (format 4) or without (format 3).
    private let rowChecksums: Bool
    private let realm: Realm
    /// How the query steps are written.
    private let queryForm: QueryForm

    /// The forms the scan and indexed-equality steps can be written in.
    enum QueryForm {
        /// `filter("age < 2")`, `filter("name == %@", name)`.
        case string
        /// `filter(#Predicate { $0.age < 2 })`, `filter(#Predicate { $0.name == name })`.
        case foundationPredicate
    }

    /// A fixed key for the encrypted run: the cost measured is the cipher's, not the key's.
    static let benchmarkKey = Data((0..<64).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })

    /// Opens a fresh realm, `burrow.realm` in `directory`, for a workload of `count` objects;
    /// with `encryptionKey`, every file of the workload is encrypted with it; without
    /// `rowChecksums`, its files are of the format before checksums.
    /// `maximumFileSize` limits the map (valgrind cannot reserve the default 64 GiB of address space).
    init(count: Int, directory: URL, encryptionKey: Data? = nil, rowChecksums: Bool = true, queryForm: QueryForm = .string,
         maximumFileSize: Int? = nil) throws {
        self.count = count
        self.directory = directory
        self.encryptionKey = encryptionKey
        self.rowChecksums = rowChecksums
        self.queryForm = queryForm
        engine = encryptionKey != nil ? "Encrypted" : !rowChecksums ? "Unchecked" : queryForm == .foundationPredicate ? "#Predicate" : "Burrow"
        var configuration = Self.configuration(named: engine.filter(\.isLetter).lowercased() + ".realm",
                                               in: directory, key: encryptionKey, rowChecksums: rowChecksums)
        if let maximumFileSize { configuration.maximumFileSize = maximumFileSize }
        try Realm.deleteFiles(for: configuration)
        realm = try Realm(configuration: configuration)
    }

    func run(_ step: Step) throws -> StepMeasurement {
        switch step {
        case .insert: try insert()
        case .openAndCount: try openAndCount()
        case .randomGet: randomGet()
        case .scanFilter: try scanFilter()
        case .indexEquality: try indexEquality()
        case .sortedPage: sortedPage()
        case .readAll: readAll()
        case .updateAll: try updateAll()
        case .deleteAll: try deleteAll()
        case .durableCommits: try durableCommits()
        }
    }

    // MARK: Steps

    /// Insert: `count` new objects added in one `write`, which also fills the primary-key and
    /// name indexes. Check: `objects(Item.self).count` afterwards.
    private func insert() throws -> StepMeasurement {
        let seconds = try Stopwatch.measure { try Self.store(count, in: realm) }.seconds
        return StepMeasurement(seconds: seconds, check: realm.objects(Item.self).count)
    }

    /// Open + count: `Realm(configuration:)` and `objects(Item.self).count` on a closed file
    /// holding `count` objects, written beforehand (untimed) by a realm that is released first,
    /// so the timed open finds nothing cached in the process. Check: the count.
    private func openAndCount() throws -> StepMeasurement {
        let configuration = Self.configuration(named: "burrow-open.realm", in: directory, key: encryptionKey, rowChecksums: rowChecksums)
        try Realm.deleteFiles(for: configuration)
        try Self.writeClosedFile(configuration, objects: count)
        let path = configuration.fileURL!.path
        guard !OpenFiles.processHolds(path) else {
            throw BenchmarkError("'\(path)' is still open after its last Realm was released; the open time would be meaningless.")
        }
        let (seconds, counted) = try Stopwatch.measure {
            let reopened = try Realm(configuration: configuration)
            return reopened.objects(Item.self).count
        }
        return StepMeasurement(seconds: seconds, check: counted)
    }

    /// Random get: `object(ofType:forPrimaryKey:)` for `count` ids drawn with `rand_r` (seed 1,
    /// the anchors' sequence), reading `age` of each. Check: the sum of the ages.
    private func randomGet() -> StepMeasurement {
        let (seconds, sum) = Stopwatch.measure {
            var seed: UInt32 = 1
            var sum = 0
            for _ in 0..<count {
                let id = Int64(Int(rand_r(&seed)) % count + 1)
                guard let item = realm.object(ofType: Item.self, forPrimaryKey: id) else {
                    preconditionFailure("Item \(id) is missing.")
                }
                sum += Int(item.age)
            }
            return sum
        }
        return StepMeasurement(seconds: seconds, check: sum)
    }

    /// Scan filter: `filter("age < 2").count`, which reads every object (no index on `age`).
    /// Check: the count.
    private func scanFilter() throws -> StepMeasurement {
        let (seconds, matches) = try Stopwatch.measure {
            switch queryForm {
            case .string: realm.objects(Item.self).filter("age < 2").count
            case .foundationPredicate: try realm.objects(Item.self).filter(#Predicate { $0.age < 2 }).count
            }
        }
        return StepMeasurement(seconds: seconds, check: matches)
    }

    /// Index equality: `filter("name == %@", name).count` for each of the workload's query
    /// names; `name` is indexed, so a query planner can answer from the index. Check: the sum
    /// of the counts.
    private func indexEquality() throws -> StepMeasurement {
        let (seconds, hits) = try Stopwatch.measure {
            var hits = 0
            for query in 0..<Workload.indexQueries {
                let name = Workload.queryName(query)
                switch queryForm {
                case .string: hits += realm.objects(Item.self).filter("name == %@", name).count
                case .foundationPredicate: hits += try realm.objects(Item.self).filter(#Predicate { $0.name == name }).count
                }
            }
            return hits
        }
        return StepMeasurement(seconds: seconds, check: hits)
    }

    /// Sorted page: `sorted(byKeyPath: "name").limit(20, offset: N/2)`, reading each object's
    /// id. `name` is indexed, so the page walks the index instead of sorting. Check: the sum of
    /// the ids.
    private func sortedPage() -> StepMeasurement {
        let (seconds, idSum) = Stopwatch.measure {
            realm.objects(Item.self).sorted(byKeyPath: "name").limit(Workload.pageSize, offset: count / 2)
                .reduce(0) { $0 + Int($1.id) }
        }
        return StepMeasurement(seconds: seconds, check: idSum)
    }

    /// Read all: iterates `objects(Item.self)` and reads all six properties of each. Check:
    /// the fields folded as the baselines fold them (the score truncated, the blob by its first
    /// byte, the name by its length).
    private func readAll() -> StepMeasurement {
        let (seconds, check) = Stopwatch.measure {
            var check = 0
            for item in realm.objects(Item.self) {
                let id = Int(item.id), age = Int(item.age), score = Int(item.score), flag = item.flag ? 1 : 0
                let name = item.name, blob = item.blob
                check += id + age + score + flag + Int(blob.first ?? 0) + name.utf8.count
            }
            return check
        }
        return StepMeasurement(seconds: seconds, check: check)
    }

    /// Update all: `age += 1` on every object while iterating `objects(Item.self)`, in one
    /// `write`. Check: the objects updated.
    private func updateAll() throws -> StepMeasurement {
        let (seconds, updated) = try Stopwatch.measure {
            try realm.write {
                var updated = 0
                for item in realm.objects(Item.self) {
                    item.age += 1
                    updated += 1
                }
                return updated
            }
        }
        return StepMeasurement(seconds: seconds, check: updated)
    }

    /// Delete all: `delete(objects(Item.self))` in one `write`. Check: the objects left.
    private func deleteAll() throws -> StepMeasurement {
        let seconds = try Stopwatch.measure {
            try realm.write { realm.delete(realm.objects(Item.self)) }
        }.seconds
        return StepMeasurement(seconds: seconds, check: realm.objects(Item.self).count)
    }

    /// Durable commits: one `write { add(_:) }` per object, each committed to disk before it
    /// returns. Check: the objects stored afterwards.
    private func durableCommits() throws -> StepMeasurement {
        let seconds = try Stopwatch.measure {
            for id in 1...Workload.durableCommits {
                try realm.write { realm.add(Item(workloadID: id)) }
            }
        }.seconds
        return StepMeasurement(seconds: seconds, check: realm.objects(Item.self).count)
    }

    // MARK: Helpers

    /// The configuration of the file `name` in `directory`.
    private static func configuration(named name: String, in directory: URL, key: Data?, rowChecksums: Bool = true) -> Realm.Configuration {
        var configuration = Realm.Configuration(fileURL: directory.appendingPathComponent(name), encryptionKey: key)
        configuration.createsRowChecksums = rowChecksums
        return configuration
    }

    /// Adds objects 1…`count` in one write.
    private static func store(_ count: Int, in realm: Realm) throws {
        try realm.write {
            for id in 1...count {
                realm.add(Item(workloadID: id))
            }
        }
    }

    /// Writes `objects` objects to the file of `configuration`; every reference to the realm
    /// (and so the file) is released when this returns.
    private static func writeClosedFile(_ configuration: Realm.Configuration, objects: Int) throws {
        let realm = try Realm(configuration: configuration)
        try store(objects, in: realm)
    }
}
