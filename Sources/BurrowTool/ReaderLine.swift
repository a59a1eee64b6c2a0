import Burrow

/// A line a recovery reader (``RecoverReader``) prints, read back.
enum ReaderLine {
    /// The export header: the file's classes.
    case header([ObjectSchema])
    /// How many objects a class holds, before them.
    case count(className: String, objects: Int)
    /// An object at its position in its class.
    case object(className: String, position: Int, values: ToolValue)

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
            guard members.count == 3, case .string(let name) = members[0].value, case .integer(let position) = members[1].value else { return nil }
            return .object(className: name, position: Int(position), values: members[2].value)
        default:
            return nil
        }
    }
}
