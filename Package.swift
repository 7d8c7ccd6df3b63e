// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "cachelab",
    products: [
        .library(name: "CacheLab", targets: ["CacheLab"]),
        .executable(name: "cachelab", targets: ["CacheLabCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", exact: "0.2.0"),
    ],
    targets: [
        // The pure core: engine, policies, traces, simulated replay, stats and reports.
        // It imports no server, CLI framework, SQLite or networking.
        .target(
            name: "CacheLab",
            dependencies: [.product(name: "Histogram", package: "hdrhistogram-swift")]
        ),
        // The thin command-line front end.
        .executableTarget(
            name: "CacheLabCLI",
            dependencies: [
                "CacheLab",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "CacheLabTests",
            dependencies: ["CacheLab", "CacheLabCLI"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
