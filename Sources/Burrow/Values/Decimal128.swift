import Foundation

/// A 128-bit IEEE 754-2008 decimal floating-point number, as RealmSwift's `Decimal128`: up to
/// 34 significant digits and an exponent from -6176 to 6111, so decimal fractions such as
/// `0.1` are exact, with `NaN` and infinities.
///
/// ```swift
/// let price: Decimal128 = "19.99"
/// let total = price * 3           // 59.97, exactly
/// let rate = Decimal128(number: 0.07)
/// (total * rate).description      // "4.1979"
/// ```
///
/// Arithmetic rounds half to even to 34 digits. Values compare and hash by what they are worth
/// (`1.0 == 1.00`); a description is RealmSwift's (``stringValue``). A `Double`
/// converts through its shortest 15-significant-digit form, so `Decimal128(number: 0.1)` is
/// exactly 0.1.
public struct Decimal128: Sendable {
    /// What a value is besides a number.
    enum Kind: Sendable {
        case finite
        case infinity
        case nan
    }

    // The value is kept in its BID interchange encoding, 16 bytes as stored: a stored value is
    // what a row's values array carries, and a wider struct would widen every one of them.
    /// The low 64 bits of the coefficient.
    let low: UInt64
    /// The sign, the combination field (biased exponent or NaN and infinity) and the
    /// coefficient's high 49 bits.
    let high: UInt64

    static let exponentBias = 6176
    static let signBit: UInt64 = 1 << 63
    static let specialMask: UInt64 = 0x7C00_0000_0000_0000
    static let nanBits: UInt64 = 0x7C00_0000_0000_0000
    static let infinityBits: UInt64 = 0x7800_0000_0000_0000

    var kind: Kind {
        switch high & Self.specialMask {
        case Self.nanBits: .nan
        case Self.infinityBits: .infinity
        default: .finite
        }
    }

    var isNegative: Bool { high & Self.signBit != 0 }

    /// At most 34 digits (below 10³⁴); 0 for NaN and infinities.
    var coefficient: UInt128 {
        kind == .finite ? UInt128(high & 0x1_FFFF_FFFF_FFFF) << 64 | UInt128(low) : 0
    }

    /// The power of ten the coefficient is scaled by, from ``minimumExponent`` to ``maximumExponent``.
    var exponent: Int {
        kind == .finite ? Int((high >> 49) & 0x3FFF) - Self.exponentBias : 0
    }

    static let maximumDigits = 34
    static let minimumExponent = -6176
    static let maximumExponent = 6111
    static let coefficientLimit = power(of: 34)

    init(kind: Kind, isNegative: Bool, coefficient: UInt128, exponent: Int) {
        let sign = isNegative ? Self.signBit : 0
        switch kind {
        case .nan:
            (low, high) = (0, Self.nanBits)
        case .infinity:
            (low, high) = (0, sign | Self.infinityBits)
        case .finite:
            low = UInt64(truncatingIfNeeded: coefficient)
            high = sign | UInt64(exponent + Self.exponentBias) << 49 | UInt64(truncatingIfNeeded: coefficient >> 64)
        }
    }

    /// A value of trusted bits.
    init(low: UInt64, high: UInt64) {
        self.low = low
        self.high = high
    }

    /// Zero.
    public init() {
        self.init(kind: .finite, isNegative: false, coefficient: 0, exponent: 0)
    }

    /// The decimal of `number`: integers exactly, a `Double` or `Float` through its
    /// 15-significant-digit form, a `Bool` as 0 or 1.
    ///
    /// ```swift
    /// Decimal128(number: 3.14159) == "3.14159"   // true
    /// ```
    public init(number: some BinaryFloatingPoint) {
        let value = Double(number)
        if value.isNaN {
            self = .nan
        } else if value.isInfinite {
            self = value < 0 ? -.infinity : .infinity
        } else {
            // The %g text of 15 significant digits always parses.
            self = Self.parse(String(format: "%.15g", value))!
        }
    }

    /// The decimal of an `NSNumber`: its integers exactly, its doubles as for a `Double`.
    ///
    /// ```swift
    /// Decimal128(number: 42 as NSNumber) == 42   // true
    /// ```
    public init(number: NSNumber) {
        switch String(cString: number.objCType) {
        case "d", "f": self.init(number: number.doubleValue)
        case "Q", "L", "I", "S", "C": self.init(number: number.uint64Value)
        default: self.init(number: number.int64Value)
        }
    }

    /// The decimal of an integer, exactly (rounded to 34 digits past 10³⁴).
    public init(number: some BinaryInteger) {
        let magnitude = number.magnitude
        if let narrow = UInt128(exactly: magnitude) {
            self = Self.rounded(isNegative: number < 0, wide: WideDecimal(narrow), exponent: 0)
        } else {
            self = Self.parse(String(number))!
        }
    }

