import Burrow
import Foundation
import Testing

/// Queries built to exhaust the stack or the clock: each runs or throws `invalidQuery`, on a
/// thread with a 512 KiB stack too.
@Suite struct HostileQueryTests {
    /// 30 friends, each with three friends and a best friend.
    private func friends(_ directory: TestDirectory) throws -> Realm {
        let realm = try directory.realm()
        try realm.write {
            let all = (0..<30).map { Friend(value: ["name": "f\($0)", "score": Decimal($0)]) }
            for (index, friend) in all.enumerated() {
                friend.best = all[(index + 1) % all.count]
                friend.friends.append(objectsIn: [all[(index + 1) % 30], all[(index + 7) % 30], all[(index + 13) % 30]])
            }
            realm.add(all)
        }
        return realm
    }

    /// Runs `body` on a new thread whose stack is `stackSize` bytes, and waits for it.
    private func onSmallStack(_ stackSize: Int = 512 * 1024, _ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            body()
            done.signal()
        }
        thread.stackSize = stackSize
        thread.start()
        done.wait()
    }

    @Test func twentyThousandOrTermsRun() throws {
        let directory = TestDirectory()
        let realm = try friends(directory)
        let query = (0..<20_000).map { "name == 'f\($0)'" }.joined(separator: " OR ")
        #expect(realm.objects(Friend.self).filter(query).count == 30)
        let configuration = directory.configuration()
        onSmallStack {
            let realm = try! Realm(configuration: configuration)
            let query = (0..<5_000).map { "name == 'f\($0)' OR score > \($0 + 100)" }.joined(separator: " OR ")
            #expect(realm.objects(Friend.self).filter(query).count == 30)
            let both = Array(repeating: "score >= 0", count: 5_000).joined(separator: " AND ")
            #expect(realm.objects(Friend.self).filter(both).count == 30)
        }
    }

    @Test func keyPathsAreBoundedInLength() throws {
        let directory = TestDirectory()
        let realm = try friends(directory)
        let allowed = Array(repeating: "best", count: 31).joined(separator: ".") + ".name"
        #expect(realm.objects(Friend.self).filter("\(allowed) BEGINSWITH 'f'").count == 30)
        for length in [33, 200, 5_000] {
            let path = Array(repeating: "best", count: length).joined(separator: ".") + ".name"
            expectError(.invalidQuery) { try QueryPredicate("\(path) == 'f1'") }
        }
        let configuration = directory.configuration()
        onSmallStack {
            let realm = try! Realm(configuration: configuration)
            #expect(realm.objects(Friend.self).filter("\(allowed) == 'f1'").count == 1)
        }
    }

    @Test func nestingIsBoundedAndTheBoundFitsASmallStack() throws {
        let directory = TestDirectory()
        _ = try friends(directory)
        let limit = Internals.maximumQueryNesting
        // Parentheses and NOT, alternating, as deep as allowed; a chain of ANDs at every level.
        let deepest = String(repeating: "(NOT ", count: limit / 2 - 1) + "score > 3" + String(repeating: ")", count: limit / 2 - 1)
        let chained = String(repeating: "(score >= 0 AND score >= 0 AND ", count: limit - 1) + "score > 3" + String(repeating: ")", count: limit - 1)
        expectError(.invalidQuery) { try QueryPredicate(String(repeating: "(", count: limit + 1) + "score > 3" + String(repeating: ")", count: limit + 1)) }
        let configuration = directory.configuration()
        onSmallStack {
            let realm = try! Realm(configuration: configuration)
            let friends = realm.objects(Friend.self)
            #expect(friends.filter(deepest).count == 4)
            #expect(friends.filter(chained).count == 26)
            // The builder makes trees the parser never sees: a left-deep chain is bounded too.
            let deep = friends.where { friend in
                (1..<Internals.maximumPredicateDepth).reduce(friend.score >= 0) { chain, _ in chain && friend.score >= 0 }
            }
            #expect(deep.count == 30)
        }
        let friend = Internals.rootQuery(of: Friend.self)
        let tooDeep = (0..<Internals.maximumPredicateDepth).reduce(friend.score >= 0) { chain, _ in chain && friend.score >= 0 }
        expectError(.invalidQuery) { try Internals.checkLimits(of: tooDeep) }
    }

    @Test func nestedSubqueriesCostTheirDataNotTheirDepth() throws {
        let directory = TestDirectory()
        let realm = try friends(directory)
        // Each level tests every friend once per evaluation, not once per path down to it:
        // without that, 16 levels of three friends are 3^16 (43 million) tests per object.
        func nested(_ depth: Int) -> String {
            var query = "$x0.score >= 0"
            for level in (0..<depth).reversed() {
                let source = level == 0 ? "friends" : "$x\(level - 1).friends"
                let inner = level == depth - 1 ? "$x\(level).score >= 0" : query
                query = "SUBQUERY(\(source), $x\(level), \(inner)).@count > 0"
            }
            return query
        }
        #expect(realm.objects(Friend.self).filter(nested(16)).count == 30)
        expectError(.invalidQuery) { try QueryPredicate(nested(17)) }
    }

    @Test func decimalAndDateArgumentsOfEveryShapeRunOrThrow() throws {
        let directory = TestDirectory()
        let realm = try friends(directory)
        let friends = realm.objects(Friend.self)
        let arguments: [Any] = [Double.infinity, -Double.infinity, Double.nan, 1e300, -1e-300, Double.greatestFiniteMagnitude,
                                Date(timeIntervalSinceReferenceDate: .nan), Date(timeIntervalSinceReferenceDate: .infinity),
                                Int.max, Int.min, Float.infinity]
        for argument in arguments {
            for format in ["score > %@", "score == %@", "score IN %@", "name == %@", "ANY friends.score < %@", "best.score BETWEEN {0, %@}"] {
                let actual: Any = format.contains("IN") ? [argument] : argument
                do {
                    let predicate = try QueryPredicate(format: format, argumentArray: [actual])
                    try friends.validate(predicate)
                    _ = friends.filter(predicate).count
                } catch let error as Realm.Error {
                    #expect(error.code == .invalidQuery, "\(format) with \(argument)")
                }
            }
        }
    }

    @Test func randomHostileShapesRunOrThrow() throws {
        let directory = TestDirectory()
        let realm = try friends(directory)
        let friends = realm.objects(Friend.self)
        var generator = SplitMix64(seed: 20261201)
        let leaves = ["score > 3", "name == 'f1'", "best.score < 1e309", "score == %@", "ANY friends.name BEGINSWITH 'f'",
                      "SUBQUERY(friends, $x, $x.score > 5).@count > 1", "best.best.best.name != nil", "score IN {1, 2, 1e400}"]
        var ran = 0, refused = 0
        for _ in 0..<200 {
            let leaf = leaves.randomElement(using: &generator)!
            let size = [1, 10, 99, 101, 1_000, 3_000].randomElement(using: &generator)!
            let query: String = switch Int.random(in: 0..<5, using: &generator) {
            case 0: String(repeating: "(", count: size) + leaf + String(repeating: ")", count: size)
            case 1: String(repeating: "NOT ", count: size) + leaf
            case 2: Array(repeating: leaf, count: size).joined(separator: Bool.random(using: &generator) ? " OR " : " AND ")
            case 3: Array(repeating: "best", count: size % 64).joined(separator: ".") + (size % 64 == 0 ? "" : ".") + "name == 'f2'"
            default:
                // Subqueries nested `size` deep (past the bound for the larger sizes).
                (0..<min(size, 40)).reversed().reduce("$v\(min(size, 40) - 1).score > 3") { inner, level in
                    "SUBQUERY(\(level == 0 ? "friends" : "$v\(level - 1).friends"), $v\(level), \(inner)).@count > 0"
                }
            }
            do {
                let predicate = try QueryPredicate(format: query, argumentArray: [Double.infinity])
                try friends.validate(predicate)
                _ = friends.filter(predicate).count
                ran += 1
            } catch let error as Realm.Error {
                #expect(error.code == .invalidQuery, "\(query.prefix(80))")
                refused += 1
            }
        }
        #expect(ran > 30 && refused > 30, "ran \(ran), refused \(refused)")
    }
}
