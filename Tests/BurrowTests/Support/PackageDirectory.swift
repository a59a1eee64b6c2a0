import Foundation

/// The package's folder, found from this file's place in it (`Tests/BurrowTests/Support/`).
enum PackageDirectory {
    static let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `Sources/<target>`.
    static func sources(_ target: String) -> URL {
        url.appendingPathComponent("Sources").appendingPathComponent(target)
    }
}
