/// Rounding, arithmetic and order: IEEE 754-2008 decimal128 rules, rounding half to even.
extension Decimal128 {
    /// `wide × 10^exponent` rounded to 34 digits and into the exponent range: past the largest
    /// value it is an infinity, below the smallest it rounds towards zero's subnormals. `sticky`
    /// says that digits below `wide`, already dropped, were not all zero.
    static func rounded(isNegative: Bool, wide: WideDecimal, exponent: Int, sticky: Bool = false) -> Decimal128 {
        var value = wide
        var exponent = exponent
        var sticky = sticky
        let digits = value.digitCount
        let drop = Swift.max(digits - maximumDigits, minimumExponent - exponent)
        if drop > digits {
            // Less than a tenth of the smallest unit: it rounds to zero.
            return Decimal128(kind: .finite, isNegative: isNegative, coefficient: 0, exponent: 0)
        }
        if drop > 0 {
            var remaining = drop
            while remaining > 1 {
                let step = Swift.min(remaining - 1, 38)
                let (quotient, remainder) = value.divided(byPowerOfTen: step)
                sticky = sticky || remainder != 0
                value = quotient
                remaining -= step
            }
            let (quotient, lastDigit) = value.divided(byPowerOfTen: 1)
            value = quotient
            let odd = value.low & 1 == 1
            if lastDigit > 5 || (lastDigit == 5 && (sticky || odd)) { value = value + WideDecimal(1) }
            exponent += drop
            if value.low == coefficientLimit && value.high == 0 {
                value = WideDecimal(power(of: maximumDigits - 1))
                exponent += 1
            }
        }
        var coefficient = value.low
        if exponent > maximumExponent {
            let shift = exponent - maximumExponent
            if coefficient == 0 {
                exponent = maximumExponent
            } else if shift <= maximumDigits - digitCount(coefficient) {
                coefficient *= power(of: shift)
                exponent = maximumExponent
            } else {
                return isNegative ? -infinity : infinity
            }
        }
        guard coefficient != 0 else { return Decimal128(kind: .finite, isNegative: isNegative, coefficient: 0, exponent: 0) }
        // Trailing zeros after the decimal point carry no value: dropped, so that a result
        // reads as what it is worth ("-1", not "-1.0").
        while exponent < 0 && coefficient % 10 == 0 {
            coefficient /= 10
            exponent += 1
        }
        return Decimal128(kind: .finite, isNegative: isNegative, coefficient: coefficient, exponent: exponent)
    }

    /// The sum, rounded half-to-even to 34 digits.
    public static func + (lhs: Decimal128, rhs: Decimal128) -> Decimal128 {
        if lhs.isNaN || rhs.isNaN { return .nan }
        if lhs.isInfinite || rhs.isInfinite {
            if lhs.isInfinite && rhs.isInfinite && lhs.isNegative != rhs.isNegative { return .nan }
            return lhs.isInfinite ? lhs : rhs
        }
        if lhs.isZero && rhs.isZero {
            return Decimal128(kind: .finite, isNegative: lhs.isNegative && rhs.isNegative, coefficient: 0, exponent: 0)
        }
        if lhs.isZero { return rhs }
        if rhs.isZero { return lhs }
        let (big, small) = lhs.exponent >= rhs.exponent ? (lhs, rhs) : (rhs, lhs)
        var bigCoefficient = WideDecimal(big.coefficient)
        var distance = big.exponent - small.exponent
        if distance > maximumDigits + 2 {
            // Fill the larger operand's 34 digits; what still lies below them is under half a
            // unit of its last digit, and rounds away.
            let fill = Swift.min(distance, maximumDigits - digitCount(big.coefficient))
            bigCoefficient = bigCoefficient.scaled(byPowerOfTen: fill)
            distance -= fill
            if distance > maximumDigits + 2 {
                return rounded(isNegative: big.isNegative, wide: bigCoefficient, exponent: big.exponent - fill, sticky: true)
            }
        }
        let aligned = bigCoefficient.scaled(byPowerOfTen: distance)
        let other = WideDecimal(small.coefficient)
        if big.isNegative == small.isNegative {
            return rounded(isNegative: big.isNegative, wide: aligned + other, exponent: small.exponent)
        }
        if aligned == other { return Decimal128() }
        return aligned > other ? rounded(isNegative: big.isNegative, wide: aligned - other, exponent: small.exponent)
                               : rounded(isNegative: small.isNegative, wide: other - aligned, exponent: small.exponent)
    }

