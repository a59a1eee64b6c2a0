import Burrow
import Foundation
import Testing

@Suite struct Decimal128Tests {
    @Test func literalsNumbersAndStringsAgree() throws {
        let fromFloat: Decimal128 = 3.14159
        let fromNumber = Decimal128(number: 3.14159)
        let fromInteger: Decimal128 = 123
        let fromString: Decimal128 = "9.876543"
        #expect(fromFloat == fromNumber)
        #expect(fromFloat == "3.14159")
        #expect(fromInteger == "123")
        #expect(fromString.description == "9.876543")
        #expect(Decimal128(exactly: 0b101) == 5)
        #expect(Decimal128(number: 0.1) == "0.1")
        #expect(Decimal128(value: "2.5") == Decimal128(value: 2.5))
        #expect(Decimal128(value: Decimal(string: "1.25")!) == "1.25")
        #expect(Decimal128(value: Int8(-3)) == -3)
        #expect(try Decimal128(string: "-1.5E+3") == -1500)
        #expect(try Decimal128(string: ".5") == 0.5)
        #expect(Decimal128() == 0)
        #expect(Decimal128.zero == 0)
    }

    @Test func arithmeticIsExactInDecimal() {
        #expect((Decimal128("3.144444") + "3.144444") == "6.288888")
        #expect((Decimal128("1.234567") + "9.876543").description == "11.11111")
        #expect((Decimal128("2.5") - "3.5").description == "-1")
        #expect(Decimal128(7) / 3.5 == 2)
        #expect(Decimal128("0.21") / "0.7" == "0.3")
        #expect(Decimal128(7) * 3.5 == 24.5)
        #expect(Decimal128("0.21") * "0.7" == "0.147")
        #expect((Decimal128("0.1") + "0.2") == "0.3")
        #expect((Decimal128("19.99") * 3).description == "59.97")
        var total: Decimal128 = 10
        total += 5
        total -= 1
        total *= 2
        total /= 4
        #expect(total == 7)
        #expect(-Decimal128("1.5") == "-1.5")
        var flipped: Decimal128 = 2
        flipped.negate()
        #expect(flipped == -2)
        #expect(Decimal128("-4.5").magnitude == "4.5")
        #expect(Decimal128(2).distance(to: 5) == 3)
        #expect(Decimal128(2).advanced(by: "0.5") == "2.5")
    }

    @Test func resultsRoundHalfToEvenAt34Digits() throws {
        let third = Decimal128(1) / 3
        // A coefficient wider than 64 bits is written whole, as RealmSwift writes it.
        #expect(third.description == "+" + String(repeating: "3", count: 34) + "E-34")
        #expect((Decimal128(2) / 3).description == "+" + String(repeating: "6", count: 33) + "7E-34")
        // 35 digits: the last one is dropped, ties going to the even neighbour.
        #expect(try Decimal128(string: "1" + String(repeating: "0", count: 33) + "5").description == "+1" + String(repeating: "0", count: 33) + "E+1")
        #expect(try Decimal128(string: "1" + String(repeating: "0", count: 32) + "15") == Decimal128(string: "1" + String(repeating: "0", count: 32) + "2E1"))
        #expect(try Decimal128(string: "1" + String(repeating: "0", count: 32) + "25") == Decimal128(string: "1" + String(repeating: "0", count: 32) + "2E1"))
        // 10³⁴ - 1 plus one more unit carries into a new digit.
        let nines = try Decimal128(string: String(repeating: "9", count: 34))
        #expect((nines + 1).description == "+1" + String(repeating: "0", count: 33) + "E+1")
        #expect((nines * nines).description == "+" + String(repeating: "9", count: 33) + "8E+34")
        // A sum where one side is far below the other's last digit.
        #expect(try Decimal128(string: "1E100") + 5 == Decimal128(string: "1E100"))
        #expect(try Decimal128(string: "1E-100") + 1 == 1)
    }

    @Test func theRangeEndsInInfinityAndSubnormals() throws {
        #expect(Decimal128.max.description == "+" + String(repeating: "9", count: 34) + "E+6111")
        #expect(Decimal128.min == -Decimal128.max)
        #expect((Decimal128.max * 10).isInfinite)
        #expect((Decimal128.max + Decimal128.max) == .infinity)
        #expect(try Decimal128(string: "1E6145").isInfinite)
        #expect(try Decimal128(string: "1E-6176") > 0)
        #expect(try Decimal128(string: "1E-6177") == 0)
        #expect(try Decimal128(string: "1E-9999999") == 0)
        #expect(try Decimal128(string: "1E6144") == Decimal128(string: "1" + String(repeating: "0", count: 33) + "E6111"))
        #expect(try (Decimal128(string: "1E-6176") / 10) == 0)
    }

