import Burrow
import Foundation

/// One `burrow recover`: runs readers over the damaged file until every class has been read
/// or given up on, importing their lines into the new file.
struct Recovery {
    let source: ToolFile
    let keyFile: String?
    let target: String
    var progress: Progress

    /// A reader that prints nothing for this long is stopped as stuck (a damaged page can
    /// send LMDB round a loop).
    static let stallSeconds = 30.0
    /// Readers started at most: each one ends past at least one object, or gives up a class.
    static let maximumReaders = 10_000

    struct Outcome {
        /// Top-level classes in the file's order, with the objects it counted and those recovered.
        var classes: [(name: String, counted: Int?, recovered: Int)] = []
        /// Why objects were lost, a line each, by class.
        var losses: [String: [String]] = [:]
        var clearedLinks = 0

        var lostCount: Int {
            classes.reduce(0) { $0 + max(0, ($1.counted ?? 0) - $1.recovered) } + (classes.isEmpty ? 1 : 0)
        }

        func report(source: String, target: String) -> String {
            let recovered = classes.reduce(0) { $0 + $1.recovered }, counted = classes.reduce(0) { $0 + ($1.counted ?? 0) }
            var lines = ["recovered \(recovered) of \(counted) objects of \(source) into \(target)"]
            for entry in classes {
                let counted = entry.counted.map(String.init) ?? "?"
                lines.append("  \(entry.name): \(entry.recovered) of \(counted)")
                let reasons = losses[entry.name] ?? []
                for reason in reasons.prefix(10) { lines.append("    lost: \(reason)") }
                if reasons.count > 10 { lines.append("    and \(reasons.count - 10) more") }
            }
            if clearedLinks > 0 { lines.append("  links to \(clearedLinks) objects that were lost were cleared") }
            return lines.joined(separator: "\n") + "\n"
        }
    }

    /// Where the next reader starts: a top-level class's position and an object's, or in key
    /// order the object key to read from.
    private struct Point: Equatable {
        var classIndex = 0
        var objectIndex = 0
        var key: UInt64 = 0
    }

    /// How a class read in key order gets past what ended a reader at its first object: a
    /// probe finds whether that object's row can be found (then reading the object itself is
    /// what ends readers, and it is skipped), or whether the seek dies (damaged pages of rows):
    /// then seeks ever further past it, and halving the gap between a seek that died and one
    /// that got through, find the first object after the damage.
    private enum KeySearch: Equatable {
        case none
        /// A reader from `key` died before its first object: probe `key` itself.
        case checking(key: UInt64)
        /// The seek to `failed` died: the next probe is `failed + 2^step`.
        case skipping(failed: UInt64, step: Int)
        /// The seek to `failed` died, and the one to `succeeded` got through.
        case narrowing(failed: UInt64, succeeded: UInt64)

        /// The key to probe next; `nil` when not searching.
        var probe: UInt64? {
            switch self {
            case .none: nil
            case .checking(let key): key
            case .skipping(let failed, let step):
                failed.addingReportingOverflow(1 << UInt64(step)).overflow ? .max : failed + (1 << UInt64(step))
            case .narrowing(let failed, let succeeded): failed + (succeeded - failed) / 2
            }
        }
    }

    /// Objects in a row whose reading ends the reader (their collections or links are on
    /// damaged pages) after which the rest of their class is given up: such damage is shared
    /// (a damaged page of list entries), and every one costs two readers.
    static let objectsEndingReadersInARow = 20

    /// What the readers' lines have said so far.
    private struct State {
        var outcome = Outcome()
        var classNames: [String] = []
        var schemas: Schema?
        var point = Point()
        var objectsThisRun = 0
        /// Classes read in the order of their object keys, their primary key index having failed.
        var keyOrder: Set<Int> = []
        var search = KeySearch.none
        /// What the last probe said: `nil` when it died before its seek got through, `.some(nil)`
        /// when it found no object.
        var probeFound: (key: UInt64, name: String)??
        /// Objects in a row, in key order, whose reading ended the reader.
        var objectsEndingReaders = 0

        /// Takes one line of a reader: the schema, a class's count, an object to import, or a
        /// probe's answer.
        mutating func take(_ line: ReaderLine, into realm: Realm, importer: inout ObjectImporter) throws {
            switch line {
            case .header(let classes):
                try realm.addClasses(classes)
                schemas = realm.fileSchema
                classNames = classes.filter { !$0.isEmbedded }.map(\.className).sorted()
                outcome.classes = classNames.map { name -> (name: String, counted: Int?, recovered: Int) in (name, nil, 0) }
            case .count(let name, let count):
                guard let index = classNames.firstIndex(of: name) else { return }
                outcome.classes[index].counted = count
                if index > point.classIndex { point = Point(classIndex: index) }
            case .object(let name, let position, let key, let values):
                guard let index = classNames.firstIndex(of: name), let schema = schemas?[name] else { return }
                point = Point(classIndex: index, objectIndex: position + 1, key: key.map { $0 == .max ? $0 : $0 + 1 } ?? 0)
                objectsThisRun += 1
                do {
                    try importer.add(values, of: schema, line: position + 1)
                    outcome.classes[index].recovered += 1
                } catch {
                    outcome.losses[name, default: []].append("object \(position): " + Recovery.reason(error))
                }
            case .probe(let found):
                probeFound = .some(found)
            }
        }