    /// The difference, rounded half-to-even to 34 digits.
    public static func - (lhs: Decimal128, rhs: Decimal128) -> Decimal128 {
        lhs + -rhs
    }

    /// The product, rounded half-to-even to 34 digits.
    public static func * (lhs: Decimal128, rhs: Decimal128) -> Decimal128 {
        if lhs.isNaN || rhs.isNaN { return .nan }
        let negative = lhs.isNegative != rhs.isNegative
        if lhs.isInfinite || rhs.isInfinite {
            if lhs.isZero || rhs.isZero { return .nan }
            return negative ? -infinity : infinity
        }
        return rounded(isNegative: negative, wide: .product(lhs.coefficient, rhs.coefficient), exponent: lhs.exponent + rhs.exponent)
    }

    /// The quotient, rounded half-to-even to 34 digits; dividing by zero gives infinity or NaN.
    public static func / (lhs: Decimal128, rhs: Decimal128) -> Decimal128 {
        if lhs.isNaN || rhs.isNaN { return .nan }
        let negative = lhs.isNegative != rhs.isNegative
        if lhs.isInfinite {
            if rhs.isInfinite { return .nan }
            return negative ? -infinity : infinity
        }
        if rhs.isInfinite { return Decimal128(kind: .finite, isNegative: negative, coefficient: 0, exponent: 0) }
        if rhs.isZero {
            if lhs.isZero { return .nan }
            return negative ? -infinity : infinity
        }
        if lhs.isZero { return Decimal128(kind: .finite, isNegative: negative, coefficient: 0, exponent: 0) }
        // Scale the dividend so that the quotient has 35 or 36 digits: one more than is kept.
        let scale = Swift.max(0, maximumDigits + 1 + digitCount(rhs.coefficient) - digitCount(lhs.coefficient))
        let dividend = WideDecimal(lhs.coefficient).scaled(byPowerOfTen: scale)
        let (quotient, remainder) = rhs.coefficient.dividingFullWidth((dividend.high, dividend.low))
        return rounded(isNegative: negative, wide: WideDecimal(quotient), exponent: lhs.exponent - rhs.exponent - scale,
                       sticky: remainder != 0)
    }

    /// Adds `rhs` to `lhs`.
    public static func += (lhs: inout Decimal128, rhs: Decimal128) { lhs = lhs + rhs }
    /// Subtracts `rhs` from `lhs`.
    public static func -= (lhs: inout Decimal128, rhs: Decimal128) { lhs = lhs - rhs }
    /// Multiplies `lhs` by `rhs`.
    public static func *= (lhs: inout Decimal128, rhs: Decimal128) { lhs = lhs * rhs }
    /// Divides `lhs` by `rhs`.
    public static func /= (lhs: inout Decimal128, rhs: Decimal128) { lhs = lhs / rhs }

    public static prefix func - (operand: Decimal128) -> Decimal128 {
        Decimal128(kind: operand.kind, isNegative: !operand.isNegative, coefficient: operand.coefficient, exponent: operand.exponent)
    }

    /// Flips the sign.
    public mutating func negate() {
        self = -self
    }

    /// `other - self`.
    public func distance(to other: Decimal128) -> Decimal128 { other - self }

    /// `self + amount`.
    public func advanced(by amount: Decimal128) -> Decimal128 { self + amount }

    // MARK: Order

