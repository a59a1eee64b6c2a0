/// Runs `body` and returns what it returns: Foundation's `autoreleasepool` as code ported from
/// RealmSwift calls it (RealmSwift's guides wrap background work in it). Linux has no
/// Objective-C runtime and no autorelease pools, so there is nothing to drain; Burrow's memory
/// is freed as Swift frees it.
///
/// ```swift
/// DispatchQueue.global().async {
///     autoreleasepool {
///         let realm = try! Realm()
///         try! realm.write { realm.add(Dog()) }
///     }
/// }
/// ```
///
/// - Throws: what `body` throws.
public func autoreleasepool<Result>(invoking body: () throws -> Result) rethrows -> Result {
    try body()
}
