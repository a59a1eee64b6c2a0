import Burrow
import Foundation
import Testing

/// Damaged copies of a 5,000-object file (three classes with integer, string and UUID primary
/// keys, indexed strings, links, lists and maps), each opened and read back in full in a child
/// process: every object by iteration, every object by its primary key, every indexed name by
/// query. What the child read is compared with the original, so that wrong data read without
/// an error is counted as such, and each way a copy can end is counted and printed. Each copy
/// is also checked by `Realm.verifyFile` in a child of its own, which may stop only in LMDB's code.
///
/// Half the copies have 1 to 64 bytes overwritten at random, a quarter a page zeroed or filled
/// with random bytes, a quarter are truncated. `BURROW_DAMAGE_COPIES` (30 by default) and
/// `BURROW_DAMAGE_SEED` (1) set the size and the seed: `Scripts/damage-campaign.sh --reads`
/// runs a thousand. `BURROW_DAMAGE_KEEP`, a folder, keeps there each copy read wrong without an
/// error or ended in a way never acceptable, with the original beside it, to be looked into.
@Suite(.plainFilesOnly("the campaign makes its own plain and encrypted files"))
struct DamageCampaignTests {
    let directory = TestDirectory()

    static let owners = 2_000, pets = 1_500, visits = 1_500
    private static let key = Data((0..<64).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) })
    private static let copies = Int(ProcessInfo.processInfo.environment["BURROW_DAMAGE_COPIES"] ?? "") ?? 30
    private static let seed = UInt64(ProcessInfo.processInfo.environment["BURROW_DAMAGE_SEED"] ?? "") ?? 1
    private static let keptCopies = ProcessInfo.processInfo.environment["BURROW_DAMAGE_KEEP"]

    // MARK: The data

    static func ownerID(_ index: Int) -> Int { index * 3 - 1_000 }
    static func ownerName(_ index: Int) -> String { "owner \(index % 1_700) ✓" }
    static func petCode(_ index: Int) -> String { "pet-\(index)-é" }
    static func petName(_ index: Int) -> String { "pet \(index % 1_200)" }
    static func visitID(_ index: Int) -> UUID { UUID(uuidString: String(format: "0000%04X-0000-4000-8000-%012X", index % 65_536, index * 7_919))! }

    private static func configuration(_ path: String, encrypted: Bool) -> Realm.Configuration {
        Realm.Configuration(fileURL: URL(fileURLWithPath: path), encryptionKey: encrypted ? key : nil,
                            objectTypes: [CampaignOwner.self, CampaignPet.self, CampaignVisit.self])
    }

    /// Writes the original file, in several transactions as a program would.
    private func writeOriginal(_ path: String, encrypted: Bool) throws {
        var generator = SplitMix64(seed: 20261206)
        let realm = try Realm(configuration: Self.configuration(path, encrypted: encrypted))
        var pets: [CampaignPet] = []
        try realm.write {
            for index in 0..<Self.pets {
                let pet = realm.create(CampaignPet.self, value: ["code": Self.petCode(index), "name": Self.petName(index),
                                                                 "age": Int.random(in: 0...20, using: &generator)])
                for _ in 0..<Int.random(in: 0...2, using: &generator) where !pets.isEmpty {
                    pet.friends.append(pets.randomElement(using: &generator)!)
                }
                pets.append(pet)
            }
        }
        var owners: [CampaignOwner] = []
        for chunk in stride(from: 0, to: Self.owners, by: 500) {
            try realm.write {
                for index in chunk..<min(chunk + 500, Self.owners) {
                    let owner = realm.create(CampaignOwner.self, value: ["id": Self.ownerID(index), "name": Self.ownerName(index)])
                    owner.tags.append(objectsIn: (0..<Int.random(in: 0...3, using: &generator)).map { "tag \($0 * index % 11)" })
                    for key in ["a", "b", "ü"] where Bool.random(using: &generator) { owner.scores[key] = Int.random(in: -99...99, using: &generator) }
                    owner.pet = Bool.random(using: &generator) ? pets.randomElement(using: &generator) : nil
                    owners.append(owner)
                }
            }
        }
        try realm.write {
            for index in 0..<Self.visits {
                let visit = realm.create(CampaignVisit.self, value: ["id": Self.visitID(index), "at": Date(timeIntervalSince1970: Double(index) * 3_600)])
                visit.owner = owners.randomElement(using: &generator)
                visit.pets.append(objectsIn: (0..<Int.random(in: 0...3, using: &generator)).map { _ in pets.randomElement(using: &generator)! })
                if Bool.random(using: &generator) { visit.notes["note"] = "visit \(index)" }
            }
        }
    }

    // MARK: Reading back

    /// Everything the file answers, as a fingerprint of each part: each object as iteration
    /// reads it, each object as its primary key finds it, and the count of each indexed name's query.
    static func readBack(_ configuration: Realm.Configuration) throws -> [String] {
        let realm = try Realm(configuration: configuration)
        var lines: [String] = []
        for owner in realm.objects(CampaignOwner.self) {
            lines.append("O \(owner.id) \(owner.name) [\(owner.tags.joined(separator: ","))] "
                         + "\(owner.scores.map { "\($0.key)=\($0.value)" }.sorted()) \(owner.pet?.code ?? "-")")
        }
        for pet in realm.objects(CampaignPet.self) {
            lines.append("P \(pet.code) \(pet.name) \(pet.age) [\(pet.friends.map(\.code).joined(separator: ","))]")
        }
        for visit in realm.objects(CampaignVisit.self) {
            lines.append("V \(visit.id) \(visit.owner?.id ?? -1) [\(visit.pets.map(\.code).joined(separator: ","))] "
                         + "\(visit.notes.map { "\($0.key)=\($0.value)" }.sorted()) \(visit.at.timeIntervalSince1970)")
        }
        lines.sort()
        var lookups: [String] = []
        for index in 0..<owners {
            lookups.append("O#\(ownerID(index)) \(realm.object(ofType: CampaignOwner.self, forPrimaryKey: ownerID(index))?.name ?? "nil")")
        }
        for index in 0..<pets {
            lookups.append("P#\(petCode(index)) \(realm.object(ofType: CampaignPet.self, forPrimaryKey: petCode(index))?.age ?? -1)")
        }
        for index in 0..<visits {
            lookups.append("V#\(index) \(realm.object(ofType: CampaignVisit.self, forPrimaryKey: visitID(index))?.notes.count ?? -1)")
        }
        var queries: [String] = []
        for index in 0..<1_700 {
            queries.append("O=\(index) \(realm.objects(CampaignOwner.self).filter("name == %@", ownerName(index)).count)")
        }
        for index in 0..<1_200 {
            queries.append("P=\(index) \(realm.objects(CampaignPet.self).filter("name == %@", petName(index)).count)")
        }
        // Pages deep into the sort of an indexed name, which pass over the index's leaf pages
        // before them by their headers, both ways.
        var pages: [String] = []
        for offset in stride(from: 0, to: owners, by: 97) {
            for ascending in [true, false] {
                let page = realm.objects(CampaignOwner.self).sorted(byKeyPath: "name", ascending: ascending).limit(3, offset: offset)
                pages.append("O\(ascending ? "+" : "-")\(offset) \(page.map { "\($0.id)" }.joined(separator: ","))")
            }
        }
        for offset in stride(from: 0, to: pets, by: 89) {
            let page = realm.objects(CampaignPet.self).sorted(byKeyPath: "name").limit(3, offset: offset)
            pages.append("P+\(offset) \(page.map(\.code).joined(separator: ","))")
        }
        return [lines, lookups, queries, pages].map { fingerprint($0.joined(separator: "\n")) }
    }

    /// The parts of what is read: every object by iteration, by its primary key, by a query of
    /// its indexed name, and pages of the sort by that name.
    static let parts = ["iteration", "primary-key lookups", "indexed queries", "sorted pages"]

    /// A short fingerprint of what was read (FNV-1a, 64 bits).
    static func fingerprint(_ text: String) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return String(hash, radix: 16)
    }

    // MARK: Damage

    private enum Damage: CaseIterable {
        case bytes, zeroedPage, randomPage, truncation

        static func pick(_ index: Int) -> Damage { [.bytes, .zeroedPage, .bytes, .randomPage, .bytes, .truncation, .bytes, .truncation][index % 8] }
    }

    /// A copy of `original` with `damage` done at a random place; returns it and the bytes changed.
    private static func damaged(_ original: Data, _ damage: Damage, _ generator: inout SplitMix64) -> (Data, Range<Int>) {
        var bytes = original
        var changed = 0..<0
        let pageSize = 4096, pages = original.count / pageSize
        switch damage {
        case .bytes:
            let length = Int.random(in: 1...64, using: &generator)
            let start = Int.random(in: 0..<(original.count - length), using: &generator)
            for offset in start..<start + length { bytes[offset] = UInt8.random(in: 0...255, using: &generator) }
            changed = start..<start + length
        case .zeroedPage, .randomPage:
            let start = Int.random(in: 0..<pages, using: &generator) * pageSize
            for offset in start..<start + pageSize { bytes[offset] = damage == .zeroedPage ? 0 : UInt8.random(in: 0...255, using: &generator) }
            changed = start..<start + pageSize
        case .truncation:
            let length = Int.random(in: 0..<original.count, using: &generator)
            bytes = bytes.prefix(length)
            changed = length..<original.count
        }
        return (bytes, changed)
    }

    /// What the damaged bytes were in `original`: the kind of LMDB page each falls in (its
    /// header's flags) and, in a leaf or branch page, the part of it (header, node offsets, nodes).
    private static func structures(at changed: Range<Int>, in original: Data) -> String {
        let pageSize = 4096
        guard !changed.isEmpty, changed.lowerBound < original.count else { return "past the end" }
        let pages = (changed.lowerBound / pageSize)...((min(changed.upperBound, original.count) - 1) / pageSize)
        let kinds = pages.map { page -> String in
            if page < 2 { return "meta page" }
            let start = page * pageSize
            let flags = UInt16(original[start + 10]) | UInt16(original[start + 11]) << 8
            let lower = Int(original[start + 12]) | Int(original[start + 13]) << 8
            let offset = max(changed.lowerBound, start) - start
            let part = offset < 16 ? "header" : offset < lower ? "node offsets" : "nodes"
            if flags & 0x04 != 0 { return "overflow page" }
            if flags & 0x01 != 0 { return "branch page (\(part))" }
            if flags & 0x02 != 0 { return "leaf page (\(part))" }
            return "free or overflow page"
        }
        return Set(kinds).sorted().joined(separator: " + ")
    }

    // MARK: Outcomes

    /// How the read of one copy ended.
    enum Outcome: String, CaseIterable {
        case identical = "read identical"
        case wrongData = "READ WRONG DATA without an error"
        case threwInvalidDatabase = "threw invalidDatabase"
        case namedDamage = "stopped with a message naming damage"
        case lmdbAssertion = "stopped at an LMDB assertion"
        case faultInLMDB = "SIGSEGV or SIGBUS in LMDB's code"
        case faultElsewhere = "SIGSEGV or SIGBUS OUTSIDE LMDB's code"
        case misleading = "stopped with a MISLEADING message"
        case other = "ENDED OTHERWISE"

        /// The outcomes that are never acceptable.
        var isFailure: Bool { [.faultElsewhere, .misleading, .other].contains(self) }
    }

    private static func outcome(_ result: ExitTest.Result?, expected: String) -> (Outcome, String) {
        guard let result else { return (.other, "no result") }
        let output = String(decoding: result.standardOutputContent, as: UTF8.self)
        let errors = String(decoding: result.standardErrorContent, as: UTF8.self)
        if let line = output.split(separator: "\n").first(where: { $0.hasPrefix("outcome: ") }) {
            let said = line.dropFirst("outcome: ".count)
            if said == "read \(expected)" { return (.identical, "") }
            if said.hasPrefix("read ") {
                let read = said.dropFirst(5).split(separator: " ").map(String.init), wanted = expected.split(separator: " ").map(String.init)
                let wrong = parts.indices.filter { $0 >= read.count || $0 >= wanted.count || read[$0] != wanted[$0] }.map { parts[$0] }
                return (.wrongData, wrong.joined(separator: ", "))
            }
            if said.hasPrefix("threw invalidDatabase") { return (.threwInvalidDatabase, "") }
            return (.other, String(said))
        }
        if errors.contains("Object has been deleted or invalidated") { return (.misleading, errors) }
        if errors.contains("mdb.c:") || errors.contains("Assertion") && errors.contains("mdb_") { return (.lmdbAssertion, "") }
        if errors.localizedCaseInsensitiveContains("the file is damaged") || errors.contains("MDB_CORRUPTED") || errors.contains("MDB_PAGE_NOTFOUND")
            || errors.contains("failed its authentication check") {
            return (.namedDamage, "")
        }
        if case .signal(let signal) = result.exitStatus, signal == SIGSEGV || signal == SIGBUS {
            return (FaultReporter.faultIsInLMDB(errors) ? .faultInLMDB : .faultElsewhere, String(errors.prefix(3_000)))
        }
        return (.other, String(errors.prefix(3_000)))
    }

    /// How `Realm.verifyFile` ended on one copy, in a child process of its own.
    enum VerifyOutcome: String, CaseIterable {
        case foundDamage = "found damage"
        case intact = "found the file intact"
        case threwInvalidDatabase = "threw invalidDatabase"
        case stoppedInLMDB = "stopped in LMDB's code (an assertion or a fault)"
        case threwOtherwise = "THREW an error that does not say the file is damaged"
        case crashed = "CRASHED in Burrow's own checks"

        var isFailure: Bool { self == .crashed || self == .threwOtherwise }

        init(_ result: ExitTest.Result?) {
            let output = result.map { String(decoding: $0.standardOutputContent, as: UTF8.self) } ?? ""
            let errors = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
            if output.contains("verify: damaged") { self = .foundDamage }
            else if output.contains("verify: intact") { self = .intact }
            else if output.contains("verify: threw invalidDatabase") { self = .threwInvalidDatabase }
            else if output.contains("verify: threw") { self = .threwOtherwise }
            else if errors.contains("mdb.c:") || FaultReporter.faultIsInLMDB(errors) { self = .stoppedInLMDB }
            else { self = .crashed }
        }
    }

    /// Keeps a copy read wrong in `folder`, with the original it was made from and what went wrong.
    private static func keep(_ copy: String, original: String, what: String, in folder: String) throws {
        let name = UUID().uuidString.prefix(8)
        let target = URL(fileURLWithPath: folder).appendingPathComponent("wrong-\(name)")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: copy, toPath: target.appendingPathComponent("copy.realm").path)
        try FileManager.default.copyItem(atPath: original, toPath: target.appendingPathComponent("original.realm").path)
        try what.write(to: target.appendingPathComponent("what.txt"), atomically: true, encoding: .utf8)
    }

    // MARK: The campaign

    @Test(arguments: [false, true]) func damagedCopiesReadBackOrStopNamingTheDamage(encrypted: Bool) async throws {
        let original = directory.file("original.realm").path
        try writeOriginal(original, encrypted: encrypted)
        let expected = try Self.readBack(Self.configuration(original, encrypted: encrypted)).joined(separator: " ")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: original))
        var generator = SplitMix64(seed: Self.seed &+ (encrypted ? 1 << 32 : 0))
        var counts: [Outcome: Int] = [:]
        var wrongReads: [String: Int] = [:]
        var verifications: [VerifyOutcome: Int] = [:]
        var missedByVerify = 0
        for index in 0..<Self.copies {
            let damage = Damage.pick(index)
            let copy = directory.file("copy-\(index).realm").path
            let (copied, changed) = Self.damaged(bytes, damage, &generator)
            try copied.write(to: URL(fileURLWithPath: copy))
            let result = await #expect(processExitsWith: .failure, observing: [\.standardOutputContent, \.standardErrorContent]) {
                [copy = copy as String, key = (encrypted ? Self.key : nil) as Data?] in
                FaultReporter.install()
                do {
                    let configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: copy), encryptionKey: key,
                                                            objectTypes: [CampaignOwner.self, CampaignPet.self, CampaignVisit.self])
                    print("outcome: read \(try DamageCampaignTests.readBack(configuration).joined(separator: " "))")
                } catch let error as Realm.Error {
                    print("outcome: threw \(error.code == .invalidDatabase ? "invalidDatabase" : "\(error)")")
                }
                // Every read ends in failure, so that one condition observes them all.
                exit(1)
            }
            let (outcome, detail) = Self.outcome(result, expected: expected)
            counts[outcome, default: 0] += 1
            // The check of a file not trusted, in its own process: it may stop only in LMDB's code.
            let verification = await #expect(processExitsWith: .failure, observing: [\.standardOutputContent, \.standardErrorContent]) {
                [copy = copy as String, key = (encrypted ? Self.key : nil) as Data?] in
                FaultReporter.install()
                do {
                    let report = try Realm.verifyFile(at: URL(fileURLWithPath: copy), encryptionKey: key)
                    print("verify: \(report.isIntact ? "intact" : "damaged")")
                } catch let error as Realm.Error {
                    print("verify: threw \(error.code == .invalidDatabase ? "invalidDatabase" : "\(error)")")
                }
                exit(1)
            }
            let verified = VerifyOutcome(verification)
            verifications[verified, default: 0] += 1
            let verifyErrors = verification.map {
                String(String(decoding: $0.standardOutputContent + $0.standardErrorContent, as: UTF8.self).prefix(3_000))
            } ?? ""
            #expect(!verified.isFailure, "copy \(index) (\(damage)): verifyFile \(verified.rawValue): \(verifyErrors)")
            if outcome == .wrongData && verified == .intact { missedByVerify += 1 }
            if outcome == .wrongData {
                let what = "\(detail) wrong, damage in \(Self.structures(at: changed, in: bytes))"
                wrongReads[what, default: 0] += 1
            }
            if outcome == .wrongData || outcome.isFailure || verified.isFailure, let folder = Self.keptCopies {
                let what = "\(outcome.rawValue) \(detail); verifyFile \(verified.rawValue); damage in \(Self.structures(at: changed, in: bytes)), bytes \(changed)"
                try Self.keep(copy, original: original, what: what, in: folder)
            }
            #expect(!outcome.isFailure, "copy \(index) (\(damage)): \(outcome.rawValue): \(detail)")
            if !outcome.isFailure {
                try? FileManager.default.removeItem(atPath: copy)
                unlink(copy + "-lock")
            }
        }
        print("damage campaign, \(encrypted ? "encrypted" : "plain") file of 5,000 objects, \(Self.copies) copies (seed \(Self.seed)):")
        for outcome in Outcome.allCases where counts[outcome] != nil {
            print(String(format: "%6d ", counts[outcome]!) + outcome.rawValue)
        }
        for (what, count) in wrongReads.sorted(by: { $0.value > $1.value }) {
            print(String(format: "%6d ", count) + "  of which: " + what)
        }
        print("Realm.verifyFile on the same copies:")
        for outcome in VerifyOutcome.allCases where verifications[outcome] != nil {
            print(String(format: "%6d ", verifications[outcome]!) + outcome.rawValue)
        }
        print(String(format: "%6d ", missedByVerify) + "copies read wrong without an error that verifyFile found intact")
    }
}
