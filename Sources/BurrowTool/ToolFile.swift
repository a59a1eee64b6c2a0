import Burrow
import Foundation

/// The realm file a command works on: checked to exist and to be an LMDB file before Burrow
/// opens it, so that a mistyped path or a foreign file is an input error in one line, and
/// opened through the schema stored in it (no model classes needed).
struct ToolFile {
    let url: URL
    /// The file's encryption key, from `BURROW_ENCRYPTION_KEY` or `--key-file`.
    let key: Data?

    var path: String { url.path }

    /// The file at `path` for `options` (`--key-file`).
    ///
    /// - Throws: ``ToolFailure`` (status 2) when the file is missing or unreadable, is not an
    ///   LMDB file, or the key is malformed.
    init(_ path: String, options: CommandLineOptions) throws(ToolFailure) {
        url = URL(fileURLWithPath: path)
        key = try ToolEncryptionKey.resolve(keyFile: options.string("key-file"))
        try Self.checkIsLMDBFile(path)
    }

    /// The realm, read-only, through its stored schema.
    ///
    /// - Throws: ``ToolFailure`` (status 2) naming the file and the cause: not a Burrow file, a
    ///   wrong or missing key, damage met while opening.
    func openReadOnly() throws(ToolFailure) -> Realm {
        do {
            return try Realm(configuration: Realm.Configuration(fileURL: url, encryptionKey: key, readOnly: true, objectTypes: []))
        } catch {
            throw .input(Self.describe(error, path: path))
        }
    }

    /// The schema of class `name`, which must be in `realm`'s file and (unless
    /// `embeddedAllowed`) not embedded: embedded objects are read through their owners.
    ///
    /// - Throws: ``ToolFailure`` (status 2) naming the classes the file has, or the owners of
    ///   an embedded class.
    func objectSchema(_ name: String, in realm: Realm, embeddedAllowed: Bool = false) throws(ToolFailure) -> ObjectSchema {
        let schemas = realm.fileSchema.objectSchema
        if let schema = schemas.first(where: { $0.className == name }) {
            guard !schema.isEmbedded || embeddedAllowed else {
                var owners: [String] = []
                for owner in schemas {
                    for property in owner.properties where property.objectClassName == name {
                        owners.append(owner.className + "." + property.name)
                    }
                }
                throw .input("\(name) is embedded: its objects are read through their owners (\(owners.joined(separator: ", ")))")
            }
            return schema
        }
        let names = schemas.map(\.className).sorted()
        let near = names.first { $0.lowercased() == name.lowercased() }.map { " (did you mean '\($0)'?)" } ?? ""
        throw .input("\(path) has no class '\(name)'\(near); its classes: \(names.isEmpty ? "none" : names.joined(separator: ", "))")
    }

    /// A one-line description of why `path` could not be opened.
    static func describe(_ error: Error, path: String) -> String {
        let message = (error as? Realm.Error)?.message ?? error.localizedDescription
        // Burrow's messages name the file already; keep them to one line.
        let line = message.replacingOccurrences(of: "\n", with: " ")
        return line.contains(path) ? line : "\(path): \(line)"
    }

    /// Whether an open failed for the key (missing, wrong, or given to a plain file) rather
    /// than for the file's content.
    static func isKeyProblem(_ error: Error) -> Bool {
        guard let error = error as? Realm.Error, error.code == .invalidDatabase else { return false }
        return error.message.contains("encryption key") || error.message.contains("is encrypted")
    }

    /// The magic number of LMDB's meta pages (pages 0 and 1), after the 16-byte page header.
    private static let lmdbMagic: [UInt8] = [0xDE, 0xC0, 0xEF, 0xBE]

    /// Checks that `path` is a readable regular file with LMDB's magic on either meta page.
    /// Only a file with neither is foreign: damage to one meta page is LMDB's to recover from.
    ///
    /// - Throws: ``ToolFailure`` (status 2).
    static func checkIsLMDBFile(_ path: String) throws(ToolFailure) {
        var status = stat()
        guard stat(path, &status) == 0 else { throw .input("\(path): \(String(cString: strerror(errno)))") }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .input("\(path): not a regular file") }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .input("\(path): cannot be read (\(String(cString: strerror(errno))))")
        }
        defer { try? handle.close() }
        guard status.st_size > 0 else { throw .input("\(path): the file is empty, not a Burrow file") }
        for pageSize in [0, 4096, 8192, 16384, 65536] {
            guard (try? handle.seek(toOffset: UInt64(pageSize + 16))) != nil,
                  let bytes = try? handle.read(upToCount: 4) else { continue }
            if Array(bytes) == lmdbMagic { return }
        }
        throw .input("\(path): not a Burrow file (no LMDB header)")
    }
}
