import Foundation

/// Decimal text: parsing, the description, literals and `Codable` (as the text).
extension Decimal128: CustomStringConvertible, ExpressibleByFloatLiteral, ExpressibleByStringLiteral, Codable {
    /// The value as text: plain digits (`"1234.5"`, `"0.000123"`), or `d.dddEn` when the
    /// exponent is far from zero (`"1.5E40"`, `"1E-9"`); `"NaN"`, `"Inf"`, `"-Inf"`.
    public var stringValue: String {
        switch kind {
        case .nan: return "NaN"
        case .infinity: return isNegative ? "-Inf" : "Inf"
        case .finite: break
        }
        let sign = isNegative && coefficient != 0 ? "-" : ""
        let digits = String(coefficient)
        let place = digits.count + exponent  // digits before the decimal point
        if exponent >= 0 && place <= Self.maximumDigits {
            return sign + digits + String(repeating: "0", count: coefficient == 0 ? 0 : exponent)
        }
        if exponent < 0 && place > 0 {
            return sign + digits.prefix(place) + "." + digits.dropFirst(place)
        }
        if exponent < 0 && place > -6 {
            return sign + "0." + String(repeating: "0", count: -place) + digits
        }
        // Scientific: the digits without their trailing zeros, which the exponent carries.
        let significant = String(digits.reversed().drop { $0 == "0" }.reversed())
        let mantissa = significant.count == 1 ? significant : significant.prefix(1) + "." + significant.dropFirst()
        return sign + mantissa + "E" + String(place - 1)
    }

    public var description: String { stringValue }

    public init(floatLiteral value: Double) {
        self.init(number: value)
    }

    /// A decimal from its text; traps on text that is not a decimal.
    public init(stringLiteral value: String) {
        guard let parsed = Self.parse(value) else { burrowPreconditionFailure("'\(value)' is not a valid Decimal128 string.") }
        self = parsed
    }

    /// Reads the text form, or a JSON number.
    ///
    /// - Throws: `DecodingError.dataCorrupted` for anything else.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            guard let parsed = Self.parse(text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not a valid Decimal128 string.")
            }
            self = parsed
        } else if let integer = try? container.decode(Int64.self) {
            self.init(number: integer)
        } else if let double = try? container.decode(Double.self) {
            self.init(number: double)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Cannot convert value to Decimal128.")
        }
    }

    /// Writes the text form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(stringValue)
    }

    // MARK: Parsing

    /// The decimal `text` spells, or `nil`.
    static func parse(_ text: String) -> Decimal128? {
        var bytes = Substring(text).utf8[...]
        var negative = false
        if let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            negative = first == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        switch String(Substring(bytes)).lowercased() {
        case "nan": return .nan
        case "inf", "infinity": return negative ? -infinity : infinity
        default: break
        }
        // Up to 40 significant digits are kept; those after only decide the rounding.
        var kept = WideDecimal(0)
        var keptCount = 0, exponent = 0, sticky = false, sawDigit = false, sawPoint = false
        while let byte = bytes.first, byte == UInt8(ascii: ".") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
            bytes = bytes.dropFirst()
            if byte == UInt8(ascii: ".") {
                guard !sawPoint else { return nil }
                sawPoint = true
                continue
            }
            sawDigit = true
            let digit = UInt128(byte - UInt8(ascii: "0"))
            if keptCount == 0 && digit == 0 {
                if sawPoint { exponent -= 1 }
                continue
            }
            if keptCount < 40 {
                kept = kept.multiplied(by: 10) + WideDecimal(digit)
                keptCount += 1
                if sawPoint { exponent -= 1 }
            } else {
                sticky = sticky || digit != 0
                if !sawPoint { exponent += 1 }
            }
        }
        guard sawDigit else { return nil }
        if let marker = bytes.first, marker == UInt8(ascii: "e") || marker == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            var exponentNegative = false
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                exponentNegative = sign == UInt8(ascii: "-")
                bytes = bytes.dropFirst()
            }
            guard !bytes.isEmpty, bytes.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
            // Exponents past any representable one only need to stay past it.
            let written = bytes.reduce(0) { Swift.min($0 * 10 + Int($1 - UInt8(ascii: "0")), 1_000_000) }
            exponent += exponentNegative ? -written : written
            bytes = bytes[bytes.endIndex...]
        }
        guard bytes.isEmpty else { return nil }
        return rounded(isNegative: negative, wide: kept, exponent: exponent, sticky: sticky)
    }
}
