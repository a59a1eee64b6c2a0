import Foundation
import Testing

/// `swiftc` and the arguments that let it import the `Burrow` module this test run built.
enum BuiltModule {
    static let compiler: (swiftc: String, arguments: [String])? = {
        let sources = PackageDirectory.url.appendingPathComponent("Sources")
        let candidates = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/swiftc" }
        guard let products = BuildDirectory.url, let swiftc = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            return nil
        }
        // The module maps of the C libraries the Burrow module imports: the system's, and its own CRC-32C.
        let moduleMaps = ["CLMDB", "CSodium", "CLibPQ", "CRC32C/include"].flatMap { ["-I", sources.appendingPathComponent($0).path] }
        // libpq's header lives in its own folder (`pkg-config --cflags libpq` on Debian).
        let headers = ["-Xcc", "-I/usr/include/postgresql"]
        return (swiftc, ["-typecheck", "-I", products.appendingPathComponent("Modules").path] + moduleMaps + headers)
    }()

    /// Compiles and links `sources` into the program `output`, against the Burrow module and
    /// objects this test run built.
    static func compileProgram(_ sources: [String], into output: String) throws -> (status: Int32, output: String) {
        let (swiftc, arguments) = try #require(compiler)
        let products = try #require(BuildDirectory.url)
        let objects = try ["Burrow", "LMDB", "PostgreSQL", "CRC32C"].flatMap { target in
            try objectFiles(in: products.appendingPathComponent("\(target).build"))
        }
        return try runCombiningOutput(swiftc, arguments.filter { $0 != "-typecheck" } + sources + objects + ["-llmdb", "-lsodium", "-lpq", "-o", output])
    }

    /// The object files of a target's build folder: for a Swift target, those of the sources
    /// its build compiled (`output-file-map.json`) and its module's, not those a source since
    /// removed left behind; for a C target, every one.
    private static func objectFiles(in folder: URL) throws -> [String] {
        let all = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".o") }
        let map = folder.appendingPathComponent("output-file-map.json")
        guard let data = FileManager.default.contents(atPath: map.path),
              let entries = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            return all.map { folder.appendingPathComponent($0).path }
        }
        let compiled = entries.values.compactMap { ($0 as? [String: Any])?["object"] as? String }
        return compiled + all.filter { $0.hasSuffix(".swiftmodule.o") }.map { folder.appendingPathComponent($0).path }
    }
}

/// Misuse that RealmSwift's API rejects at compile time must not compile against Burrow
/// either: each snippet is type-checked by `swiftc` against the module this test run built.
@Suite(.enabled(if: BuiltModule.compiler != nil, "no swiftc or no built Burrow module beside the test binary"))
struct CompileTimeContractTests {
    /// The compiler's diagnostics for `source`, and whether it compiled.
    private func typecheck(_ source: String) throws -> (compiled: Bool, output: String) {
        let (swiftc, arguments) = try #require(BuiltModule.compiler)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("contract-\(UUID().uuidString).swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try runCombiningOutput(swiftc, arguments + [file.path])
        return (run.status == 0, run.output)
    }

    private static let model = """
        import Burrow
        import Foundation
        final class Item: Object {
            @Persisted(primaryKey: true) var id = 0
            @Persisted var name = ""
            @Persisted var price = 0.0
            @Persisted var tags: List<String>
        }
        """

    @Test func correctUseCompiles() throws {
        let result = try typecheck(Self.model + """

            func use(_ items: Results<Item>) {
                let total: Double = items.sum(ofProperty: "price")
                let cheapest = items.min(of: \\.price)
                let first = items.first?.tags.sorted(ascending: true)
                _ = (total, cheapest, first)
            }
            """)
        #expect(result.compiled, "\(result.output)")
    }

    @Test(arguments: [
        ("@Persisted(indexed: true) var score = 0.0", "_Indexable"),
        ("@Persisted(primaryKey: true) var when = Date()", "_PrimaryKey"),
    ])
    func propertiesAnIndexOrKeyCannotHoldDoNotCompile(declaration: String, reason: String) throws {
        let result = try typecheck("import Burrow\nimport Foundation\nfinal class Bad: Object {\n    \(declaration)\n}\n")
        #expect(!result.compiled)
        #expect(result.output.contains(reason), "\(result.output)")
    }

    @Test(arguments: [
        ("let _: String = items.sum(ofProperty: \"name\")", "AddableType"),
        ("_ = items.min(of: \\.name)", "MinMaxType"),
        ("_ = items.average(of: \\.name) as String?", "AddableType"),
        ("_ = items.first?.tags.sum()", "AddableType"),
    ])
    func aggregatesOfTheWrongTypeDoNotCompile(statement: String, reason: String) throws {
        let result = try typecheck(Self.model + "\nfunc use(_ items: Results<Item>) {\n    \(statement)\n}\n")
        #expect(!result.compiled)
        #expect(result.output.contains(reason), "\(result.output)")
    }
}
