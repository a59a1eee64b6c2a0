import Burrow
import Foundation
import Testing

@Suite struct CustomPersistableTests {
    let directory = TestDirectory()

    private func seeded() throws -> Realm {
        let realm = try directory.realm()
        try realm.write {
            for (code, price) in [("a", 500), ("b", 120), ("c", 999), ("d", 120)] {
                let product = Product()
                product.sku = SKU(persistedValue: code)
                product.price = Cents(price)
                product.discount = price > 200 ? Cents(price / 10) : nil
                product.mirror = URL(string: "https://mirror.example/\(code)")
                product.priceHistory.append(objectsIn: [Cents(price + 1), Cents(price)])
                product.sizes.insert(objectsIn: [Cents(1), Cents(2), Cents(1)])
                product.regional["eu"] = Cents(price * 2)
                realm.add(product)
            }
        }
        return realm
    }

    @Test func valuesAreStoredAsTheirPersistedType() throws {
        let realm = try seeded()
        let product = try #require(realm.object(ofType: Product.self, forPrimaryKey: SKU(persistedValue: "a")))
        #expect(product.price == Cents(500))
        #expect(product.discount == Cents(50))
        #expect(product.page == URL(string: "https://example.com"))
        #expect(product.mirror == URL(string: "https://mirror.example/a"))
        #expect(Array(product.priceHistory) == [Cents(501), Cents(500)])
        #expect(product.sizes.count == 2)
        #expect(product.regional["eu"] == Cents(1000))
        #expect(realm.fileSchema["Product"]?["price"]?.type == .int)
        #expect(realm.fileSchema["Product"]?["price"]?.isIndexed == true)
        #expect(realm.fileSchema["Product"]?["sku"]?.isPrimary == true)
        #expect(product["price"] as? Cents == Cents(500))
        // Primary keys compare as their stored type: a duplicate is refused.
        #expect(realm.object(ofType: Product.self, forPrimaryKey: "b")?.price == Cents(120))
    }

    @Test func queriesAndSortsGoThroughThePersistedType() throws {
        let products = try seeded().objects(Product.self)
        func codes(_ results: Results<Product>) -> [String] { results.map(\.sku.code) }
        #expect(codes(products.where { $0.price > Cents(200) }.sorted(byKeyPath: "price")) == ["a", "c"])
        #expect(codes(products.where { $0.price == Cents(120) }) == ["b", "d"])
        #expect(codes(products.filter("price < %@", Cents(200))) == ["b", "d"])
        #expect(codes(products.filter("price IN %@", [Cents(999), Cents(1)])) == ["c"])
        #expect(codes(products.where { $0.sku == SKU(persistedValue: "c") }) == ["c"])
        #expect(codes(products.where { $0.discount == nil }) == ["b", "d"])
        #expect(codes(products.filter("mirror ENDSWITH '/d'")) == ["d"])
        #expect(codes(products.where { $0.mirror == URL(string: "https://mirror.example/b") }) == ["b"])
        #expect(codes(products.where { $0.priceHistory.contains(Cents(121)) }) == ["b", "d"])
        #expect(codes(products.sorted(byKeyPath: "price", ascending: false)) == ["c", "a", "b", "d"])
        #expect(products.max(ofProperty: "price") as Cents? == Cents(999))
        #expect(products.sum(ofProperty: "price") as Cents == Cents(1739))
        #expect(products.min(of: \.price) == Cents(120))
        #expect(products.first?.priceHistory.max() == Cents(501))
        #expect(products.first?.priceHistory.sum() == Cents(1001))
    }

    @Test func objectTypesAreStoredAsEmbeddedObjects() throws {
        let realm = try directory.realm()
        let card = ReportCard()
        #expect(card.final == Grade(points: 0) && card.midterm == nil)
        card.final = Grade(points: 90)
        card.quizzes.append(objectsIn: [Grade(points: 7), Grade(points: 9)])
        card.bySubject["math"] = Grade(points: 80)
        card.retakes["art"] = nil as Grade?
        try realm.write { realm.add(card) }
        #expect(card.final == Grade(points: 90) && card.midterm == nil)
        #expect(Array(card.quizzes) == [Grade(points: 7), Grade(points: 9)])
        #expect(card.bySubject["math"] == Grade(points: 80))
        #expect(card.retakes["art"] == .some(nil))
        try realm.write {
            card.midterm = Grade(points: 70)
            card.final = Grade(points: 95)
            card.quizzes[0] = Grade(points: 8)
            card.bySubject["art"] = Grade(points: 60)
            card.retakes["art"] = Grade(points: 50)
        }
        #expect(card.midterm == Grade(points: 70) && card.final == Grade(points: 95))
        #expect(card.quizzes.map(\.points) == [8, 9])
        #expect(card.bySubject.count == 2 && card.bySubject["art"] == Grade(points: 60))
        #expect(card.retakes["art"] == Grade(points: 50))
        // Replaced values leave no embedded objects behind.
        #expect(try realm.storedCount(of: GradeRecord.self) == 7)
        try realm.write { card.midterm = nil }
        #expect(card.midterm == nil)
        #expect(try realm.storedCount(of: GradeRecord.self) == 6)
        let schema = try #require(realm.fileSchema["ReportCard"])
        for name in ["final", "midterm", "quizzes", "bySubject", "retakes"] {
            #expect(schema[name]?.type == .object && schema[name]?.objectClassName == "GradeRecord")
        }
        #expect(schema["final"]?.isOptional == true && schema["bySubject"]?.isOptional == true)
        #expect(schema["quizzes"]?.isOptional == false)
    }

