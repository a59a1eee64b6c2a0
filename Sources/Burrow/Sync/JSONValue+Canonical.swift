extension JSONValue {
    /// The value with one spelling for each meaning: object members sorted by key, numbers in
    /// plain decimal notation without trailing zeros (`1e+20` and `100000000000000000000`,
    /// `1.50` and `1.5`, `-0` and `0` are one). PostgreSQL's `jsonb` reorders members and
    /// respells numbers, so values that went through the server are compared in this form.
    var canonical: JSONValue {
        switch self {
        case .null, .bool, .string: self
        case .number(let text): .number(Self.plainNumber(text))
        case .array(let items): .array(items.map(\.canonical))
        case .object(let members):
            .object(members.map { ($0.0, $0.1.canonical) }.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) })
        }
    }

    /// The canonical value's text, in ASCII: what identifies an element of a synced set, and
    /// tells two values apart, byte for byte (``asciiText``).
    var canonicalText: String { canonical.asciiText }

    /// `text`, a JSON number, in plain decimal notation: no exponent, no leading zeros, no
    /// trailing zeros after the point, no sign on zero.
    static func plainNumber(_ text: String) -> String {
        var bytes = Array(text.utf8)
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { bytes.removeFirst() }
        var exponent = 0
        if let marker = bytes.firstIndex(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
            // Exponents beyond this are not numbers any property holds; the text is kept.
            guard let value = Int(String(decoding: bytes[(marker + 1)...], as: UTF8.self)), value > -100_000, value < 100_000 else { return text }
            exponent = value
            bytes.removeSubrange(marker...)
        }
        var digits = bytes
        var pointAt = digits.count
        if let point = digits.firstIndex(of: UInt8(ascii: ".")) {
            digits.remove(at: point)
            pointAt = point
        }
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return text }
        pointAt += exponent
        // Pad so that the point falls within the digits.
        if pointAt < 1 {
            digits.insert(contentsOf: repeatElement(UInt8(ascii: "0"), count: 1 - pointAt), at: 0)
            pointAt = 1
        }
        if pointAt > digits.count { digits.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: pointAt - digits.count)) }
        var whole = Array(digits[..<pointAt].drop { $0 == UInt8(ascii: "0") })
        var fraction = Array(digits[pointAt...])
        while fraction.last == UInt8(ascii: "0") { fraction.removeLast() }
        if whole.isEmpty { whole = [UInt8(ascii: "0")] }
        let isZero = whole == [UInt8(ascii: "0")] && fraction.isEmpty
        var result = negative && !isZero ? "-" : ""
        result += String(decoding: whole, as: UTF8.self)
        if !fraction.isEmpty { result += "." + String(decoding: fraction, as: UTF8.self) }
        return result
    }
}
