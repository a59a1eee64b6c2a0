/// The stored forms of a decimal: IEEE 754's binary integer decimal (BID) interchange format
/// in rows, and an order-preserving byte string in index keys.
extension Decimal128 {
    /// The 128 bits of the BID encoding: the low and high 64-bit words.
    var bid: (low: UInt64, high: UInt64) { (low, high) }

    /// The decimal of a BID encoding, or `nil` when the bits are not one Burrow writes: a
    /// coefficient of 10³⁴ or more (non-canonical) or an exponent out of range.
    init?(bid low: UInt64, high: UInt64) {
        let negative = high & Self.signBit != 0
        if high & Self.specialMask == Self.nanBits {
            self = .nan
            return
        }
        if high & Self.specialMask == Self.infinityBits {
            self = negative ? -Self.infinity : Self.infinity
            return
        }
        // A combination field starting with two ones spells a coefficient past 2¹¹³.
        guard high & 0x6000_0000_0000_0000 != 0x6000_0000_0000_0000 else { return nil }
        let biased = Int((high >> 49) & 0x3FFF)
        let coefficient = UInt128(high & 0x1_FFFF_FFFF_FFFF) << 64 | UInt128(low)
        guard coefficient < Self.coefficientLimit, biased - Self.exponentBias <= Self.maximumExponent else { return nil }
        self.init(low: low, high: high)
    }

    /// Bytes whose order is the values' order, equal for equal values (`1.0` and `1.00`):
    /// a class byte (-∞, negative, zero, positive, +∞, NaN), then for a non-zero value its
    /// leading place and its digits (both complemented when negative) and an end byte.
    var orderedKey: [UInt8] {
        switch kind {
        case .nan: return [5]
        case .infinity: return [isNegative ? 0 : 4]
        case .finite where coefficient == 0: return [2]
        case .finite: break
        }
        let reduced = normalized
        let digits = Array(String(reduced.coefficient).utf8)
        // The leading digit's place, from -6176 to 6144, shifted to stay positive.
        let place = UInt16(digits.count + reduced.exponent + 8192)
        var key: [UInt8] = [isNegative ? 1 : 3]
        let placeBytes = [UInt8(place >> 8), UInt8(place & 0xFF)]
        if isNegative {
            key += placeBytes.map { ~$0 } + digits.map { ~$0 } + [0xFF]
        } else {
            key += placeBytes + digits + [0x00]
        }
        return key
    }
}
