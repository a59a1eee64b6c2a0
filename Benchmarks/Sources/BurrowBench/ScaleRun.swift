import Foundation

/// The scale run: 1, 4 and 16 client processes over one PostgreSQL server and one streaming
/// replica (uploads to the server, downloads from the replica), each committing small writes
/// at a steady rate, and one more process that only watches. For each: the commits per second
/// the server absorbed, the CPU the two servers spent, and the time from a commit in one
/// process to the notification in another (p50/p99).
enum ScaleRun {
    static let clientCounts = [1, 4, 16]
    static let commitsPerSecond = 20
    static let seconds = 10

    /// The CPU seconds a server's processes have used: the postmaster, the children it
    /// reaped, and those alive, found from the postmaster's pid in `dataDirectory`.
    static func cpuSeconds(dataDirectory: String) throws -> Double {
        guard let text = try? String(contentsOfFile: dataDirectory + "/postmaster.pid", encoding: .utf8),
              let postmaster = text.split(separator: "\n").first.flatMap({ Int($0) }) else {
            throw BenchmarkError("no postmaster.pid in \(dataDirectory)")
        }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        var total = 0.0
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int(entry), let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            // After the command's closing parenthesis: state, ppid, …, utime (14), stime, cutime, cstime.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 15, let parent = Int(fields[1]) else { continue }
            if pid == postmaster {
                total += fields[11...14].compactMap { Double($0) }.reduce(0, +)
            } else if parent == postmaster {
                total += fields[11...12].compactMap { Double($0) }.reduce(0, +)
            }
        }
        return total / ticks
    }

    /// Runs each client count and returns the lines of the report.
    static func measure(server: String, replica: String, serverData: String, replicaData: String, in directory: URL) throws -> [String] {
        var lines = ["Scale: N clients at \(commitsPerSecond) commits/s each for \(seconds) s and one watcher, uploading to the server and downloading from its replica (this machine: \(ProcessInfo.processInfo.activeProcessorCount) cores)"]
        for count in clientCounts {
            let before = (try cpuSeconds(dataDirectory: serverData), try cpuSeconds(dataDirectory: replicaData))
            let began = NotificationStep.now()
            let run = try SyncLatencyRun.run(server: server, readServer: replica, writers: count, observers: 1,
                                             rate: commitsPerSecond, seconds: seconds, in: directory)
            let wall = NotificationStep.now() - began
            let after = (try cpuSeconds(dataDirectory: serverData), try cpuSeconds(dataDirectory: replicaData))
            let commits = count * commitsPerSecond * seconds
            let absorbed = Double(commits) / max(run.uploadedAfter, 0.001)
            let primaryCPU = after.0 - before.0, replicaCPU = after.1 - before.1
            lines.append(String(format: "  %2d clients: %5d commits, %6.1f commits/s absorbed; server CPU %.2f s (%.2f cores), replica CPU %.2f s (%.2f cores) over %.1f s; commit to notification in another process: ",
                                count, commits, absorbed, primaryCPU, primaryCPU / wall, replicaCPU, replicaCPU / wall, wall)
                         + SyncStep.percentiles(run.latencies) + " over \(run.latencies.count) notifications")
        }
        return lines
    }
}
