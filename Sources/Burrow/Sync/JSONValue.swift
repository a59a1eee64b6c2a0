/// A JSON value as sync sends and receives it. Numbers keep their text, so that a 64-bit
/// integer, a double's shortest form and a 34-digit decimal all survive the trip exactly.
/// Parsing trusts nothing: depth and size are bounded, and anything malformed is an error.
enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    /// A number, as its JSON text.
    case number(String)
    case string(String)
    case array([JSONValue])
    /// Members in the order they were written; keys are distinct.
    case object([(String, JSONValue)])

    /// Equality of the JSON texts: strings compare by their UTF-8 bytes, as Burrow stores
    /// them, not by Swift's canonical equivalence, under which `"caf\u{E9}"` (composed) and
    /// `"cafe\u{301}"` (decomposed) are one string.
    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a.utf8.elementsEqual(b.utf8)
        case (.string(let a), .string(let b)): a.utf8.elementsEqual(b.utf8)
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.0.utf8.elementsEqual($1.0.utf8) && $0.1 == $1.1 }
        default: false
        }
    }

    /// The member `key` of an object; `nil` for a missing member or a non-object.
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    var stringValue: String? { if case .string(let text) = self { text } else { nil } }
    var arrayValue: [JSONValue]? { if case .array(let items) = self { items } else { nil } }
    var objectValue: [(String, JSONValue)]? { if case .object(let members) = self { members } else { nil } }
    var isNull: Bool { if case .null = self { true } else { false } }

    // MARK: Writing

    /// The value as compact JSON text.
    var text: String { written(ascii: false) }

    /// The value as compact JSON text in ASCII, every other character escaped (`\u00e9`):
    /// two texts are equal as Swift strings exactly when their values are equal byte for byte,
    /// so that they can name elements in sets and dictionaries.
    var asciiText: String { written(ascii: true) }

    /// The text, written as UTF-8 bytes and made a string once.
    private func written(ascii: Bool) -> String {
        switch self {
        // A scalar's text is at hand (a primary key's, most often).
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let text): return text
        default: break
        }
        var output: [UInt8] = []
        output.reserveCapacity(64)
        write(to: &output, ascii: ascii)
        return String(decoding: output, as: UTF8.self)
    }

    func write(to output: inout [UInt8], ascii: Bool) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: value ? "true".utf8 : "false".utf8)
        case .number(let text): output.append(contentsOf: text.utf8)
        case .string(let text): Self.writeString(text, to: &output, ascii: ascii)
        case .array(let items):
            output.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                item.write(to: &output, ascii: ascii)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.writeString(key, to: &output, ascii: ascii)
                output.append(UInt8(ascii: ":"))
                value.write(to: &output, ascii: ascii)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// `text` as a JSON string: the runs of bytes that need no escape are copied whole.
    static func writeString(_ text: String, to output: inout [UInt8], ascii: Bool) {
        output.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var run = 0, index = 0
            while index < bytes.count {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || (ascii && byte > 0x7E) else {
                    index += 1
                    continue
                }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index]))
                switch byte {
                case UInt8(ascii: "\""): output.append(contentsOf: #"\""#.utf8)
                case UInt8(ascii: "\\"): output.append(contentsOf: #"\\"#.utf8)
                case 0x0A: output.append(contentsOf: #"\n"#.utf8)
                case 0x0D: output.append(contentsOf: #"\r"#.utf8)
                case 0x09: output.append(contentsOf: #"\t"#.utf8)
                case ..<0x80: writeEscaped(UInt16(byte), to: &output)  // a control character, or DEL
                default:
                    // The first byte of a character past ASCII (a Swift string's UTF-8 is
                    // valid): its scalar, as one or two UTF-16 escapes.
                    let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                    var scalar = UInt32(byte & (0xFF >> (length + 1)))
                    for offset in 1..<length { scalar = scalar << 6 | UInt32(bytes[index + offset] & 0x3F) }
                    for unit in UTF16.encode(Unicode.Scalar(scalar)!)! { writeEscaped(unit, to: &output) }
                    index += length - 1
                }
                index += 1
                run = index
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<bytes.count]))
        }
        output.append(UInt8(ascii: "\""))
    }

    /// `\u` and the four lowercase hex digits of `unit`.
    private static func writeEscaped(_ unit: UInt16, to output: inout [UInt8]) {
        output.append(contentsOf: #"\u"#.utf8)
        for shift in stride(from: 12, through: 0, by: -4) {
            let digit = UInt8(unit >> UInt16(shift) & 0xF)
            output.append(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10)
        }
    }

    // MARK: Reading

    /// Why a text is not JSON.
    struct ParseError: Error, CustomStringConvertible {
        let offset: Int
        let reason: String
        var description: String { "malformed JSON at byte \(offset): \(reason)" }
    }

    /// The value `text` holds.
    ///
    /// - Throws: ``ParseError`` for text that is not one JSON value, or nests deeper than
    ///   `maximumDepth`.
    init(parsing text: String, maximumDepth: Int = 64) throws(ParseError) {
        var parser = Parser(bytes: Array(text.utf8), maximumDepth: maximumDepth)
        parser.skipSpace()
        self = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.position == parser.bytes.count else { throw parser.error("text after the value") }
    }

    private struct Parser {
        /// Up to this many members, an object's member names are checked for repeats one by one.
        static let membersComparedOneByOne = 16

        let bytes: [UInt8]
        let maximumDepth: Int
        var position = 0

        func error(_ reason: String) -> ParseError { ParseError(offset: position, reason: reason) }

        mutating func skipSpace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x0A, 0x0D, 0x09: position += 1
                default: return
                }
            }
        }

        /// Steps over `literal` (ASCII), or throws.
        mutating func expect(_ literal: StaticString) throws(ParseError) {
            let count = literal.utf8CodeUnitCount
            guard bytes.count - position >= count else { throw error("expected \(literal)") }
            for offset in 0..<count where bytes[position + offset] != literal.utf8Start[offset] {
                throw error("expected \(literal)")
            }
            position += count
        }

        mutating func value(depth: Int) throws(ParseError) -> JSONValue {
            guard depth <= maximumDepth else { throw error("nested deeper than \(maximumDepth)") }
            guard position < bytes.count else { throw error("unexpected end") }
            switch bytes[position] {
            case UInt8(ascii: "n"): try expect("null"); return .null
            case UInt8(ascii: "t"): try expect("true"); return .bool(true)
            case UInt8(ascii: "f"): try expect("false"); return .bool(false)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "["):
                position += 1
                var items: [JSONValue] = []
                skipSpace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "]") { position += 1; return .array(items) }
                while true {
                    skipSpace()
                    items.append(try value(depth: depth + 1))
                    skipSpace()
                    guard position < bytes.count else { throw error("unterminated array") }
                    if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                    if bytes[position] == UInt8(ascii: "]") { position += 1; return .array(items) }
                    throw error("expected , or ]")
                }
            case UInt8(ascii: "{"):
                position += 1
                var members: [(String, JSONValue)] = []
                // By their bytes: two spellings of one string are two member names. A few
                // members are compared one by one; a set takes over for many.
                var keys: Set<[UInt8]>?
                skipSpace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "}") { position += 1; return .object(members) }
                while true {
                    skipSpace()
                    guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw error("expected a member name") }
                    let key = try string()
                    if members.count < Self.membersComparedOneByOne {
                        guard !members.contains(where: { $0.0.utf8.elementsEqual(key.utf8) }) else {
                            throw error("the member \"\(key)\" appears twice")
                        }
                    } else {
                        if keys == nil { keys = Set(members.map { Array($0.0.utf8) }) }
                        guard keys!.insert(Array(key.utf8)).inserted else { throw error("the member \"\(key)\" appears twice") }
                    }
                    skipSpace()
                    try expect(":")
                    skipSpace()
                    members.append((key, try value(depth: depth + 1)))
                    skipSpace()
                    guard position < bytes.count else { throw error("unterminated object") }
                    if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                    if bytes[position] == UInt8(ascii: "}") { position += 1; return .object(members) }
                    throw error("expected , or }")
                }
            default:
                return .number(try number())
            }
        }

        mutating func number() throws(ParseError) -> String {
            let start = position
            func digits() -> Int {
                let from = position
                while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
                return position - from
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard digits() > 0 else { throw error("expected a value") }
            if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
                position += 1
                guard digits() > 0 else { throw error("expected digits after the decimal point") }
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
                position += 1
                if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
                guard digits() > 0 else { throw error("expected digits in the exponent") }
            }
            return String(decoding: bytes[start..<position], as: UTF8.self)
        }

        mutating func string() throws(ParseError) -> String {
            position += 1
            let start = position
            // Most strings hold no escape: decoded from the bytes in one piece.
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    position += 1
                    return String(decoding: bytes[start..<position - 1], as: UTF8.self)
                }
                if byte == UInt8(ascii: "\\") { break }
                if byte < 0x20 { throw error("a control character in a string") }
                position += 1
            }
            guard position < bytes.count else { throw error("unterminated string") }
            return try escapedString(from: start)
        }

        /// The rest of a string that holds an escape, its text from `start` to `position`
        /// (the first backslash) having no escape; the bytes are decoded once, at the end.
        mutating func escapedString(from start: Int) throws(ParseError) -> String {
            var decoded = Array(bytes[start..<position])
            func append(_ scalar: Unicode.Scalar) { decoded.append(contentsOf: UTF8.encode(scalar)!) }
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    position += 1
                    return String(decoding: decoded, as: UTF8.self)
                }
                if byte < 0x20 { throw error("a control character in a string") }
                guard byte == UInt8(ascii: "\\") else {
                    decoded.append(byte)
                    position += 1
                    continue
                }
                position += 1
                guard position < bytes.count else { break }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
                case UInt8(ascii: "b"): decoded.append(0x08)
                case UInt8(ascii: "f"): decoded.append(0x0C)
                case UInt8(ascii: "n"): decoded.append(0x0A)
                case UInt8(ascii: "r"): decoded.append(0x0D)
                case UInt8(ascii: "t"): decoded.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800...0xDBFF).contains(code) {
                        try expect("\\u")
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("an unpaired surrogate") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("an unpaired surrogate") }
                    append(scalar)
                default: throw error("an unknown escape")
                }
            }
            throw error("unterminated string")
        }

        mutating func hex4() throws(ParseError) -> UInt32 {
            guard bytes.count - position >= 4 else { throw error("expected four hex digits") }
            var code: UInt32 = 0
            for byte in bytes[position..<position + 4] {
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw error("expected four hex digits")
                }
                code = code << 4 | UInt32(digit)
            }
            position += 4
            return code
        }
    }
}
