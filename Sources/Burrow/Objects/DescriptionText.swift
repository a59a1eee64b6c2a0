import Foundation

/// Values as RealmSwift's descriptions of objects and collections write them (which are
/// Objective-C's): `nil` as `(null)`, `Bool` as `0` or `1`, strings as they are, dates in UTC as
/// `1970-01-01 00:00:01 +0000`, data as `<61626364 65>`.
enum DescriptionText {
    static func of(_ value: Any?) -> String {
        guard let value = StoredValueConversion.unwrapped(value) else { return "(null)" }
        switch value {
        case let mixed as AnyRealmValue:
            return of(mixed.heldValue)
        case let object as ObjectBase:
            return DescriptionDepth.current >= DescriptionDepth.maximum ? DescriptionDepth.exceeded : "\(object)"
        case let bool as Bool:
            return bool ? "1" : "0"
        case let string as String:
            return string
        case let date as Date:
            return dateFormatter.string(from: date)
        case let data as Data:
            return "<" + stride(from: 0, to: data.count, by: 4).map { start in
                data[data.startIndex + start ..< data.startIndex + min(start + 4, data.count)].map { String(format: "%02x", $0) }.joined()
            }.joined(separator: " ") + ">"
        default:
            return "\(value)"
        }
    }

    private static let dateFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        return formatter
    }()

    /// `Name<Element> <0x…> (` then each element on a line of its own, then `)`, as RealmSwift
    /// describes collections; `identity` is the object whose address is printed.
    static func collection(_ elements: [Any?], named name: String, identity: AnyObject) -> String {
        guard DescriptionDepth.current < DescriptionDepth.maximum else { return DescriptionDepth.exceeded }
        let head = "\(name) <\(Unmanaged.passUnretained(identity).toOpaque())>"
        guard !elements.isEmpty else { return "\(head) (\n\n)" }
        let lines = DescriptionDepth.nested {
            elements.enumerated().map { index, element in "\t[\(index)] " + of(element).replacingOccurrences(of: "\n", with: "\n\t") }
        }
        return "\(head) (\n" + lines.joined(separator: ",\n") + "\n)"
    }

    /// The name of an element type in a collection's description: a class's name, else
    /// RealmSwift's property type name (`string`, `int`, …), `?` marking optionals.
    static func typeName<T: _Persistable>(_ type: T.Type) -> String {
        if let linked = T._linkedType, T._collectionKind == nil { return ClassInfo.storedName(of: linked) }
        return "\(T._rlmType)" + (T._isOptional ? "?" : "")
    }
}
