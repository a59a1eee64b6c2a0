// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Burrow",
    products: [
        .library(name: "Burrow", targets: ["Burrow"]),
        .executable(name: "burrow-demo", targets: ["BurrowDemo"]),
        .executable(name: "burrow", targets: ["BurrowTool"]),
    ],
    targets: [
        .systemLibrary(
            name: "CLMDB",
            pkgConfig: "lmdb",
            providers: [.apt(["liblmdb-dev"])]
        ),
        .systemLibrary(
            name: "CSodium",
            pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"])]
        ),
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        // Line editing and history for `burrow shell`.
        .systemLibrary(
            name: "CLibEdit",
            pkgConfig: "libedit",
            providers: [.apt(["libedit-dev"])]
        ),
        // CRC-32C for the checksums of records, with the processor's instruction where it has one.
        .target(name: "CRC32C"),
        .target(name: "LMDB", dependencies: ["CLMDB", "CRC32C"]),
        .target(name: "PostgreSQL", dependencies: ["CLibPQ"]),
        .target(name: "Burrow", dependencies: ["LMDB", "CSodium", "PostgreSQL"]),
        .executableTarget(name: "BurrowDemo", dependencies: ["Burrow"]),
        .executableTarget(name: "BurrowTool", dependencies: ["Burrow", "CLibEdit"]),
        // A throwaway PostgreSQL server for the tests that sync (not a product).
        .target(name: "TemporaryPostgres", dependencies: ["PostgreSQL"], path: "Tests/TemporaryPostgres"),
        .testTarget(name: "LMDBTests", dependencies: ["LMDB"]),
        .testTarget(name: "PostgreSQLTests", dependencies: ["PostgreSQL", "TemporaryPostgres"]),
        .testTarget(name: "BurrowTests", dependencies: ["Burrow", "LMDB", "TemporaryPostgres", "CRC32C"]),
        // The tool's own parts, tested as units (the tool as a whole is run by BurrowTests).
        .testTarget(name: "BurrowToolTests", dependencies: ["BurrowTool"]),
    ],
    swiftLanguageModes: [.v6]
)