    @Test func notANumberAndInfinitiesFollowIEEE() throws {
        let nan = Decimal128.nan
        #expect(nan.isNaN && nan.isSignaling && nan.isSignalingNaN)
        #expect(Decimal128(value: NSNull()).isNaN)
        #expect(Decimal128(number: 42 as NSNumber) == 42 && Decimal128(number: 2.5 as NSNumber) == Decimal128(number: 2.5))
        #expect(Decimal128(number: NSNumber(value: UInt64.max)) == Decimal128(number: UInt64.max))
        #expect(nan != nan)
        #expect(!(nan < 1) && !(nan > 1) && !(nan == 1))
        #expect((nan + 1).isNaN)
        #expect((Decimal128.infinity - .infinity).isNaN)
        #expect((Decimal128.infinity * 0).isNaN)
        #expect((Decimal128(0) / 0).isNaN)
        #expect(Decimal128(1) / 0 == .infinity)
        #expect(Decimal128(-1) / 0 == -.infinity)
        #expect(Decimal128(5) / .infinity == 0)
        #expect(-Decimal128.infinity < Decimal128.min)
        #expect(try Decimal128(string: "-inf") == -.infinity)
        #expect(try Decimal128(string: "Infinity") == .infinity)
        #expect(try Decimal128(string: "nan").isNaN)
        #expect(Decimal128.infinity.description == "Inf")
        #expect((-Decimal128.infinity).description == "-Inf")
        #expect(nan.description == "NaN")
        #expect(nan.doubleValue.isNaN && Decimal128.infinity.doubleValue == .infinity)
    }

    @Test func badTextThrows() {
        for text in ["", "-", ".", "1..2", "1.2.3", "abc", "1e", "1e+", "1x", " 1", "1 ", "0x10", "--1", "1e1.5", "∞"] {
            #expect(throws: Realm.Error.self, "\(text)") { try Decimal128(string: text) }
        }
    }

    @Test func equalValuesCompareAndHashAlike() throws {
        let one = try Decimal128(string: "1.0"), alsoOne = try Decimal128(string: "1.00"), plain: Decimal128 = 1
        #expect(one == alsoOne && one == plain)
        #expect(Set([one, alsoOne, plain]).count == 1)
        #expect(Decimal128(0) == -Decimal128(0))
        #expect(Set([Decimal128(0), -Decimal128(0)]).count == 1)
        #expect(try Decimal128(string: "100") == Decimal128(string: "1E2"))
        #expect(try Decimal128(string: "1E2").hashValue == Decimal128(100).hashValue)
        #expect(Decimal128("-0.5") < Decimal128("-0.25"))
        #expect(Decimal128("0.25") < Decimal128("0.5"))
        #expect(Decimal128(1) <= 1 && Decimal128(1) >= 1)
    }

    /// RealmSwift's text: the point moves left while an exponent is left and more than one
    /// digit is before it; what remains of the exponent follows as `En`; trailing zeros after
    /// the point go.
    @Test func descriptionsAreRealmSwifts() throws {
        #expect(Decimal128(1234.5).description == "1234.5")
        #expect(try Decimal128(string: "123e4").description == "1.23E6")
        #expect(try Decimal128(string: "0.000123").description == "1.23E-4")
        #expect(try Decimal128(string: "0.5").description == "5E-1")
        #expect(try Decimal128(string: "1E-9").description == "1E-9")
        #expect(try Decimal128(string: "1.5E40").description == "1.5E40")
        #expect(try Decimal128(string: "-1.50").description == "-1.5")
        #expect(try Decimal128(string: "2.50").description == "2.5")
        #expect(try Decimal128(string: "1000").description == "1000")
        #expect(try Decimal128(string: "1E3").description == "1E3")
        #expect(try Decimal128(string: "10E2").description == "1E3")
        #expect(Decimal128(0).description == "0")
        // Zero keeps no exponent here (RealmSwift writes "0E-3").
        #expect(try Decimal128(string: "0.000").description == "0")
        // Every description reads back as the same value.
        for text in ["123e4", "0.000123", "-1.50", "1E-9", "1" + String(repeating: "0", count: 33) + "E6111", "-2.5E-3000"] {
            let value = try Decimal128(string: text)
            #expect(try Decimal128(string: value.description) == value, "\(text)")
            #expect(value.doubleValue == Double(text), "\(text)")
        }
    }

    @Test func conversionsToOtherTypes() throws {
        #expect(Decimal128("2.5").doubleValue == 2.5)
        #expect(Decimal128("2.5").decimalValue == Decimal(string: "2.5"))
        #expect(try Decimal128(string: "1E200").decimalValue == nil)
        #expect(Decimal128(exactly: Int64.max) == Decimal128(number: Int64.max))
        #expect(Decimal128(exactly: UInt128.max) == nil)
        #expect(Decimal128(exactly: UInt128(10).multipliedReportingOverflow(by: 1).partialValue) == 10)
    }

    @Test func aDecimalIsAsWideAsItsStoredForm() {
        // Stored values travel in arrays of `_PersistedValue`: a decimal must not widen them.
        #expect(MemoryLayout<Decimal128>.size == 16)
        #expect(MemoryLayout<_PersistedValue>.size <= 17)
    }

    @Test func codableAsItsText() throws {
        let values: [Decimal128] = ["1.5", "-2", .nan]
        let data = try JSONEncoder().encode(values)
        #expect(String(decoding: data, as: UTF8.self) == #"["1.5","-2","NaN"]"#)
        let back = try JSONDecoder().decode([Decimal128].self, from: Data(#"["1.5", 3, 0.25]"#.utf8))
        #expect(back == ["1.5", 3, "0.25"])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([Decimal128].self, from: Data(#"["one"]"#.utf8)) }
    }

    @Test func aBadLiteralTraps() async {
        await #expect(processExitsWith: .failure) {
            let value: Decimal128 = "twelve"
            _ = value
        }
    }
}
