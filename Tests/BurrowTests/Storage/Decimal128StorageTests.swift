@testable import Burrow
import Foundation
import Testing

@Suite struct Decimal128StorageTests {
    let directory = TestDirectory()

    private func seeded() throws -> Realm {
        let realm = try directory.realm()
        try realm.write {
            for (id, amount) in ["0.1", "-2.5", "100", "1E-30", "3.14159", "-1E40", "0.10", "99.99"].enumerated() {
                realm.add(Ledger128(value: ["id": id, "amount": Decimal128(stringLiteral: amount), "fee": id % 2 == 0 ? Decimal128(number: id) : nil]))
            }
        }
        return realm
    }

    @Test func decimalsAreStoredExactly() throws {
        let realm = try directory.realm()
        let exact = try Decimal128(string: "1234567890123456789012345678901.234")
        try realm.write {
            realm.add(Ledger128(value: ["id": 1, "amount": exact, "fee": Decimal128.nan, "history": [Decimal128("0.1"), .infinity, -.infinity],
                                        "byMonth": ["jan": Decimal128("-0.001"), "feb": nil]]))
        }
        let stored = try #require(realm.object(ofType: Ledger128.self, forPrimaryKey: 1))
        #expect(stored.amount == exact && stored.amount.description == exact.description)
        #expect(stored.fee?.isNaN == true)
        #expect(Array(stored.history) == ["0.1", .infinity, -.infinity])
        #expect(stored.byMonth["jan"] == "-0.001")
        #expect(stored.byMonth["feb"] == .some(nil))
        try realm.write { stored.amount += "0.001" }
        // 34 digits: RealmSwift writes a coefficient this wide whole.
        #expect(stored.amount.description == "+1234567890123456789012345678901235E-3")
    }

    @Test func queriesCompareDecimalsByValue() throws {
        let items = try seeded().objects(Ledger128.self)
        func ids(_ results: Results<Ledger128>) -> [Int] { results.map(\.id).sorted() }
        #expect(ids(items.filter("amount == 0.1")) == [0, 6])
        #expect(ids(items.filter("amount == %@", Decimal128("0.100"))) == [0, 6])
        #expect(ids(items.filter("amount > 3")) == [2, 4, 7])
        #expect(ids(items.filter("amount < 0")) == [1, 5])
        #expect(ids(items.filter("amount BETWEEN {0, 1}")) == [0, 3, 6])
        #expect(ids(items.filter("amount IN %@", [Decimal128(100), Decimal128("99.99")])) == [2, 7])
        #expect(ids(items.filter("fee == nil")) == [1, 3, 5, 7])
        #expect(ids(items.filter("fee >= 4")) == [4, 6])
        #expect(ids(items.filter("amount > %@", Decimal(string: "99.5")!)) == [2, 7])
        #expect(ids(items.where { $0.amount > Decimal128(50) }) == [2, 7])
        #expect(items.filter("amount > 1e309").isEmpty)
        #expect(ids(items.filter("amount < -1e39")) == [5])
    }

