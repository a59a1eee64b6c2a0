import Baselines
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs the workload on Burrow, raw LMDB and SQLite in one process, with the same N and the
/// same folder, and prints the three side by side.
///
///     BurrowBench 1000000 /tmp/bench
///
/// Progress goes to standard error as each step ends; the tables go to standard output. The
/// exit status is 1 when the engines' check values differ (they did not do the same work).
@main
enum BenchmarkCommand {
    static func main() {
        var status: Int32 = 0
        let arguments = CommandLine.arguments
        if arguments.count == 4, arguments[1] == NotificationStep.writerFlag, let commits = Int(arguments[3]) {
            runChild { try NotificationStep.runWriter(path: arguments[2], commits: commits) }
        }
        if arguments.count == 4, arguments[1] == NotificationInstructions.childFlag, let count = Int(arguments[2]) {
            runChild { try NotificationInstructions.runChild(count: count, directory: URL(fileURLWithPath: arguments[3])) }
        }
        if arguments.count > 1, arguments[1] == PeakMemoryRun.childFlag {
            runChild { try PeakMemoryRun.runChild(Array(arguments.dropFirst(2))) }
        }
        if arguments.count > 1, arguments[1] == SyncLatencyRun.clientFlag {
            runChild { try SyncLatencyRun.runClient(Array(arguments.dropFirst(2))) }
        }
        do {
            let options = try BenchmarkOptions(arguments: Array(CommandLine.arguments.dropFirst()))
            if options.wantsHelp {
                print(BenchmarkOptions.usage)
                exit(0)
            }
            let workspace = try Workspace(directory: options.directory)
            defer { workspace.cleanUp() }
            let agree: Bool
            if let gigabytes = options.fileGrowthGigabytes {
                let growth = try FileGrowthRun.measure(gigabytes: gigabytes, in: workspace.directory)
                print(FileGrowthRun.summary(growth))
                agree = growth.bytesRead == growth.bytesWritten
            } else if let scale = options.scale {
                for line in try ScaleRun.measure(server: scale.server, replica: scale.replica, serverData: scale.serverData,
                                                 replicaData: scale.replicaData, in: workspace.directory) {
                    print(line)
                }
                agree = true
            } else if let server = options.syncServer {
                let measurement = try SyncStep.measure(count: options.objectCount, server: server, in: workspace.directory)
                print(SyncStep.summary(measurement))
                print(SyncLatencyRun.summary(try SyncLatencyRun.measure(server: server, in: workspace.directory)))
                agree = measurement.serverRows == options.objectCount && measurement.downloadedObjects == options.objectCount
            } else if options.notificationsOnly {
                print(NotificationStep.summary(try NotificationStep.measure(count: options.objectCount, in: workspace.directory),
                                               count: options.objectCount))
                print(NotificationInstructions.summary(try NotificationInstructions.measure(count: min(options.objectCount, NotificationInstructions.countedObjects),
                                                                                            in: workspace.directory)))
                print(SectionedNotificationStep.summary(try SectionedNotificationStep.measure(count: options.objectCount, in: workspace.directory),
                                                        count: options.objectCount))
                agree = true
            } else if options.sectionsOnly {
                print(SectionedNotificationStep.summary(try SectionedNotificationStep.measure(count: options.objectCount, in: workspace.directory),
                                                        count: options.objectCount))
                agree = true
            } else if let profile = options.profile {
                // Under callgrind, each repeat is a profile part of its own.
                let counted = instructions_counted() != 0
                let workload = try BurrowWorkload(count: options.objectCount, directory: workspace.directory,
                                                  encryptionKey: options.profileEncrypted ? BurrowWorkload.benchmarkKey : nil,
                                                  queryForm: options.profilePredicate ? .foundationPredicate : .string,
                                                  maximumFileSize: counted ? 1 << 31 : nil)
                if profile.step != .insert { _ = try workload.run(.insert) }
                for round in 0..<profile.repeats {
                    // Each insert after the first stores the same keys again: the objects of the
                    // one before are deleted first, untimed.
                    if profile.step == .insert && round > 0 { _ = try workload.run(.deleteAll) }
                    if counted { instructions_restart() }
                    let measurement = try workload.run(profile.step)
                    if counted { instructions_dump(profile.step.title) }
                    print("\(profile.step.title): \(String(format: "%.4f", measurement.seconds)) s (check \(measurement.check))")
                }
                if options.profilePredicate && profile.step == .indexEquality {
                    print("building the predicates alone: \(String(format: "%.4f", PredicateFloor.measure(rounds: profile.repeats))) s")
                }
                agree = true
            } else if options.peakMemoryOnly {
                print(PeakMemoryRun.summary(try PeakMemoryRun.measure(count: options.objectCount, in: workspace.directory),
                                            count: options.objectCount))
                agree = true
            } else if options.groupCommitOnly {
                let measurement = try GroupCommitStep.measure(trials: options.rounds, in: workspace.directory)
                print(GroupCommitStep.summary(measurement))
                agree = measurement.allStored
            } else if options.concurrentReadsOnly {
                agree = try runConcurrentReads(options.objectCount, rounds: options.rounds, in: workspace.directory)
            } else {
                agree = try run(options.objectCount, rounds: options.rounds, in: workspace.directory)
            }
            if !agree { status = 1 }
        } catch {
            report("\(error)")
            status = 2
        }
        exit(status)
    }