        /// Takes the outcome of the probe of `key`: the search goes on, or ends with the class
        /// read again past an object or past damaged pages, or given up.
        mutating func settle(probe key: UInt64, ending: Ending) {
            let name = classNames[point.classIndex]
            let gotThrough = probeFound != nil
            switch search {
            case .none:
                return
            case .checking:
                guard let found = probeFound else {
                    search = .skipping(failed: key, step: 0)
                    return
                }
                search = .none
                guard let object = found, object.key < .max else {
                    // No object is left to read (or the last possible key was the one).
                    point = Point(classIndex: point.classIndex + 1)
                    return
                }
                objectsEndingReaders += 1
                outcome.losses[name, default: []].append("object \(object.name): reading it ended the reader (\(ending.description))")
                if objectsEndingReaders >= Recovery.objectsEndingReadersInARow {
                    outcome.losses[name, default: []].append("the objects past it: reading \(objectsEndingReaders) in a row ended the reader, and the class was given up")
                    point = Point(classIndex: point.classIndex + 1)
                    objectsEndingReaders = 0
                } else {
                    point.key = object.key + 1
                }
                return
            case .skipping(let failed, let step):
                if gotThrough {
                    search = .narrowing(failed: failed, succeeded: key)
                } else if key == .max {
                    outcome.losses[name, default: []].append("the objects past the last one read: no seek got past the damage (\(ending.description))")
                    point = Point(classIndex: point.classIndex + 1)
                    search = .none
                    return
                } else {
                    search = .skipping(failed: key, step: min(step + 1, 63))
                }
            case .narrowing(let failed, let succeeded):
                search = gotThrough ? .narrowing(failed: failed, succeeded: key) : .narrowing(failed: key, succeeded: succeeded)
            }
            if case .narrowing(let failed, let succeeded) = search, succeeded - failed <= 1 {
                outcome.losses[name, default: []].append("the objects on damaged pages of rows after the last one read (\(ending.description))")
                point.key = succeeded
                search = .none
            }
        }
    }