    @Test func aMissingObjectReadsAsTheValueOfANewOne() throws {
        let realm = try directory.realm()
        let card = ReportCard(value: ["final": NSNull(), "quizzes": [Grade(points: 3)]])
        try realm.write { realm.add(card) }
        #expect(card.final == Grade(points: 0))
        #expect(card.quizzes.first == Grade(points: 3))
    }

    /// As RealmSwift's `testNullValueForNonOptionalPropertyBackedByOptional`: an object type's
    /// link is optional underneath, so `nil` reads as the value of a new object, in a property
    /// and in a map; a list's elements are not optional underneath, and refuse it.
    @Test func nilForAnObjectBackedTypeIsTheValueOfANewObject() async throws {
        let realm = try directory.realm()
        #expect(ReportCard(value: ["final": NSNull()]).final == Grade(points: 0))
        #expect(ReportCard(value: ["bySubject": ["math": NSNull()]]).bySubject["math"] == Grade(points: 0))
        try realm.write {
            let card = realm.create(ReportCard.self, value: ["final": NSNull(), "bySubject": ["math": NSNull()]])
            #expect(card.final == Grade(points: 0) && card.bySubject["math"] == Grade(points: 0))
        }
        let list = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = ReportCard(value: ["quizzes": [NSNull()]])
        }
        expectMessage(list, "for 'List<Grade>' property 'ReportCard.quizzes'")
    }

    @Test func aFailedConversionReadsNilWhenOptional() throws {
        let realm = try directory.realm()
        let product = Product()
        product.sku = SKU(persistedValue: "x")
        try realm.write { realm.add(product) }
        // A text that is no URL, written as the stored type.
        try realm.write { product.internals.setStoredValue(.string("http://[bad"), of: "mirror") }
        #expect(product.mirror == nil)
    }

    @Test func aFailedConversionTrapsWhenRequired() async {
        await #expect(processExitsWith: .failure) {
            let directory = TestDirectory()
            let realm = try! directory.realm()
            let product = Product()
            product.sku = SKU(persistedValue: "x")
            try! realm.write { realm.add(product) }
            try! realm.write { product.internals.setStoredValue(.string("http://[bad"), of: "page") }
            _ = product.page
        }
    }

    @Test func aDefaultThatCannotBeBuiltIsNeededOnlyOnceRead() throws {
        let unset = Bookmark()
        unset.title = "unset"
        unset.page = try #require(URL(string: "https://example.com/a"))
        let realm = try directory.realm()
        try realm.write {
            realm.add(unset)
            realm.add(Bookmark(value: ["title": "by value", "page": "https://example.com/b"]))
            realm.create(Bookmark.self, value: ["title": "created", "page": URL(string: "https://example.com/c")!])
        }
        #expect(realm.fileSchema["Bookmark"]?["page"]?.type == .string)
        #expect(realm.objects(Bookmark.self).sorted(byKeyPath: "title").map(\.page.path) == ["/b", "/c", "/a"])
        // An object made from a dictionary without the value still has none.
        let partial = Bookmark(value: ["title": "partial"])
        partial.page = try #require(URL(string: "https://example.com/d"))
        try realm.write { realm.add(partial) }
        #expect(partial.page.path == "/d")
    }

    @Test func readingOrStoringAnUnbuiltDefaultTraps() async {
        let message = "Failed to default construct a URL using the default value for persisted type String. This conversion must either succeed, the property must be optional, or you must explicitly specify a default value for the property."
        expectMessage(await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Bookmark().page
        }, message)
        expectMessage(await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let directory = TestDirectory()
            let realm = try! directory.realm()
            try! realm.write { realm.add(Bookmark()) }
        }, message)
        expectMessage(await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let directory = TestDirectory()
            let realm = try! directory.realm()
            try! realm.write { realm.create(Bookmark.self, value: ["title": "no page"]) }
        }, message)
    }
}
