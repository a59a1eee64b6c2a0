import Foundation

/// A strict JSON (RFC 8259) reader over a ``ByteInput``, producing ``ToolValue``s: integers
/// that fit 64 bits stay exact, other numbers are doubles.
struct JSONReader {
    /// Malformed JSON, with the line it was met on.
    struct Malformed: Error {
        let line: Int
        let message: String
    }

    let input: ByteInput
    /// Nesting deeper than this is refused, so that no input exhausts the stack.
    static let maximumDepth = 256

    /// The next value, after white space.
    mutating func value(depth: Int = 0) throws(Malformed) -> ToolValue {
        input.skipWhitespace()
        guard depth < Self.maximumDepth else { throw fail("values nested more than \(Self.maximumDepth) deep") }
        guard let byte = input.peek() else { throw fail("the input ends where a value should be") }
        switch byte {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw fail("unexpected '\(Self.printable(byte))' where a value should be")
        }
    }

    /// Takes `byte` after white space, or fails naming `context`.
    mutating func expect(_ byte: UInt8, _ context: String) throws(Malformed) {
        input.skipWhitespace()
        guard input.peek() == byte else {
            throw fail("expected '\(Self.printable(byte))' \(context), found \(input.peek().map { "'\(Self.printable($0))'" } ?? "the end")")
        }
        _ = input.next()
    }

    /// Whether the next byte after white space is `byte` (taking it when it is).
    mutating func accept(_ byte: UInt8) -> Bool {
        input.skipWhitespace()
        guard input.peek() == byte else { return false }
        _ = input.next()
        return true
    }

    func fail(_ message: String) -> Malformed {
        Malformed(line: input.line, message: message)
    }

    private mutating func object(depth: Int) throws(Malformed) -> ToolValue {
        _ = input.next()
        var members: [(key: String, value: ToolValue)] = []
        if accept(UInt8(ascii: "}")) { return .object(members) }
        repeat {
            input.skipWhitespace()
            guard input.peek() == UInt8(ascii: "\"") else { throw fail("expected a member name in quotes") }
            let key = try string()
            try expect(UInt8(ascii: ":"), "after a member name")
            members.append((key, try value(depth: depth + 1)))
        } while accept(UInt8(ascii: ","))
        try expect(UInt8(ascii: "}"), "to close an object")
        return .object(members)
    }

    private mutating func array(depth: Int) throws(Malformed) -> ToolValue {
        _ = input.next()
        var elements: [ToolValue] = []
        if accept(UInt8(ascii: "]")) { return .array(elements) }
        repeat {
            elements.append(try value(depth: depth + 1))
        } while accept(UInt8(ascii: ","))
        try expect(UInt8(ascii: "]"), "to close an array")
        return .array(elements)
    }

    private mutating func literal(_ word: String) throws(Malformed) {
        for expected in word.utf8 {
            guard input.next() == expected else { throw fail("expected '\(word)'") }
        }
    }

    private mutating func number() throws(Malformed) -> ToolValue {
        var text: [UInt8] = []
        var isInteger = true
        while let byte = input.peek() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"): break
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "+"): isInteger = false
            default:
                return try finishNumber(text, isInteger: isInteger)
            }
            text.append(byte)
            _ = input.next()
        }
        return try finishNumber(text, isInteger: isInteger)
    }

    private func finishNumber(_ bytes: [UInt8], isInteger: Bool) throws(Malformed) -> ToolValue {
        let text = String(decoding: bytes, as: UTF8.self)
        guard Self.isJSONNumber(bytes) else { throw fail("'\(text)' is not a number") }
        if isInteger, let integer = Int64(text) { return .integer(integer) }
        guard let double = Double(text) else { throw fail("'\(text)' is not a number") }
        return .number(double)
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    private static func isJSONNumber(_ bytes: [UInt8]) -> Bool {
        var index = 0
        func digits() -> Int {
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - start
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let start = index
        let whole = digits()
        guard whole > 0, whole == 1 || bytes[start] != UInt8(ascii: "0") else { return false }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return false }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { return false }
        }
        return index == bytes.count
    }

    private mutating func string() throws(Malformed) -> String {
        _ = input.next()
        var bytes: [UInt8] = []
        while true {
            guard let byte = input.next() else { throw fail("a string is not closed") }
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: bytes, as: UTF8.self) else { throw fail("a string is not valid UTF-8") }
                return text
            case UInt8(ascii: "\\"):
                guard let escaped = input.next() else { throw fail("a string is not closed") }
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(escaped)
                case UInt8(ascii: "b"): bytes.append(0x08)
                case UInt8(ascii: "f"): bytes.append(0x0C)
                case UInt8(ascii: "n"): bytes.append(0x0A)
                case UInt8(ascii: "r"): bytes.append(0x0D)
                case UInt8(ascii: "t"): bytes.append(0x09)
                case UInt8(ascii: "u"): bytes += try unicodeEscape()
                default: throw fail("'\\\(Self.printable(escaped))' is not an escape")
                }
            case 0..<0x20: throw fail("a control character in a string must be escaped")
            default: bytes.append(byte)
            }
        }
    }

    /// `\uXXXX`, with a surrogate pair's second half, as UTF-8.
    private mutating func unicodeEscape() throws(Malformed) -> [UInt8] {
        var scalar = try hexQuad()
        if (0xD800..<0xDC00).contains(scalar) {
            guard input.next() == UInt8(ascii: "\\"), input.next() == UInt8(ascii: "u") else { throw fail("a lone surrogate in a string") }
            let low = try hexQuad()
            guard (0xDC00..<0xE000).contains(low) else { throw fail("a lone surrogate in a string") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw fail("a lone surrogate in a string") }
        return Array(String(Character(unicode)).utf8)
    }

    private mutating func hexQuad() throws(Malformed) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = input.next(), let digit = UInt32(String(UnicodeScalar(byte)), radix: 16) else { throw fail("a \\u escape needs four hex digits") }
            value = value << 4 | digit
        }
        return value
    }

    static func printable(_ byte: UInt8) -> String {
        (0x20..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : String(format: "\\x%02x", byte)
    }
}