    /// The decimal of a number, a numeric string, another decimal or a `Decimal`, and NaN for
    /// `NSNull` (no value); traps on a value that is none of these, as RealmSwift's does.
    ///
    /// ```swift
    /// Decimal128(value: "1.5") == Decimal128(value: 1.5)   // true
    /// ```
    public init(value: Any) {
        switch value {
        case let decimal as Decimal128: self = decimal
        case let decimal as Decimal: self = Decimal128(decimal)
        case let integer as any BinaryInteger: self.init(number: integer)
        case let double as any BinaryFloatingPoint: self.init(number: double)
        case let bool as Bool: self.init(number: bool ? 1 : 0)
        case is NSNull: self = .nan
        case let text as String:
            guard let parsed = Self.parse(text) else { burrowPreconditionFailure("'\(text)' is not a valid Decimal128 string.") }
            self = parsed
        default:
            burrowPreconditionFailure("Cannot convert value '\(value)' of type '\(type(of: value))' to Decimal128.")
        }
    }

    /// Parses `string`: digits with an optional sign, decimal point and exponent (`-1.5E+3`),
    /// or `NaN`, `Inf`, `Infinity` with an optional sign, in any case. More than 34 digits are
    /// rounded half to even.
    ///
    /// - Throws: ``Realm/Error`` with code `.fail` for any other text.
    public init(string: String) throws {
        guard let parsed = Self.parse(string) else {
            throw Realm.Error(.fail, "'\(string)' is not a valid Decimal128 string.")
        }
        self = parsed
    }

    /// The decimal of a Foundation `Decimal`, rounded to 34 digits.
    public init(_ decimal: Decimal) {
        if decimal.isNaN {
            self = .nan
        } else {
            self = Self.parse(decimal.description)!
        }
    }

    /// Not a number: unequal to everything, itself included.
    public static let nan = Decimal128(kind: .nan, isNegative: false, coefficient: 0, exponent: 0)
    /// Positive infinity.
    public static let infinity = Decimal128(kind: .infinity, isNegative: false, coefficient: 0, exponent: 0)
    /// The largest finite value: 34 nines times 10⁶¹¹¹.
    public static var max: Decimal128 {
        Decimal128(kind: .finite, isNegative: false, coefficient: coefficientLimit - 1, exponent: maximumExponent)
    }
    /// The smallest (most negative) finite value.
    public static var min: Decimal128 { -max }

    /// Whether the value is not a number.
    public var isNaN: Bool { kind == .nan }
    /// Whether the value is a signaling NaN; Burrow's NaNs are quiet, so the same as ``isNaN``.
    public var isSignalingNaN: Bool { isNaN }
    /// The same as ``isNaN``, as RealmSwift names it.
    public var isSignaling: Bool { isNaN }
    /// Whether the value is infinite.
    public var isInfinite: Bool { kind == .infinity }
    /// Whether the value is finite.
    public var isFinite: Bool { kind == .finite }
    /// Whether the value is zero (of either sign).
    public var isZero: Bool { kind == .finite && coefficient == 0 }

    /// The value without its sign.
    public var magnitude: Decimal128 {
        Decimal128(kind: kind, isNegative: false, coefficient: coefficient, exponent: exponent)
    }

    /// The nearest `Double`.
    public var doubleValue: Double {
        switch kind {
        case .nan: .nan
        case .infinity: isNegative ? -.infinity : .infinity
        case .finite: Double(coefficientAndExponentText) ?? .nan
        }
    }

    /// The value as a Foundation `Decimal`, which holds 38 digits but exponents only from -128
    /// to 127: `nil` outside that range and for NaN and infinities.
    public var decimalValue: Decimal? {
        guard kind == .finite else { return nil }
        let reduced = normalized
        let digits = Self.digitCount(reduced.coefficient)
        guard reduced.exponent >= -128, reduced.exponent + digits <= 127 + 38 else { return nil }
        return Decimal(string: reduced.coefficientAndExponentText, locale: Locale(identifier: "en_US_POSIX"))
    }

    /// The value with every trailing zero of its coefficient taken into its exponent.
    var normalized: Decimal128 {
        guard kind == .finite, coefficient != 0 else {
            return Decimal128(kind: kind, isNegative: kind == .finite ? false : isNegative, coefficient: 0, exponent: 0)
        }
        var coefficient = self.coefficient, exponent = self.exponent
        while coefficient % 10 == 0 && exponent < Self.maximumExponent {
            coefficient /= 10
            exponent += 1
        }
        return Decimal128(kind: .finite, isNegative: isNegative, coefficient: coefficient, exponent: exponent)
    }

    // MARK: Powers of ten

    private static let powers: [UInt128] = (0...38).map { exponent in
        (0..<exponent).reduce(UInt128(1)) { value, _ in value * 10 }
    }

    /// 10ⁿ for n from 0 to 38.
    static func power(of exponent: Int) -> UInt128 {
        powers[exponent]
    }

    /// The number of decimal digits of `value` (1 for zero).
    static func digitCount(_ value: UInt128) -> Int {
        var digits = 1
        while digits < 39 && value >= powers[digits] { digits += 1 }
        return digits
    }
}
