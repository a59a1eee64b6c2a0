/// An unsigned 256-bit integer: the coefficient of a ``Decimal128`` result before it is
/// rounded back to 34 digits (a product of two coefficients, or one scaled for a sum or a
/// quotient, stays below 10⁷⁰).
struct WideDecimal: Comparable, Sendable {
    var high: UInt128
    var low: UInt128

    init(_ value: UInt128) {
        high = 0
        low = value
    }

    init(high: UInt128, low: UInt128) {
        self.high = high
        self.low = low
    }

    var isZero: Bool { high == 0 && low == 0 }

    /// `a × b`, exactly.
    static func product(_ a: UInt128, _ b: UInt128) -> WideDecimal {
        let (high, low) = a.multipliedFullWidth(by: b)
        return WideDecimal(high: high, low: low)
    }

    /// The value times 10ⁿ; the caller keeps it below 2²⁵⁶.
    func scaled(byPowerOfTen exponent: Int) -> WideDecimal {
        var result = self
        var remaining = exponent
        while remaining > 0 {
            let step = Swift.min(remaining, 38)
            result = result.multiplied(by: Decimal128.power(of: step))
            remaining -= step
        }
        return result
    }

    /// The value times `factor`, dropping what overflows 256 bits (callers stay below).
    func multiplied(by factor: UInt128) -> WideDecimal {
        let (lowCarry, lowPart) = low.multipliedFullWidth(by: factor)
        let highPart = high &* factor
        return WideDecimal(high: highPart &+ lowCarry, low: lowPart)
    }

    static func + (a: WideDecimal, b: WideDecimal) -> WideDecimal {
        let (low, carry) = a.low.addingReportingOverflow(b.low)
        return WideDecimal(high: a.high &+ b.high &+ (carry ? 1 : 0), low: low)
    }

    /// `a - b` for `a >= b`.
    static func - (a: WideDecimal, b: WideDecimal) -> WideDecimal {
        let (low, borrow) = a.low.subtractingReportingOverflow(b.low)
        return WideDecimal(high: a.high &- b.high &- (borrow ? 1 : 0), low: low)
    }

    static func < (a: WideDecimal, b: WideDecimal) -> Bool {
        a.high != b.high ? a.high < b.high : a.low < b.low
    }

    /// The quotient and remainder of a division by 10ⁿ, n from 1 to 38.
    func divided(byPowerOfTen exponent: Int) -> (quotient: WideDecimal, remainder: UInt128) {
        let divisor = Decimal128.power(of: exponent)
        let (highQuotient, highRemainder) = high.quotientAndRemainder(dividingBy: divisor)
        let (lowQuotient, remainder) = divisor.dividingFullWidth((highRemainder, low))
        return (WideDecimal(high: highQuotient, low: lowQuotient), remainder)
    }

    /// The number of decimal digits (1 for zero).
    var digitCount: Int {
        guard high != 0 else { return Decimal128.digitCount(low) }
        var digits = 38
        var rest = divided(byPowerOfTen: 38).quotient
        while rest.high != 0 {
            rest = rest.divided(byPowerOfTen: 1).quotient
            digits += 1
        }
        return digits + Decimal128.digitCount(rest.low)
    }
}
