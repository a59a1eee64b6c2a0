import Foundation

/// Machines apart, made of Linux network namespaces: a server namespace, and a namespace per
/// client joined to it by a veth pair of its own, so that cutting one client's link is a
/// partition between that client and the server. Traffic stays inside these namespaces, on
/// addresses `10.77.<client>.0/24`. Needs root; ``unavailableReason`` says why not otherwise.
final class NetworkNamespaces: Sendable {
    /// The server's namespace.
    let server: String
    /// Each client's namespace.
    let clients: [String]
    private let suffix: String

    /// Why namespaces cannot be made here, or `nil`.
    static let unavailableReason: String? = {
        guard getuid() == 0 else { return "network namespaces need root" }
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/ip") else { return "the ip tool (Debian's iproute2) is not installed" }
        let probe = "burrow-probe-\(getpid())"
        do {
            try run(["netns", "add", probe])
            try run(["netns", "del", probe])
            return nil
        } catch {
            return "network namespaces cannot be made here: \(error)"
        }
    }()

    /// A server namespace and `count` client namespaces, each linked to the server's.
    ///
    /// - Throws: ``Failure`` when `ip` fails.
    init(clients count: Int) throws {
        let suffix = String(UUID().uuidString.prefix(6)).lowercased()
        self.suffix = suffix
        server = "bsrv-\(suffix)"
        clients = (0..<count).map { "bc\($0)-\(suffix)" }
        try Self.run(["netns", "add", server])
        try Self.run(["-n", server, "link", "set", "lo", "up"])
        for (index, client) in clients.enumerated() {
            try Self.run(["netns", "add", client])
            try Self.run(["-n", client, "link", "set", "lo", "up"])
            let clientSide = "vc\(index)\(suffix)", serverSide = "vs\(index)\(suffix)"
            try Self.run(["link", "add", clientSide, "netns", client, "type", "veth", "peer", "name", serverSide, "netns", server])
            try Self.run(["-n", client, "addr", "add", "\(clientAddress(index))/24", "dev", clientSide])
            try Self.run(["-n", server, "addr", "add", "\(serverAddress(index))/24", "dev", serverSide])
            try Self.run(["-n", client, "link", "set", clientSide, "up"])
            try Self.run(["-n", server, "link", "set", serverSide, "up"])
        }
    }

    deinit {
        for namespace in clients + [server] { try? Self.run(["netns", "del", namespace]) }
    }

    /// The server's address on client `index`'s link.
    func serverAddress(_ index: Int) -> String { "10.77.\(index + 1).1" }

    /// Client `index`'s address.
    func clientAddress(_ index: Int) -> String { "10.77.\(index + 1).2" }

    /// Cuts (`up: false`) or heals the link between client `index` and the server.
    func setLink(of index: Int, up: Bool) throws {
        try Self.run(["-n", server, "link", "set", "vs\(index)\(suffix)", up ? "up" : "down"])
    }

    /// Moves the calling thread, and the threads it starts after, into `namespace`.
    ///
    /// - Throws: ``Failure`` when the namespace cannot be entered.
    static func enter(_ namespace: String) throws {
        let descriptor = open("/run/netns/\(namespace)", O_RDONLY)
        guard descriptor >= 0 else { throw Failure(description: "cannot open the namespace \(namespace): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        guard enterNamespace(descriptor, cloneNewNet) == 0 else {
            throw Failure(description: "cannot enter the namespace \(namespace): \(String(cString: strerror(errno)))")
        }
    }

    /// `CLONE_NEWNET` of `<sched.h>`, which Swift's Glibc module leaves out.
    private static let cloneNewNet: Int32 = 0x4000_0000

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private static func run(_ arguments: [String]) throws {
        let ip = Process()
        ip.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
        ip.arguments = arguments
        let errors = Pipe()
        ip.standardError = errors
        ip.standardOutput = FileHandle.nullDevice
        try ip.run()
        let output = errors.fileHandleForReading.readDataToEndOfFile()
        ip.waitUntilExit()
        guard ip.terminationStatus == 0 else {
            throw Failure(description: "ip \(arguments.joined(separator: " ")): \(String(decoding: output, as: UTF8.self))")
        }
    }
}

/// `setns(2)`, which Swift's Glibc module leaves out (it needs `_GNU_SOURCE`).
@_silgen_name("setns")
private func enterNamespace(_ descriptor: Int32, _ type: Int32) -> Int32
