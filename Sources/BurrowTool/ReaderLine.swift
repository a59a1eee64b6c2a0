import Burrow

/// A line a recovery reader (``RecoverReader``) prints, read back.
enum ReaderLine {
    /// The export header: the file's classes.
    case header([ObjectSchema])
    /// How many objects a class holds, before them.
    case count(className: String, objects: Int)
    /// An object at its position in its class, with its object key when read in key order.
    case object(className: String, position: Int, key: UInt64?, values: ToolValue)
    /// A probe's seek got through: the first object at or past its key (its object key, and
    /// its primary key as text for messages), or `nil` when there is none.
    case probe(found: (key: UInt64, name: String)?)

    /// The line `value` is, or `nil` for one that is none of these.
    ///
    /// - Throws: ``ToolFailure`` for a header whose schema is malformed.
    static func parse(_ value: ToolValue) throws(ToolFailure) -> ReaderLine? {
        guard case .object(let members) = value, !members.isEmpty else { return nil }
        switch members[0].key {
        case ExportCommand.headerKey:
            return .header(try ExportSchema.classes(from: members))
        case "count":
            guard members.count == 2, case .integer(let count) = members[0].value, case .string(let name) = members[1].value else { return nil }
            return .count(className: name, objects: Int(count))
        case "class":
            guard members.count == 3 || members.count == 4, case .string(let name) = members[0].value,
                  case .integer(let position) = members[1].value, members.last?.key == "object" else { return nil }
            var key: UInt64?
            if members.count == 4 {
                guard members[2].key == "key", case .string(let text) = members[2].value, let parsed = UInt64(text) else { return nil }
                key = parsed
            }
            return .object(className: name, position: Int(position), key: key, values: members[members.count - 1].value)
        case "probe":
            guard members.count == 2 else { return nil }
            if members[1].value.isNull { return .probe(found: nil) }
            guard case .object(let found) = members[1].value, found.count == 2, case .string(let text) = found[0].value,
                  let key = UInt64(text) else { return nil }
            return .probe(found: (key, found[1].value.isNull ? "key \(key)" : found[1].value.plainText))
        default:
            return nil
        }
    }
}