    /// -1, 0 or 1 as `lhs` is below, equal to or above `rhs`; `nil` when either is NaN.
    static func order(_ lhs: Decimal128, _ rhs: Decimal128) -> Int? {
        if lhs.isNaN || rhs.isNaN { return nil }
        let (leftSign, rightSign) = (lhs.signum, rhs.signum)
        if leftSign != rightSign { return leftSign < rightSign ? -1 : 1 }
        if leftSign == 0 { return 0 }
        if lhs.isInfinite || rhs.isInfinite {
            if lhs.isInfinite && rhs.isInfinite { return 0 }
            return (lhs.isInfinite ? 1 : -1) * leftSign
        }
        return magnitudeOrder(lhs, rhs) * leftSign
    }

    /// -1, 0 or 1: the sign of a non-NaN value, zero for either zero.
    private var signum: Int {
        if isZero { return 0 }
        return isNegative ? -1 : 1
    }

    /// The order of the magnitudes of two non-zero finite values.
    private static func magnitudeOrder(_ lhs: Decimal128, _ rhs: Decimal128) -> Int {
        let (leftDigits, rightDigits) = (digitCount(lhs.coefficient), digitCount(rhs.coefficient))
        let (leftPlace, rightPlace) = (leftDigits + lhs.exponent, rightDigits + rhs.exponent)
        if leftPlace != rightPlace { return leftPlace < rightPlace ? -1 : 1 }
        // The same leading place: compare the digits, the shorter padded with zeros.
        let left = leftDigits < rightDigits ? lhs.coefficient * power(of: rightDigits - leftDigits) : lhs.coefficient
        let right = rightDigits < leftDigits ? rhs.coefficient * power(of: leftDigits - rightDigits) : rhs.coefficient
        return left == right ? 0 : (left < right ? -1 : 1)
    }
}

extension Decimal128: Hashable, Comparable {
    /// Equal in value: `1.0 == 1.00` and `0 == -0`; NaN equals nothing.
    public static func == (lhs: Decimal128, rhs: Decimal128) -> Bool {
        order(lhs, rhs) == 0
    }

    /// Ordered by value; NaN is ordered with nothing.
    public static func < (lhs: Decimal128, rhs: Decimal128) -> Bool {
        order(lhs, rhs).map { $0 < 0 } ?? false
    }

    /// Ordered by value; NaN is ordered with nothing.
    public static func <= (lhs: Decimal128, rhs: Decimal128) -> Bool {
        order(lhs, rhs).map { $0 <= 0 } ?? false
    }

    /// Ordered by value; NaN is ordered with nothing.
    public static func > (lhs: Decimal128, rhs: Decimal128) -> Bool {
        order(lhs, rhs).map { $0 > 0 } ?? false
    }

    /// Ordered by value; NaN is ordered with nothing.
    public static func >= (lhs: Decimal128, rhs: Decimal128) -> Bool {
        order(lhs, rhs).map { $0 >= 0 } ?? false
    }

    /// Hashes the value, not its digits: equal values hash alike.
    public func hash(into hasher: inout Hasher) {
        let reduced = normalized
        hasher.combine(kind == .nan ? 2 : kind == .infinity ? 1 : 0)
        hasher.combine(reduced.isZero ? false : reduced.isNegative)
        hasher.combine(reduced.coefficient)
        hasher.combine(reduced.exponent)
    }
}

extension Decimal128: SignedNumeric {
    /// `source` exactly, or `nil` when it has more than 34 digits.
    public init?<T: BinaryInteger>(exactly source: T) {
        // Trailing zeros go into the exponent: only the other digits must fit.
        let significant = String(source.magnitude).reversed().drop { $0 == "0" }
        guard significant.count <= Decimal128.maximumDigits else { return nil }
        self.init(number: source)
    }

    /// The integer written, as in `let price: Decimal128 = 12`.
    public init(integerLiteral value: Int64) {
        self.init(number: value)
    }
}
