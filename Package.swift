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
        .target(name: "LMDB", dependencies: ["CLMDB"]),
        .target(name: "Burrow", dependencies: ["LMDB", "CSodium"]),
        .executableTarget(name: "BurrowDemo", dependencies: ["Burrow"]),
        .executableTarget(name: "BurrowTool", dependencies: ["Burrow"]),
        .testTarget(name: "LMDBTests", dependencies: ["LMDB"]),
        .testTarget(name: "BurrowTests", dependencies: ["Burrow", "LMDB"]),
    ],
    swiftLanguageModes: [.v6]
)