    /// Runs the three engines one after the other, `rounds` times on fresh files, and prints
    /// the tables with each step's best time; returns whether their check values agree.
    private static func run(_ count: Int, rounds: Int, in directory: URL) throws -> Bool {
        report("N = \(count), \(rounds) round(s), files in \(directory.path)")
        var burrow = EngineResults(engine: "Burrow")
        var lmdb = EngineResults(engine: "LMDB")
        var sqlite = EngineResults(engine: "SQLite")
        var encrypted = EngineResults(engine: "Encrypted")
        var unchecked = EngineResults(engine: "Unchecked")
        var predicate = EngineResults(engine: "#Predicate")
        var floors = DesignFloors()
        for round in 1...rounds {
            let folder = directory.appendingPathComponent("round-\(round)", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            burrow.keepBest(of: try measure(BurrowWorkload(count: count, directory: folder)))
            lmdb.keepBest(of: try measure(BaselineWorkload(.lmdb, count: count, directory: folder)))
            sqlite.keepBest(of: try measure(BaselineWorkload(.sqlite, count: count, directory: folder)))
            encrypted.keepBest(of: try measure(BurrowWorkload(count: count, directory: folder, encryptionKey: BurrowWorkload.benchmarkKey)))
            unchecked.keepBest(of: try measure(BurrowWorkload(count: count, directory: folder, rowChecksums: false)))
            // The steps before the query steps are Burrow's own, so that both query on a file
            // equally warm (a scan right after the insert maps its pages for the first time).
            predicate.keepBest(of: try measure(BurrowWorkload(count: count, directory: folder, queryForm: .foundationPredicate),
                                               steps: [.insert, .openAndCount, .randomGet, .scanFilter, .indexEquality]))
            floors.measureRound(count: count, in: folder)
            try FileManager.default.removeItem(at: folder)
        }
        report("Burrow list appends")
        let lists = try ListAppend.measure(in: directory, rounds: rounds)
        report("Compaction")
        let compaction = try CompactionStep.measure(count: count, in: directory)
        report("Concurrent reads")
        let concurrent = try ConcurrentReadsStep.measure(count: count, trials: max(rounds, 3), in: directory)
        report("Group commit")
        let groupCommit = try GroupCommitStep.measure(trials: max(rounds, 3), in: directory)
        report("Peak memory")
        let memory = try PeakMemoryRun.measure(count: count, in: directory)
        report("Notifications")
        let notifications = try NotificationStep.measure(count: count, in: directory)
        let notificationInstructions = try NotificationInstructions.measure(count: min(count, NotificationInstructions.countedObjects), in: directory)
        let sectionedNotifications = try SectionedNotificationStep.measure(count: count, in: directory)
        let table = ResultTable(burrow: burrow, lmdb: lmdb, sqlite: sqlite)
        print("Burrow vs raw LMDB (C) vs SQLite (C, WAL, synchronous=NORMAL), N = \(count), best of \(rounds) round(s)")
        print("")
        print(table.timings)
        print("")
        print(table.checks)
        print("")
        print("The cost of encryption: the same steps on an encrypted file (XChaCha20-Poly1305 values, hashed index keys)")
        print(VariantCostTable(plain: burrow, variant: encrypted, lmdb: lmdb).timings)
        print(floors.encryptionSummary(count: count, encrypted: encrypted))
        print("")
        print("The cost of row checksums: the same steps on a file of the format before them (Unchecked; its rows have no CRC-32C)")
        print(VariantCostTable(plain: unchecked, variant: burrow, lmdb: lmdb).timings)
        print(floors.checksumSummary(count: count, checked: burrow, unchecked: unchecked))
        print("")
        print("The query steps written with Foundation's #Predicate instead of the string form, after the same steps before them (the others are not run)")
        print(VariantCostTable(plain: burrow, variant: predicate, lmdb: lmdb).timings)
        print(PredicateFloor.summary(floor: PredicateFloor.measure(rounds: rounds), string: burrow[.indexEquality]?.seconds,
                                     predicate: predicate[.indexEquality]?.seconds))
        print("")
        print("What Burrow's design cannot go below, from the same run:")
        print(floors.summary(count: count, lmdb: lmdb, sqlite: sqlite))
        print("")
        print(String(format: "Burrow list append: %.2f µs on a list of %d, %.2f µs on an empty list: %.2fx",
                     lists.long * 1e6, ListAppend.longLength, lists.empty * 1e6, lists.long / lists.empty))
        print(CompactionStep.summary(compaction, count: count))
        print(PeakMemoryRun.summary(memory, count: count))
        print(ConcurrentReadsStep.summary(concurrent))
        print(GroupCommitStep.summary(groupCommit))
        print(NotificationStep.summary(notifications, count: count))
        print(NotificationInstructions.summary(notificationInstructions))
        print(SectionedNotificationStep.summary(sectionedNotifications, count: count))
        let encryptedAgrees = Step.allCases.allSatisfy { encrypted[$0]?.check == burrow[$0]?.check && unchecked[$0]?.check == burrow[$0]?.check }
        guard table.checksAgree, concurrent.sumsAgree, groupCommit.allStored, encryptedAgrees else {
            print("")
            print("The engines' check values differ: they did not do the same work.")
            return false
        }
        return true
    }

    /// Runs only the concurrent-reads step, with `rounds` trials of each engine, and prints
    /// it; returns whether the engines' sums agreed.
    private static func runConcurrentReads(_ count: Int, rounds: Int, in directory: URL) throws -> Bool {
        let measurement = try ConcurrentReadsStep.measure(count: count, trials: rounds, in: directory)
        print(ConcurrentReadsStep.summary(measurement))
        return measurement.sumsAgree
    }

    /// Runs every step of `workload` in order and releases it (closing its files).
    private static func measure(_ workload: some EngineWorkload, steps: [Step] = Step.allCases) throws -> EngineResults {
        var results = EngineResults(engine: workload.engine)
        for step in steps {
            let measurement = try workload.run(step)
            results[step] = measurement
            report("\(workload.engine) \(step.title): \(String(format: "%.4f", measurement.seconds)) s"
                   + " (\(step.checkMeaning): \(measurement.check))")
        }
        return results
    }

    /// Runs the work of a child process the benchmark started, and exits: 0 when it is done,
    /// 2 (after saying why) when it threw.
    private static func runChild(_ body: () throws -> Void) -> Never {
        do {
            try body()
            exit(0)
        } catch {
            report("\(error)")
            exit(2)
        }
    }

    /// Writes a line to standard error.
    private static func report(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
