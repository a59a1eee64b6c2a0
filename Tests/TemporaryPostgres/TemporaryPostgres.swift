import Foundation
import PostgreSQL

/// A throwaway PostgreSQL server for tests: `initdb` into a temporary folder, listening on a
/// Unix socket there and on a free loopback port, run as a non-root user (PostgreSQL refuses
/// root), stopped and deleted by ``stop()``.
///
/// ```swift
/// let server = try TemporaryPostgres.start()
/// defer { server.stop() }
/// let connection = try PostgresConnection(server.connectionString)
/// ```
public final class TemporaryPostgres: @unchecked Sendable {
    /// The folder of PostgreSQL's programs, or why there is none.
    public static let binaries: Result<URL, Unavailable> = findBinaries()

    /// Why no server can run here.
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    /// Whether a server can run here; when not, ``unavailableReason`` says why.
    public static var isAvailable: Bool { (try? binaries.get()) != nil }
    /// Why no server can run here, or `nil`.
    public static var unavailableReason: String? {
        if case .failure(let reason) = binaries { reason.description } else { nil }
    }

    /// The folder holding the data directory, the socket and the log.
    public let folder: URL
    /// The loopback TCP port it listens on.
    public private(set) var port: Int
    /// The superuser role, which connects without a password over the socket.
    public let superuser = "burrow"
    /// The database tests use.
    public let database = "burrow_test"
    /// The superuser's password, for connections over TCP.
    public let superuserPassword = "unused"
    /// The network namespace it runs in, when not the test's own.
    public let networkNamespace: String?
    private let bin: URL
    private let runAs: String?

    /// A libpq connection string for the superuser over the Unix socket.
    public var connectionString: String { connectionString(database: database) }

    /// A connection string for `user` (with `password`, when given) to `database`, over TCP
    /// when a password is given (where the server asks for it), else over the socket.
    public func connectionString(user: String? = nil, password: String? = nil, database: String? = nil) -> String {
        let host = password == nil ? folder.path : "127.0.0.1"
        var parts = ["host=\(host)", "port=\(port)", "user=\(user ?? superuser)", "dbname=\(database ?? self.database)"]
        if let password { parts.append("password=\(password)") }
        return parts.joined(separator: " ")
    }

    private init(folder: URL, port: Int, bin: URL, runAs: String?, networkNamespace: String? = nil) {
        self.folder = folder
        self.port = port
        self.bin = bin
        self.runAs = runAs
        self.networkNamespace = networkNamespace
    }

    /// Creates and starts a server with a database ``database``; in `networkNamespace`, when
    /// given, listening on all of its addresses (with the superuser's password) as well as on
    /// its socket, which the test reaches from any namespace.
    ///
    /// - Throws: ``Unavailable`` when PostgreSQL is not installed or does not start.
    public static func start(networkNamespace: String? = nil) throws -> TemporaryPostgres {
        let bin = try binaries.get()
        let folder = URL(fileURLWithPath: "/tmp").appendingPathComponent("burrow-pg-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let runAs = getuid() == 0 ? try unprivilegedUser() : nil
        if let runAs { try run("/bin/chown", ["-R", runAs, folder.path]) }
        let server = TemporaryPostgres(folder: folder, port: freePort(), bin: bin, runAs: runAs, networkNamespace: networkNamespace)
        do {
            try server.initialize()
            try server.startServerOnAFreePort()
            let connection = try PostgresConnection(server.connectionString(database: "postgres"))
            try connection.execute("CREATE DATABASE \(server.database)")
        } catch {
            server.stop()
            throw Unavailable(description: "PostgreSQL did not start: \(error)")
        }
        return server
    }

    /// Starts a streaming replica of this server (a hot standby made with `pg_basebackup`),
    /// in a folder and on a port of its own; stop it with ``stop()``.
    ///
    /// - Throws: ``Unavailable`` when it does not start.
    public func startReplica() throws -> TemporaryPostgres {
        let replicaFolder = URL(fileURLWithPath: "/tmp").appendingPathComponent("burrow-pg-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: replicaFolder, withIntermediateDirectories: true)
        if let runAs { try Self.run("/bin/chown", ["-R", runAs, replicaFolder.path]) }
        let replica = TemporaryPostgres(folder: replicaFolder, port: Self.freePort(), bin: bin, runAs: runAs)
        do {
            try runServerTool("pg_basebackup", ["-h", folder.path, "-p", "\(port)", "-U", superuser, "-D", replica.data,
                                                "-R", "-X", "stream", "-c", "fast", "--no-sync"])
            try replica.appendSettings(["port = \(replica.port)", "unix_socket_directories = '\(replicaFolder.path)'",
                                        "hot_standby = on"])
            try replica.startServerOnAFreePort()
        } catch {
            replica.stop()
            throw Unavailable(description: "the replica did not start: \(error)")
        }
        return replica
    }

    /// Appends `lines` to the server's `postgresql.conf`; they apply at its next start.
    public func appendSettings(_ lines: [String]) throws {
        let conf = URL(fileURLWithPath: data).appendingPathComponent("postgresql.conf")
        let handle = try FileHandle(forWritingTo: conf)
        handle.seekToEndOfFile()
        handle.write(("\n" + lines.joined(separator: "\n") + "\n").data(using: .utf8)!)
        try handle.close()
    }

    private var data: String { folder.appendingPathComponent("data").path }
    private var log: String { folder.appendingPathComponent("server.log").path }

    private func initialize() throws {
        let passwordFile = folder.appendingPathComponent("superuser-password")
        try "unused\n".write(to: passwordFile, atomically: true, encoding: .utf8)
        if let runAs { try Self.run("/bin/chown", [runAs, passwordFile.path]) }
        try runServerTool("initdb", ["-D", data, "-U", superuser, "--pwfile", passwordFile.path,
                                     "--auth-local=trust", "--auth-host=scram-sha-256", "-E", "UTF8",
                                     "--locale=C", "--no-sync"])
        try appendSettings(["listen_addresses = '\(networkNamespace == nil ? "127.0.0.1" : "*")'", "port = \(port)",
                            "unix_socket_directories = '\(folder.path)'",
                            "fsync = off", "full_page_writes = off", "max_connections = 100", "log_min_messages = warning"])
        if networkNamespace != nil {
            let hba = URL(fileURLWithPath: data).appendingPathComponent("pg_hba.conf")
            let handle = try FileHandle(forWritingTo: hba)
            handle.seekToEndOfFile()
            handle.write("\nhost all all 0.0.0.0/0 scram-sha-256\n".data(using: .utf8)!)
            try handle.close()
        }
    }

    private func startServer() throws {
        try runServerTool("pg_ctl", ["-D", data, "-l", log, "-w", "-t", "60", "start"])
    }

    /// Starts a new server, moving it to another free port when the one chosen was taken
    /// meanwhile: a port found free is not held, and until the server binds it another
    /// server, or a connection's own end, may take it first.
    private func startServerOnAFreePort() throws {
        for attempt in 1... {
            do {
                return try startServer()
            } catch where attempt < 5 && ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("Address already in use") {
                try FileManager.default.removeItem(atPath: log)
                port = Self.freePort()
                try appendSettings(["port = \(port)"])
            }
        }
    }

    /// Stops the server at once, as a crash or a power cut would (`immediate` shutdown), and
    /// starts it again on the same folder and port.
    ///
    /// - Throws: ``Unavailable`` when it does not come back.
    public func restart(immediately: Bool = true) throws {
        try runServerTool("pg_ctl", ["-D", data, "-m", immediately ? "immediate" : "fast", "-w", "stop"])
        try startServer()
    }

    /// Stops the server, leaving it down until ``resume()``.
    public func pause() throws {
        try runServerTool("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"])
    }

    /// Starts a server stopped by ``pause()``.
    public func resume() throws {
        try startServer()
    }

    /// The server's process id, from its pid file.
    public var processID: Int32? {
        guard let text = try? String(contentsOfFile: data + "/postmaster.pid", encoding: .utf8),
              let first = text.split(separator: "\n").first else { return nil }
        return Int32(first)
    }

    /// Stops the server and deletes its folder.
    public func stop() {
        _ = try? runServerTool("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"])
        try? FileManager.default.removeItem(at: folder)
    }

