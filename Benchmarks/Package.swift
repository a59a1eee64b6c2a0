// swift-tools-version: 6.0
import PackageDescription

/// Burrow's benchmarks: one executable that runs the same workload on Burrow, on raw LMDB and
/// on SQLite in one run, and prints the three side by side.
let package = Package(
    name: "BurrowBenchmarks",
    dependencies: [
        .package(name: "Burrow", path: ".."),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(
            name: "Baselines",
            dependencies: ["CSQLite"],
            linkerSettings: [.linkedLibrary("lmdb"), .linkedLibrary("sqlite3"), .linkedLibrary("sodium")]
        ),
        .executableTarget(
            name: "BurrowBench",
            dependencies: [
                .product(name: "Burrow", package: "Burrow"),
                "Baselines",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