    mutating func run() throws -> Outcome {
        let realm: Realm
        do {
            realm = try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: target), encryptionKey: source.key, objectTypes: []))
        } catch {
            throw ToolFailure.input(ToolFile.describe(error, path: target))
        }
        // An object read twice (a class read again in another order) is written once.
        var importer = ObjectImporter(realm: realm, update: .modified, source: source.path, progress: progress)
        realm.beginWrite()
        var state = State()
        var readersWithoutObjects = 0
        var lastFailure = Ending.finished
        for _ in 0..<Self.maximumReaders {
            let start = state.point
            state.objectsThisRun = 0
            state.probeFound = nil
            if let probe = state.search.probe {
                _ = try read(from: state.point, keyOrder: state.keyOrder, probe: probe) { line in try state.take(line, into: realm, importer: &importer) }
                state.settle(probe: probe, ending: lastFailure)
                if state.point.classIndex >= state.classNames.count { break }
                continue
            }
            let ending = try read(from: state.point, keyOrder: state.keyOrder, probe: nil) { line in try state.take(line, into: realm, importer: &importer) }
            if case .finished = ending { break }
            lastFailure = ending
            guard state.schemas != nil else {
                // A reader refused the key (missing, wrong, given to a plain file): bad input, not
                // damage. Any other refusal is damage: nothing could be read.
                if case .failed(2, let message) = ending, message.contains("encryption key") {
                    throw ToolFailure.input(message.replacingOccurrences(of: "burrow \(RecoverReader.command): ", with: ""))
                }
                throw ToolFailure.failed("\(source.path): its schema cannot be read (\(ending.description)); nothing was recovered")
            }
            guard state.point.classIndex < state.classNames.count else { break }
            let name = state.classNames[state.point.classIndex]
            if state.keyOrder.contains(state.point.classIndex) {
                // Died past an object read: the next reader starts just after it. Died before
                // its first object: a probe tells an object that cannot be read from a seek that
                // cannot get through.
                if state.objectsThisRun == 0 {
                    state.search = .checking(key: state.point.key)
                } else {
                    state.objectsEndingReaders = 0
                }
                continue
            }
            readersWithoutObjects = state.objectsThisRun == 0 && state.point == start ? readersWithoutObjects + 1 : 0
            // A reader stuck in a loop of damaged pages would be stuck at the next object too:
            // the class is given up in this order at once, not an object a stall at a time.
            if case .stalled = ending { readersWithoutObjects = 2 }
            if readersWithoutObjects >= 2 {
                // The class cannot be listed by its primary key index: read it again, all of it,
                // in the order of its object keys, a seek at a time (what is read twice is the
                // same, and kept once).
                state.keyOrder.insert(state.point.classIndex)
                state.outcome.losses[name] = nil
                state.point.objectIndex = 0
                state.point.key = 0
                readersWithoutObjects = 0
            } else {
                state.outcome.losses[name, default: []].append("object \(state.point.objectIndex): reading it ended the reader (\(ending.description))")
                state.point.objectIndex += 1
            }
            if state.point.classIndex >= state.classNames.count { break }
        }
        state.outcome.clearedLinks = importer.deleteUnfilledLinkTargets()
        // What the new file holds, each object once however often it was read.
        for index in state.outcome.classes.indices {
            state.outcome.classes[index].recovered = realm.dynamicObjects(state.outcome.classes[index].name).count
        }
        try realm.commitWrite()
        importer.progress.finish()
        return state.outcome
    }

    static func reason(_ error: Error) -> String {
        let text = (error as? ToolFailure)?.message ?? "\(error)"
        // The importer's messages read "SOURCE:LINE: what"; the object's position says it here.
        let trimmed = text.replacingOccurrences(of: "; nothing was imported", with: "")
        let parts = trimmed.components(separatedBy: ": ")
        return parts.count >= 2 ? parts.dropFirst().joined(separator: ": ") : trimmed
    }

    // MARK: Readers

    enum Ending: CustomStringConvertible {
        case finished
        case failed(status: Int32, message: String)
        case signalled(Int32, message: String)
        case stalled

        var description: String {
            switch self {
            case .finished: "finished"
            case .failed(let status, let message): message.isEmpty ? "exit status \(status)" : message
            case .signalled(let signal, let message): "signal \(signal)" + (message.isEmpty ? "" : ": \(message)")
            case .stalled: "no progress for \(Int(Recovery.stallSeconds)) s"
            }
        }
    }

    /// Runs one reader from `point`, handing each line it prints to `handle`, and says how it
    /// ended.
    private func read(from point: Point, keyOrder: Set<Int>, probe: UInt64?, _ handle: (ReaderLine) throws -> Void) throws -> Ending {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var arguments = [RecoverReader.command, source.path, "--class-index", "\(point.classIndex)", "--object-index", "\(point.objectIndex)"]
        if !keyOrder.isEmpty {
            let classes: [String] = keyOrder.sorted().map { String($0) }
            arguments += ["--key-order", classes.joined(separator: ","), "--from-key", String(probe ?? point.key)]
        }
        if probe != nil { arguments.append("--probe") }
        if let keyFile { arguments += ["--key-file", keyFile] }
        process.arguments = arguments
        // A reader that dies says why in a line, without the runtime's backtrace.
        process.environment = ProcessInfo.processInfo.environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { _, new in new }
        let output = Pipe()
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("burrow-recover-\(getpid())-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errors) }
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        let descriptor = output.fileHandleForReading.fileDescriptor
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var stalled = false
        while true {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(Self.stallSeconds * 1000))
            if ready == 0 {
                stalled = true
                process.terminate()
                kill(process.processIdentifier, SIGKILL)
                break
            }
            if ready < 0 { if errno == EINTR { continue } else { break } }
            let count = Glibc.read(descriptor, &buffer, buffer.count)
            if count <= 0 { break }
            pending += buffer[0..<count]
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(pending[..<newline])
                pending.removeSubrange(...newline)
                var reader = JSONReader(input: ByteInput(text: String(decoding: line, as: UTF8.self)))
                // A line cut short by the reader's death, or not JSON, is not the reader's.
                guard let value = try? reader.value(), let parsed = try ReaderLine.parse(value) else { continue }
                try handle(parsed)
            }
        }
        process.waitUntilExit()
        if stalled { return .stalled }
        let message = Self.lastLine(of: errors)
        switch process.terminationReason {
        case .uncaughtSignal: return .signalled(process.terminationStatus, message: message)
        case .exit: return process.terminationStatus == 0 ? .finished : .failed(status: process.terminationStatus, message: message)
        @unknown default: return .failed(status: process.terminationStatus, message: message)
        }
    }

    /// The last line a reader printed on standard error, short.
    private static func lastLine(of url: URL) -> String {
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        let line = text.split(separator: "\n").last.map(String.init) ?? ""
        return line.count > 200 ? String(line.prefix(199)) + "…" : line
    }
}
