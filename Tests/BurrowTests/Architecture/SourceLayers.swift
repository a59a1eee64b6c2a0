import Foundation

/// The layers of `Sources/Burrow`, read from the sources themselves: which folder each file is
/// in, which types each file declares and which types it names. A file may name the types of
/// its own layer and of the layers below, never those of a layer above.
///
/// From the bottom: `Values/` (the value types storage encodes, and the error vocabulary),
/// `Storage/` (tables, rows, indexes, the catalog, the change log), `Session/` (the engine: a
/// realm's snapshot and writes, the file's coordination, the writer turn, notification
/// delivery), and the public API above them (every other folder). Files at the top of the
/// module (helpers without types) sit with `Values/`.
struct SourceLayers {
    /// A file's name for a type of a layer above its own.
    struct UpwardReference: Hashable, CustomStringConvertible {
        /// The file, relative to `Sources/Burrow`.
        let file: String
        /// The type named: `Realm.Configuration` for a type declared in an extension.
        let type: String
        /// Where the type is declared.
        let declaredIn: String

        var description: String { "\(file) -> \(type) (\(declaredIn))" }
    }

    /// The layers, bottom first, by the first folder of a file's path.
    static let layers: [(name: String, folders: [String])] = [
        ("values", ["Values", ""]),
        ("storage", ["Storage"]),
        ("session", ["Session"]),
        ("api", ["*"]),
    ]

    /// The layer of the file at `path` (relative to `Sources/Burrow`), as an index into ``layers``.
    static func layer(of path: String) -> Int {
        let components = path.split(separator: "/")
        let folder = components.count > 1 ? String(components[0]) : ""
        return layers.firstIndex { $0.folders.contains(folder) } ?? layers.count - 1
    }

    /// Each file's text without comments and string literals, by path.
    let files: [String: String]

    /// Layers of the files given, by path, already stripped with ``code(of:)``.
    init(files: [String: String]) {
        self.files = files
    }

    /// Reads every Swift file under `root`.
    init(root: URL) throws {
        var files: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let path = String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
            files[path] = Self.code(of: try String(contentsOf: url, encoding: .utf8))
        }
        self.files = files
    }

    /// Every reference from a file to a type of a layer above it.
    func upwardReferences() -> Set<UpwardReference> {
        let declarations = self.declarations()
        var found: Set<UpwardReference> = []
        for (path, code) in files {
            let layer = Self.layer(of: path)
            for (type, declaredIn) in references(in: path, code: code, declarations: declarations)
            where Self.layer(of: declaredIn) > layer {
                found.insert(UpwardReference(file: path, type: type, declaredIn: declaredIn))
            }
        }
        return found
    }

    // MARK: Declarations

    /// Where each type is declared: top-level types by name, types declared in an extension
    /// (`extension Realm { struct Configuration }`) by their qualified name.
    struct Declarations {
        var topLevel: [String: String] = [:]
        var nested: [String: String] = [:]
        /// Per file, the types it extends only to declare types inside them.
        var namespaces: [String: Set<String>] = [:]
    }

    private static let modifiers = #"(?:(?:public|package|internal|private|fileprivate|final|open|indirect|nonisolated|@\w+(?:\([^)]*\))?)\s+)*"#
    private static let typeKeyword = #"(?:class|struct|enum|protocol|actor|typealias)\s+([A-Za-z_]\w*)"#

    func declarations() -> Declarations {
        var result = Declarations()
        let topLevel = try! Regex("(?m)^" + Self.modifiers + Self.typeKeyword)
        let nested = try! Regex("(?m)^    " + Self.modifiers + Self.typeKeyword)
        let extensionHeader = try! Regex(#"(?m)^extension\s+([A-Za-z_][\w.]*)[^{\n]*\{"#)
        for (path, code) in files {
            for match in code.matches(of: topLevel) {
                result.topLevel[String(match.output[1].substring!)] = path
            }
            for match in code.matches(of: extensionHeader) {
                let outer = String(match.output[1].substring!)
                let rest = code[match.range.upperBound...]
                let body = rest.range(of: "\n}").map { rest[..<$0.lowerBound] } ?? rest
                for inner in body.matches(of: nested) {
                    result.nested[outer + "." + String(inner.output[1].substring!)] = path
                    result.namespaces[path, default: []].insert(outer)
                }
            }
        }
        return result
    }

    // MARK: References

    /// The types `code` names, with the file declaring each. `Outer.Inner` names the type
    /// declared in an extension when there is one; an extension that only declares types
    /// inside another names that type as a namespace, not as a use.
    private func references(in path: String, code: String, declarations: Declarations) -> [String: String] {
        var code = code
        for namespace in declarations.namespaces[path] ?? [] {
            code = code.replacing(try! Regex("(?m)^extension\\s+" + NSRegularExpression.escapedPattern(for: namespace) + "\\b"),
                                  with: "extension ")
        }
        var found: [String: String] = [:]
        for match in code.matches(of: #/[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*/#) {
            let parts = match.output.split(separator: ".").map(String.init)
            guard let index = parts.firstIndex(where: { declarations.topLevel[$0] != nil }) else { continue }
            if index + 1 < parts.count, let declaredIn = declarations.nested[parts[index] + "." + parts[index + 1]] {
                found[parts[index] + "." + parts[index + 1]] = declaredIn
            } else {
                found[parts[index]] = declarations.topLevel[parts[index]]!
            }
        }
        return found
    }

    /// `source` without comments and string literals, whose words are not names of types.
    static func code(of source: String) -> String {
        var result = ""
        var rest = Substring(source)
        while let first = rest.first {
            if rest.hasPrefix("//") {
                rest = rest.drop { $0 != "\n" }
            } else if rest.hasPrefix("/*") {
                rest = rest.range(of: "*/").map { rest[$0.upperBound...] } ?? ""
                result += " "
            } else if rest.hasPrefix("\"\"\"") {
                let body = rest.dropFirst(3)
                rest = body.range(of: "\"\"\"").map { body[$0.upperBound...] } ?? ""
                result += "\"\""
            } else if first == "\"" {
                var index = rest.index(after: rest.startIndex)
                while index < rest.endIndex, rest[index] != "\"", rest[index] != "\n" {
                    index = rest.index(index, offsetBy: rest[index] == "\\" ? 2 : 1, limitedBy: rest.endIndex) ?? rest.endIndex
                }
                rest = index < rest.endIndex ? rest[rest.index(after: index)...] : ""
                result += "\"\""
            } else {
                result.append(first)
                rest = rest.dropFirst()
            }
        }
        return result
    }
}
