import Foundation

/// Decimal text: parsing, the description, literals and `Codable` (as the text).
extension Decimal128: CustomStringConvertible, ExpressibleByFloatLiteral, ExpressibleByStringLiteral, Codable {
    /// The value as text, as RealmSwift writes it: the coefficient's digits with the decimal
    /// point moved left until the exponent is used up or one digit is left before the point,
    /// the exponent that remains as `En`, and trailing zeros after the point dropped
    /// (`"2.50"` is `"2.5"`, `"0.00123"` is `"1.23E-3"`, `"123e4"` is `"1.23E6"`, `"1000"` is
    /// `"1000"`); `"NaN"`, `"Inf"` and `"-Inf"`. Zero is `"0"` (or `"-0"`) whatever its
    /// exponent, which Burrow does not keep (RealmSwift writes `"0.000"` as `"0E-3"`). A
    /// coefficient of more than 64 bits (20 digits and up, such as `1 / 3`) is written whole,
    /// signed, with a signed exponent: `"+3333333333333333333333333333333333E-34"`.
    ///
    /// ```swift
    /// Decimal128("19.99").stringValue      // "19.99"
    /// Decimal128("123e4").stringValue      // "1.23E6"
    /// ```
    public var stringValue: String {
        let sign = isNegative ? "-" : ""
        switch kind {
        case .nan: return sign + "NaN"
        case .infinity: return sign + "Inf"
        case .finite: break
        }
        guard !hasWideCoefficient else {
            return (isNegative ? "-" : "+") + String(coefficient) + "E" + (exponent < 0 ? "-" : "+") + String(exponent.magnitude)
        }
        let digits = String(coefficient)
        var digitsBeforePoint = digits.count, exponent = self.exponent
        while digitsBeforePoint > 1 && exponent != 0 {
            digitsBeforePoint -= 1
            exponent += 1
        }
        var fraction = digits.dropFirst(digitsBeforePoint)
        while fraction.last == "0" { fraction = fraction.dropLast() }
        var text = sign + digits.prefix(digitsBeforePoint)
        if !fraction.isEmpty { text += "." + fraction }
        if exponent != 0 { text += "E" + String(exponent) }
        return text
    }

    /// Whether the coefficient needs more than 64 bits: ``stringValue`` then writes the signed
    /// whole form, which the query language does not read.
    var hasWideCoefficient: Bool { coefficient > UInt128(UInt64.max) }

    /// The value as its coefficient and exponent (`"-12345E-2"`), which `Double` and
    /// `Decimal` read.
    var coefficientAndExponentText: String {
        (isNegative ? "-" : "") + String(coefficient) + "E" + String(exponent)
    }

    /// The value as text: ``stringValue``.
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
