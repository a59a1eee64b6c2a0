/// Values written as bytes straight into an output buffer: the per-object text of an export,
/// made by the million, without a `String` for each value.
extension ToolValue {
    /// Appends this value's CSV field (RFC 4180) for a property that is not a mixed value:
    /// strings bare, collections and embedded objects as JSON, quoted when they hold a comma,
    /// a quote or a line break, or start or end with white space; `nil` is an empty field.
    func appendCSVField(to bytes: inout [UInt8]) {
        switch self {
        case .null: break
        case .bool(let flag): bytes.append(contentsOf: (flag ? "true" : "false").utf8)
        case .integer(let number): Self.appendDecimal(number, to: &bytes)
        case .number(let number): Self.appendNumber(number, to: &bytes)
        case .string(let text): Self.appendCSVText(text, to: &bytes)
        case .array, .object: Self.appendCSVText(json, to: &bytes)
        }
    }

    /// `text` as a CSV field: in quotes (its own quotes doubled) when it holds a comma, a quote
    /// or a line break, or starts or ends with white space.
    static func appendCSVText(_ text: String, to bytes: inout [UInt8]) {
        let utf8 = text.utf8
        let needsQuotes = utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
            || utf8.first == 0x20 || utf8.first == 0x09 || utf8.last == 0x20 || utf8.last == 0x09
        guard needsQuotes else {
            bytes.append(contentsOf: utf8)
            return
        }
        bytes.append(UInt8(ascii: "\""))
        for byte in utf8 {
            bytes.append(byte)
            if byte == UInt8(ascii: "\"") { bytes.append(byte) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// `number` in decimal digits.
    static func appendDecimal(_ number: Int64, to bytes: inout [UInt8]) {
        if number < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for 20 digits, no allocation
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[index]) }
        }
    }

    /// `number` as ``numberText(_:quotedWhenNotFinite:)`` writes it unquoted.
    static func appendNumber(_ number: Double, to bytes: inout [UInt8]) {
        // A whole number below 1e15 prints as "%.1f" does: its digits and ".0".
        if number.isFinite, number == number.rounded(), abs(number) < 1e15 {
            if number.sign == .minus { bytes.append(UInt8(ascii: "-")) }
            appendDecimal(Int64(number.magnitude), to: &bytes)
            bytes.append(contentsOf: ".0".utf8)
            return
        }
        bytes.append(contentsOf: numberText(number, quotedWhenNotFinite: false).utf8)
    }

    /// Appends this value as compact JSON (see ``json``).
    func appendJSON(to bytes: inout [UInt8]) {
        switch self {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let value): bytes.append(contentsOf: (value ? "true" : "false").utf8)
        case .integer(let value): Self.appendDecimal(value, to: &bytes)
        case .number(let value):
            if value.isFinite {
                Self.appendNumber(value, to: &bytes)
            } else {
                bytes.append(contentsOf: Self.numberText(value, quotedWhenNotFinite: true).utf8)
            }
        case .string(let value): Self.appendJSONString(value, to: &bytes)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                element.appendJSON(to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for index in members.indices {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                Self.appendJSONString(members[index].key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                members[index].value.appendJSON(to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// `value` as a JSON string: quotes, backslashes and control characters escaped.
    static func appendJSONString(_ value: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): bytes.append(contentsOf: "\\\\".utf8)
            case 0x0A: bytes.append(contentsOf: "\\n".utf8)
            case 0x0D: bytes.append(contentsOf: "\\r".utf8)
            case 0x09: bytes.append(contentsOf: "\\t".utf8)
            case 0..<0x20, 0x7F:
                bytes.append(contentsOf: "\\u00".utf8)
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
