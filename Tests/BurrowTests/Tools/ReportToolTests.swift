import Burrow
import Foundation
import Testing

/// `burrow report`: a page that headless Chromium loads without a console message (its
/// content security policy forbids fetching anything, and a blocked fetch is one), that shows
/// every class, and that renders to an image.
@Suite(.enabled(if: BuildDirectory.product("burrow") != nil, "the burrow tool was not built beside the tests (run swift build --build-tests)"),
       .enabled(if: HeadlessChromium.path != nil, "chromium is not installed (Scripts/bootstrap.sh --tests installs it)"),
       .plainFilesOnly("the tool is run without BURROW_ENCRYPTION_KEY"))
struct ReportToolTests {
    let directory = TestDirectory()

    @Test func thePageLoadsCleanlyShowsEveryClassAndRenders() throws {
        let path = directory.file("demo.realm").path
        #expect(try BurrowToolRun(["demo", path, "--people", "50"]).status == 0)
        let page = directory.file("report.html")
        let run = try BurrowToolRun(["report", path, "-o", page.path])
        #expect(run.status == 0 && run.output.hasPrefix("wrote \(page.path): 4 classes"), "\(run.errors)")

        let loaded = try HeadlessChromium.load(page, folder: directory.url)
        #expect(loaded.consoleMessages.isEmpty, "console: \(loaded.consoleMessages)")
        for name in ["Address", "Dog", "Person", "Visit"] {
            #expect(loaded.dom.contains(">\(name)") || loaded.dom.contains(">\(name) ("), "the page does not show \(name)")
        }
        #expect(loaded.dom.contains("<svg") && loaded.dom.contains("Space by class"))

        let image = directory.file("report.png")
        try HeadlessChromium.screenshot(page, to: image, folder: directory.url)
        let png = try Data(contentsOf: image)
        #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) && png.count > 20_000, "\(png.count) bytes")
    }

    /// Values from the file are text on the page, never markup.
    @Test func valuesAreEscaped() throws {
        do {
            let realm = try Realm(configuration: directory.configuration(objectTypes: [Owner.self, Puppy.self]))
            try realm.write { realm.add(Owner(value: ["id": 1, "name": "<script>document.title='x'</script> & \"more\""])) }
        }
        let page = directory.file("report.html")
        #expect(try BurrowToolRun(["report", directory.file().path, "-o", page.path]).status == 0)
        let loaded = try HeadlessChromium.load(page, folder: directory.url)
        #expect(loaded.consoleMessages.isEmpty, "console: \(loaded.consoleMessages)")
        #expect(loaded.dom.contains("&lt;script&gt;document.title='x'&lt;/script&gt; &amp; \"more\""), "\(loaded.dom)")
        #expect(!loaded.dom.contains("<script>"))
    }

    /// The check above can fail: a page that fetches from the network is reported.
    @Test func aBlockedFetchIsAConsoleMessage() throws {
        let page = directory.file("fetching.html")
        try """
            <!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'"></head>
            <body><img src="http://127.0.0.1:9/x.png"></body></html>
            """.write(to: page, atomically: true, encoding: .utf8)
        #expect(!(try HeadlessChromium.load(page, folder: directory.url)).consoleMessages.isEmpty)
    }
}

/// Chromium without a display, as the tests drive it.
enum HeadlessChromium {
    static let path: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }

    struct Loaded {
        let dom: String
        let consoleMessages: [String]
    }

    /// The page's DOM after it loaded, and what it logged to the console.
    static func load(_ page: URL, folder: URL) throws -> Loaded {
        let (output, errors) = try run(["--dump-dom", page.absoluteString], folder: folder)
        let console = errors.split(separator: "\n").filter { $0.contains(":CONSOLE") }.map(String.init)
        return Loaded(dom: output, consoleMessages: console)
    }

    static func screenshot(_ page: URL, to image: URL, folder: URL) throws {
        _ = try run(["--screenshot=\(image.path)", "--window-size=1300,2000", page.absoluteString], folder: folder)
    }

    private static func run(_ arguments: [String], folder: URL) throws -> (output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path!)
        // Root may only run Chromium without its sandbox; a profile of its own in the test's folder.
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0",
                             "--user-data-dir=\(folder.appendingPathComponent("chromium-profile").path)"] + arguments
        let outputFile = folder.appendingPathComponent("chromium-\(UUID().uuidString).out")
        let errorFile = folder.appendingPathComponent("chromium-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
        process.waitUntilExit()
        return (try String(contentsOf: outputFile, encoding: .utf8), try String(contentsOf: errorFile, encoding: .utf8))
    }
}
