import Foundation
import Testing

/// `Scripts/docs.sh` builds the DocC catalog with the toolchain's `docc`, and the site has a
/// page for every article of the catalog and for every public symbol of the module.
@Suite(.enabled(if: DocumentationSite.canBuild, "docc, swift-symbolgraph-extract or the built Burrow module is missing"))
struct DocumentationTests {
    @Test func everyArticleAndEveryPublicSymbolHasAPage() throws {
        let site = try DocumentationSite.build()
        defer { try? FileManager.default.removeItem(at: site.folder) }
        #expect(site.status == 0, "Scripts/docs.sh failed:\n\(site.log.suffix(3000))")
        let data = site.folder.appendingPathComponent("data/documentation/burrow")

        let catalog = PackageDirectory.sources("Burrow").appendingPathComponent("Burrow.docc")
        let articles = try FileManager.default.contentsOfDirectory(atPath: catalog.path).filter { $0.hasSuffix(".md") && $0 != "Burrow.md" }
        #expect(articles.count >= 12, "\(articles)")
        for article in articles {
            let page = data.appendingPathComponent(article.dropLast(3).lowercased() + ".json")
            #expect(FileManager.default.fileExists(atPath: page.path), "no page for the article \(article)")
        }
        #expect(FileManager.default.fileExists(atPath: site.folder.appendingPathComponent("data/documentation/burrow.json").path))

        // Every public symbol the module declares has a page: docc's digest of the site lists
        // each page with the symbol it documents, and the page's file is there.
        let symbols = try DocumentationSite.publicSymbols(in: site.symbolGraph)
        #expect(symbols.count > 500)
        let digest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: site.folder.appendingPathComponent("linkable-entities.json")))
            as? [[String: Any]])
        let pages = Dictionary(digest.compactMap { entry in (entry["usr"] as? String).flatMap { usr in (entry["path"] as? String).map { (usr, $0) } } },
                               uniquingKeysWith: { first, _ in first })
        var missing: [String] = []
        for (usr, name) in symbols {
            guard let path = pages[usr], FileManager.default.fileExists(atPath: site.folder.appendingPathComponent("data" + path + ".json").path) else {
                missing.append(name)
                continue
            }
        }
        #expect(missing.isEmpty, "\(missing.count) public symbols have no page, such as \(missing.prefix(20))")
    }
}

/// The documentation site, built by `Scripts/docs.sh` from the module this test run built.
enum DocumentationSite {
    static let canBuild = BuildDirectory.url != nil
        && ["docc", "swift-symbolgraph-extract"].allSatisfy { tool in
            (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }
        }

    struct Built {
        let folder: URL
        let status: Int32
        let log: String
        /// The module's symbol graph, extracted again for the check.
        let symbolGraph: URL
    }

    static func build() throws -> Built {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("burrow-docs-\(UUID().uuidString)")
        let products = try #require(BuildDirectory.url)
        let script = PackageDirectory.url.appendingPathComponent("Scripts/docs.sh")
        let run = try run("/bin/bash", [script.path, "--products", products.path, "--output", folder.appendingPathComponent("site").path])
        let graphs = folder.appendingPathComponent("graphs")
        try FileManager.default.createDirectory(at: graphs, withIntermediateDirectories: true)
        let sources = PackageDirectory.url.appendingPathComponent("Sources")
        let extract = try self.run("/usr/bin/env", ["swift-symbolgraph-extract", "-module-name", "Burrow", "-target", "x86_64-unknown-linux-gnu",
                                                    "-I", products.appendingPathComponent("Modules").path,
                                                    "-I", sources.appendingPathComponent("CLMDB").path, "-I", sources.appendingPathComponent("CSodium").path,
                                                    "-I", sources.appendingPathComponent("CLibPQ").path, "-I", sources.appendingPathComponent("CRC32C/include").path,
                                                    "-Xcc", "-I/usr/include/postgresql",
                                                    "-minimum-access-level", "public", "-output-dir", graphs.path])
        #expect(extract.status == 0, "\(extract.log)")
        return Built(folder: folder.appendingPathComponent("site"), status: run.status, log: run.log,
                     symbolGraph: graphs.appendingPathComponent("Burrow.symbols.json"))
    }

    /// The identifier (USR) and path of every public symbol the module itself declares (not
    /// those of extensions to other modules' types, which live in their own graphs).
    static func publicSymbols(in graph: URL) throws -> [(usr: String, name: String)] {
        let root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: graph)) as? [String: Any])
        let symbols = try #require(root["symbols"] as? [[String: Any]])
        return symbols.compactMap { symbol in
            guard (symbol["accessLevel"] as? String) == "public", let path = symbol["pathComponents"] as? [String],
                  let usr = (symbol["identifier"] as? [String: Any])?["precise"] as? String else { return nil }
            // Names starting with an underscore are hidden from documentation, as in the
            // standard library.
            guard !path.contains(where: { $0.hasPrefix("_") }) else { return nil }
            return (usr, path.joined(separator: "/"))
        }
    }

    private static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, log: String) {
        let run = try runCombiningOutput(executable, arguments)
        return (run.status, run.output)
    }
}