    @Test func decimalsSortAndAggregateByValue() throws {
        let items = try seeded().objects(Ledger128.self)
        #expect(items.sorted(byKeyPath: "amount").map(\.amount.description) == ["-1E40", "-2.5", "1E-30", "1E-1", "1E-1", "3.14159", "99.99", "100"])
        #expect(items.max(ofProperty: "amount") as Decimal128? == 100)
        #expect(items.min(ofProperty: "amount") as Decimal128? == "-1E40")
        #expect(items.filter("amount > 0").sum(ofProperty: "amount") as Decimal128 == Decimal128("203.33159") + "1E-30")
        #expect(items.filter("amount > 0 AND amount < 1").average(ofProperty: "amount") as Decimal128?
                == (Decimal128("0.2") + "1E-30") / 3)
        #expect(items.sum(ofProperty: "fee") as Decimal128 == 12)
    }

    @Test func setsAndListsOfDecimalsGoByValue() throws {
        let realm = try directory.realm()
        let ledger = Ledger128(value: ["id": 1])
        try realm.write {
            realm.add(ledger)
            ledger.distinctAmounts.insert(objectsIn: [Decimal128("1.0"), Decimal128("1.00"), Decimal128(1), Decimal128("-3"), Decimal128("2E2")])
            ledger.history.append(objectsIn: [Decimal128(3), Decimal128("0.5"), Decimal128(-1)])
        }
        #expect(ledger.distinctAmounts.count == 3)
        #expect(ledger.distinctAmounts.contains(Decimal128("200")))
        #expect(Array(ledger.distinctAmounts) == [-3, 1, 200])
        #expect(Array(ledger.history.sorted(ascending: true)) == [-1, "0.5", 3])
        #expect(ledger.history.sum() == "2.5")
        #expect(ledger.history.max() == 3)
        #expect(Array(ledger.history.filter("self < 1")) == ["0.5", -1])
    }

    @Test func mixedValuesHoldDecimals() throws {
        let realm = try directory.realm()
        try realm.write {
            realm.add(Setting(value: ["name": "a", "value": AnyRealmValue.decimal128("12.5")]))
            realm.add(Setting(value: ["name": "b", "value": AnyRealmValue.int(12)]))
        }
        let settings = realm.objects(Setting.self)
        #expect(settings.filter("value > 12").map(\.name) == ["a"])
        #expect(settings.filter("value == %@", Decimal128("12.50")).map(\.name) == ["a"])
        #expect(realm.object(ofType: Setting.self, forPrimaryKey: "a")?.value.decimal128Value == "12.5")
    }

    @Test func foundationDecimalsGoThroughDecimal128() throws {
        let realm = try directory.realm()
        let long = Decimal(string: "1.2345678901234567890123456789012345678")!  // 38 digits
        try realm.write { realm.add(Ledger128(value: ["id": 1, "foundation": long] as [String: Any])) }
        let stored = try #require(realm.object(ofType: Ledger128.self, forPrimaryKey: 1))
        #expect(stored.foundation == Decimal(string: "1.234567890123456789012345678901235"))
        #expect(realm.objects(Ledger128.self).filter("foundation > 1.2").count == 1)
    }

    @Test func aDecimalTooLargeForFoundationTrapsWhenReadAsOne() async {
        await #expect(processExitsWith: .failure) {
            let directory = TestDirectory()
            let realm = try! directory.realm()
            try! realm.write { realm.add(Ledger128(value: ["id": 1])) }
            let ledger = realm.object(ofType: Ledger128.self, forPrimaryKey: 1)!
            try! realm.write { ledger["foundation"] = Decimal(1) }
            // The same column written as a Decimal128 far past Decimal's range.
            try! realm.write { ledger.setManagedValue(.decimal(try! Decimal128(string: "1E300")), column: storedColumn("foundation", of: ledger)) }
            _ = ledger.foundation
        }
    }
}

/// The stored forms of a decimal: IEEE's binary encoding, and the index key that sorts as the
/// values do.
@Suite struct Decimal128EncodingTests {
    @Test func theBinaryFormRoundTripsAndRefusesForeignBits() throws {
        let samples: [Decimal128] = try [0, 1, -1, "3.14159", "1E-6176", .max, .min, .infinity, -.infinity,
                                         Decimal128(string: "123456789012345678901234567890.1234")]
        for sample in samples {
            let (low, high) = sample.bid
            let back = try #require(Decimal128(bid: low, high: high))
            #expect(back == sample && back.isNegative == sample.isNegative)
        }
        #expect(Decimal128(bid: Decimal128.nan.bid.low, high: Decimal128.nan.bid.high)?.isNaN == true)
        // One in IEEE's reference encoding: 1 is 0x3040 0000 0000 0000 / 1.
        #expect(Decimal128(1).bid.high == 0x3040_0000_0000_0000 && Decimal128(1).bid.low == 1)
        // A coefficient of 10³⁴ is not canonical; neither is the large-coefficient form.
        let tooLarge = Decimal128.coefficientLimit
        #expect(Decimal128(bid: UInt64(truncatingIfNeeded: tooLarge), high: 0x3040_0000_0000_0000 | UInt64(tooLarge >> 64)) == nil)
        #expect(Decimal128(bid: 0, high: 0x6000_0000_0000_0000) == nil)
    }

    @Test func orderedKeysSortAsTheValues() throws {
        var generator = SystemRandomNumberGenerator()
        var values: [Decimal128] = [.infinity, -.infinity, .max, .min, 0, "1E-6176", "-1E-6176", "0.1", "0.10", "-0.1", "1", "10", "9.99", "-9.99"]
        for _ in 0..<400 {
            let digits = String(Int.random(in: 1...999_999, using: &generator))
            let exponent = Int.random(in: -40...40, using: &generator)
            values.append(try Decimal128(string: (Bool.random(using: &generator) ? "-" : "") + digits + "E" + String(exponent)))
        }
        for a in values {
            for b in values.prefix(60) {
                let keyOrder = a.orderedKey.lexicographicallyPrecedes(b.orderedKey) ? -1 : (a.orderedKey == b.orderedKey ? 0 : 1)
                #expect(keyOrder == Decimal128.order(a, b), "\(a) vs \(b)")
            }
        }
        #expect(Decimal128.nan.orderedKey.lexicographicallyPrecedes(Decimal128.infinity.orderedKey) == false)
    }
}