    /// A role `name` that logs in with `password` over TCP.
    public func createRole(_ name: String, password: String) throws {
        let connection = try PostgresConnection(connectionString)
        try connection.execute("CREATE ROLE \(PostgresConnection.quoted(name)) LOGIN PASSWORD \(PostgresConnection.literal(password))")
        try connection.execute("GRANT ALL ON DATABASE \(database) TO \(PostgresConnection.quoted(name))")
        try connection.execute("GRANT ALL ON SCHEMA public TO \(PostgresConnection.quoted(name))")
    }

    private func runServerTool(_ tool: String, _ arguments: [String]) throws {
        var command = [bin.appendingPathComponent(tool).path] + arguments
        if let runAs { command = ["/usr/sbin/runuser", "-u", runAs, "--"] + command }
        if let networkNamespace { command = ["/usr/sbin/ip", "netns", "exec", networkNamespace] + command }
        try Self.run(command[0], Array(command.dropFirst()))
    }

    /// Runs `executable` and waits for it; its output goes to a file rather than a pipe, and it
    /// inherits no other descriptor, since a server that pg_ctl starts keeps what it inherits
    /// long after the tool exits.
    /// Spawned directly and reaped with `waitpid`: `Process` waits forever on a tool whose
    /// grandchild outlives it.
    @discardableResult
    private static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let outputPath = NSTemporaryDirectory() + "burrow-pg-tool-\(UUID().uuidString)"
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Nothing else of this process's: the server pg_ctl starts would hold other tests'
        // pipes open for its whole life, and their readers would never see the end.
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for descriptor in open.compactMap(Int32.init) where descriptor > 2 && fcntl(descriptor, F_GETFD) >= 0 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw Unavailable(description: "cannot run \(executable): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        // Exited normally with status 0.
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            throw Unavailable(description: "\(executable) \(arguments.joined(separator: " ")) failed: \(text)")
        }
        return text
    }

    private static func findBinaries() -> Result<URL, Unavailable> {
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? [])
            .compactMap(Int.init).sorted()
        for version in versions.reversed() {
            let bin = root.appendingPathComponent("\(version)/bin")
            if FileManager.default.isExecutableFile(atPath: bin.appendingPathComponent("initdb").path) { return .success(bin) }
        }
        return .failure(Unavailable(description: "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb); install the Debian package postgresql"))
    }

    private static func unprivilegedUser() throws -> String {
        for user in ["postgres", "nobody"] where getpwnam(user) != nil { return user }
        throw Unavailable(description: "running as root and no unprivileged user (postgres, nobody) to run PostgreSQL as")
    }

    /// A loopback port nothing listens on now.
    private static func freePort() -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
