import Foundation

/// The command line: `BurrowBench [N] [directory]`.
struct BenchmarkOptions {
    /// Objects in the workload (N).
    var objectCount = Workload.defaultObjectCount
    /// Where the engines put their files; `nil` for a fresh temporary folder.
    var directory: URL?
    /// How many times the whole workload runs; each step reports its best time.
    var rounds = 3

    static let usage = """
        usage: BurrowBench [--rounds R] [--concurrent-reads | --group-commit | --notifications | --sections | --peak-memory] [N] [directory]
               BurrowBench --profile STEP REPEATS [--encrypted | --predicate] [N] [directory]
               BurrowBench --file-growth GIB [directory]

          --rounds R  run the whole workload R times (default 3), fresh files each time, and
                      report each step's best time: this machine's timings are noisy
          --concurrent-reads
                      run only the concurrent-reads step (R trials of each engine)
          --group-commit
                      run only the group-commit step (R trials of each engine)
          --notifications
                      run only the notifications step
          --sections  run only the sectioned-results notification step
          --peak-memory
                      run only the peak-memory step: each engine runs every step in a
                      process of its own, which reports its high-water mark (VmHWM)
          --profile STEP REPEATS
                      insert N objects into a Burrow file, then run only STEP (insert,
                      randomGet, scanFilter, indexEquality, sortedPage, readAll, updateAll) REPEATS
                      times, printing each time: for profilers, whose samples it dominates
                      (an insert after the first deletes the objects first, untimed)
          --predicate with --profile: the query steps written with #Predicate
          --encrypted with --profile: an encrypted file. Under valgrind --tool=callgrind,
                      each repeat is dumped as a profile part of its own
          --sync CONNECTION
                      run only the sync step against the PostgreSQL server CONNECTION
                      (a libpq connection string; Scripts/bench.sh --sync starts one)
          --scale SERVER REPLICA SERVER_DATA REPLICA_DATA
                      run only the scale run: 1, 4 and 16 client processes uploading to SERVER
                      and downloading from its streaming replica REPLICA (connection strings;
                      the data directories are read for the servers' CPU time;
                      Scripts/bench.sh --scale starts both)
          --file-growth GIB
                      write GIB GiB into one realm with the default configuration, then
                      reopen it and read every value back

          N          objects in the workload (default \(Workload.defaultObjectCount)); 1_000_000 and
                     1,000,000 are accepted
          directory  where the files go (created if missing, kept afterwards); by default a
                     fresh temporary folder, removed at the end
        """

    /// Whether only the concurrent-reads step runs (to profile it).
    var concurrentReadsOnly = false
    /// Whether only the group-commit step runs.
    var groupCommitOnly = false
    /// Whether only the notifications step runs.
    var notificationsOnly = false
    /// Whether only the sectioned-results notification step runs.
    var sectionsOnly = false
    /// Whether only the peak-memory step runs (``PeakMemoryRun``).
    var peakMemoryOnly = false
    /// The one Burrow step to repeat, and how many times (`--profile`).
    var profile: (step: Step, repeats: Int)?
    /// Whether the profiled file is encrypted.
    var profileEncrypted = false
    /// Whether the profiled queries are written with `#Predicate`.
    var profilePredicate = false
    /// GiB to write in the file-growth run instead of the workload.
    var fileGrowthGigabytes: Int?
    var syncServer: String?
    /// The scale run's server, replica, and their data directories.
    var scale: (server: String, replica: String, serverData: String, replicaData: String)?

    /// Whether the usage was asked for (`-h`, `--help`) instead of a run.
    var wantsHelp = false

    /// Parses `arguments` (without the program name).
    ///
    /// - Throws: ``BenchmarkError`` with the usage for anything else.
    init(arguments: [String]) throws {
        var remaining = arguments
        if let flag = remaining.firstIndex(of: "--rounds") {
            guard flag + 1 < remaining.count, let rounds = Int(remaining[flag + 1]), rounds > 0 else {
                throw BenchmarkError("--rounds needs a positive integer.\n\n" + Self.usage)
            }
            self.rounds = rounds
            remaining.removeSubrange(flag...(flag + 1))
        }
        if let flag = remaining.firstIndex(of: "--file-growth") {
            guard flag + 1 < remaining.count, let gigabytes = Int(remaining[flag + 1]), gigabytes > 0 else {
                throw BenchmarkError("--file-growth needs a positive number of GiB.\n\n" + Self.usage)
            }
            fileGrowthGigabytes = gigabytes
            remaining.removeSubrange(flag...(flag + 1))
        }
        if let flag = remaining.firstIndex(of: "--sync") {
            guard flag + 1 < remaining.count else { throw BenchmarkError("--sync needs a connection string.\n\n" + Self.usage) }
            syncServer = remaining[flag + 1]
            remaining.removeSubrange(flag...(flag + 1))
        }
        if let flag = remaining.firstIndex(of: "--scale") {
            guard flag + 4 < remaining.count else { throw BenchmarkError("--scale needs two connection strings and two data directories.\n\n" + Self.usage) }
            scale = (remaining[flag + 1], remaining[flag + 2], remaining[flag + 3], remaining[flag + 4])
            remaining.removeSubrange(flag...(flag + 4))
        }
        if let flag = remaining.firstIndex(of: "--profile") {
            guard flag + 2 < remaining.count, let step = Step.allCases.first(where: { "\($0)" == remaining[flag + 1] }),
                  let repeats = Int(remaining[flag + 2]), repeats > 0 else {
                throw BenchmarkError("--profile needs a step name and a positive number of repeats.\n\n" + Self.usage)
            }
            profile = (step, repeats)
            remaining.removeSubrange(flag...(flag + 2))
        }
        if let flag = remaining.firstIndex(of: "--encrypted") {
            profileEncrypted = true
            remaining.remove(at: flag)
        }
        if let flag = remaining.firstIndex(of: "--predicate") {
            profilePredicate = true
            remaining.remove(at: flag)
        }
        if let flag = remaining.firstIndex(of: "--concurrent-reads") {
            concurrentReadsOnly = true
            remaining.remove(at: flag)
        }
        if let flag = remaining.firstIndex(of: "--group-commit") {
            groupCommitOnly = true
            remaining.remove(at: flag)
        }
        if let flag = remaining.firstIndex(of: "--notifications") {
            notificationsOnly = true
            remaining.remove(at: flag)
        }
        if let flag = remaining.firstIndex(of: "--sections") {
            sectionsOnly = true
            remaining.remove(at: flag)
        }
        if let flag = remaining.firstIndex(of: "--peak-memory") {
            peakMemoryOnly = true
            remaining.remove(at: flag)
        }
        var positional = remaining[...]
        if let first = positional.first, ["-h", "--help"].contains(first) {
            wantsHelp = true
            return
        }
        // The file-growth run takes no N: its one positional argument is the folder.
        if fileGrowthGigabytes == nil, let text = positional.popFirst() {
            let digits = text.filter { $0 != "_" && $0 != "," }
            guard let count = Int(digits), count > 0 else {
                throw BenchmarkError("N must be a positive integer, not '\(text)'.\n\n" + Self.usage)
            }
            objectCount = count
        }
        if let path = positional.popFirst() {
            directory = URL(fileURLWithPath: path, isDirectory: true)
        }
        guard positional.isEmpty else {
            throw BenchmarkError("Unexpected argument '\(positional.first!)'.\n\n" + Self.usage)
        }
    }
}
