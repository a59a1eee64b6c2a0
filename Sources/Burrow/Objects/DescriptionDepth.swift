/// How deep a description of objects and collections has gone: links can form cycles, so
/// descriptions stop at ``maximum`` levels, as RealmSwift's do.
enum DescriptionDepth {
    /// Levels described in full; a link or collection deeper reads `<Maximum depth exceeded>`.
    static let maximum = 5

    /// The level of the description being built on this task or thread.
    @TaskLocal static var current = 0

    /// `body`'s result, built one level deeper.
    static func nested<Result>(_ body: () -> Result) -> Result {
        $current.withValue(current + 1, operation: body)
    }

    /// What a link or collection too deep to describe reads.
    static let exceeded = "<Maximum depth exceeded>"
}
