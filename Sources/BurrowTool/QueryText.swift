import Burrow
import Foundation

/// Query text typed by a person, checked against a class before use: a mistake is an input
/// error that shows where it is, never a trap.
enum QueryText {
    /// `text` parsed and checked against `results`' class.
    ///
    /// - Throws: ``ToolFailure`` (status 2): the parser's message, the query, and a caret under
    ///   the position it names.
    static func predicate(_ text: String, for results: Results<DynamicObject>) throws(ToolFailure) -> QueryPredicate {
        do {
            let predicate = try QueryPredicate(format: text, argumentArray: [])
            try results.validate(predicate)
            return predicate
        } catch {
            throw .input(pointing(at: error, in: text))
        }
    }

    /// `keys` (`name,-age`: comma-separated key paths, `-` for descending) as sort descriptors,
    /// each checked against `results`' class.
    ///
    /// - Throws: ``ToolFailure`` (status 2) for an empty or unknown key path.
    static func sortDescriptors(_ keys: String, for results: Results<DynamicObject>) throws(ToolFailure) -> [Burrow.SortDescriptor] {
        var descriptors: [Burrow.SortDescriptor] = []
        for key in keys.split(separator: ",", omittingEmptySubsequences: false).map({ $0.trimmingCharacters(in: .whitespaces) }) {
            let descending = key.hasPrefix("-")
            let path = descending ? String(key.dropFirst()) : key
            guard !path.isEmpty, path.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == "@" }) else {
                throw .input("--sort: '\(key)' is not a key path")
            }
            do {
                try results.validate(QueryPredicate(format: "TRUEPREDICATE SORT(\(path) ASC)", argumentArray: []))
            } catch {
                throw .input("--sort \(path): \(reason(of: error))")
            }
            descriptors.append(Burrow.SortDescriptor(keyPath: path, ascending: !descending))
        }
        return descriptors
    }

    /// The properties named in `list` (`id,name`), in that order; all of `schema`'s when `nil`.
    ///
    /// - Throws: ``ToolFailure`` (status 2) for a name `schema` does not have.
    static func properties(_ list: String?, of schema: ObjectSchema) throws(ToolFailure) -> [Property] {
        guard let list else { return schema.properties }
        return try list.split(separator: ",").map { name throws(ToolFailure) -> Property in
            let name = name.trimmingCharacters(in: .whitespaces)
            guard let property = schema[name] else {
                throw .input("--properties: \(schema.className) has no property '\(name)'; it has \(schema.properties.map(\.name).joined(separator: ", "))")
            }
            return property
        }
    }

    /// The message of a query error, then the query and a caret under the position it names.
    static func pointing(at error: Error, in text: String) -> String {
        let message = (error as? Realm.Error)?.message ?? "\(error)"
        guard let position = position(in: message), position <= text.count, !text.contains("\n") else { return message }
        return "\(message)\n  \(text)\n  \(String(repeating: " ", count: position))^"
    }

    /// The character position in "Invalid query at position N: …".
    static func position(in message: String) -> Int? {
        guard let range = message.range(of: "at position ") else { return nil }
        return Int(message[range.upperBound...].prefix { $0.isNumber })
    }

    /// The reason in a query error's message, without the position of a query the tool made.
    private static func reason(of error: Error) -> String {
        let message = (error as? Realm.Error)?.message ?? "\(error)"
        guard let colon = message.range(of: ": ") else { return message }
        return String(message[colon.upperBound...])
    }
}
