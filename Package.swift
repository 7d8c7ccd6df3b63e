// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "cachelab",
    products: [
        .library(name: "CacheLab", targets: ["CacheLab"]),
        .library(name: "RecipeClient", targets: ["RecipeClient"]),
        .library(name: "FixtureServer", targets: ["FixtureServer"]),
        .library(name: "LiveReplay", targets: ["LiveReplay"]),
        .executable(name: "cachelab", targets: ["CacheLabCLI"]),
        .executable(name: "cachelab-fuzz", targets: ["CacheLabFuzz"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", exact: "0.2.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        // The pure core: engine, policies, traces, simulated replay, stats and reports.
        // It imports no server, CLI framework, SQLite or networking.
        .target(
            name: "CacheLab",
            dependencies: [.product(name: "Histogram", package: "hdrhistogram-swift")]
        ),
        // The system SQLite library (Debian: libsqlite3-dev).
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        // The real client's core: recipes, their list states, the image pipeline and its tiers.
        .target(
            name: "RecipeClient",
            dependencies: ["CacheLab", "CSQLite"]
        ),
        // A local server that imitates the recipe API (Hummingbird).
        .target(
            name: "FixtureServer",
            dependencies: [
                "CacheLab",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // Replays a trace through the real client's image pipeline against a fixture server.
        .target(
            name: "LiveReplay",
            dependencies: ["CacheLab", "RecipeClient", "FixtureServer"]
        ),
        // The thin command-line front end.
        .executableTarget(
            name: "CacheLabCLI",
            dependencies: [
                "CacheLab",
                "FixtureServer",
                "LiveReplay",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // What the fuzzers check of any input (trace files, recipe JSON), shared by the fuzzer
        // and the corpus test.
        .target(
            name: "CacheLabFuzzing",
            dependencies: ["CacheLab", "RecipeClient"]
        ),
        // libFuzzer's entry point when built by scripts/fuzz; otherwise a corpus runner.
        .executableTarget(
            name: "CacheLabFuzz",
            dependencies: ["CacheLabFuzzing"]
        ),
        .testTarget(
            name: "CacheLabTests",
            dependencies: [
                "CacheLab", "CacheLabCLI", "FixtureServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "RecipeClientTests",
            dependencies: ["RecipeClient", "CacheLab", "FixtureServer"]
        ),
        .testTarget(
            name: "LiveReplayTests",
            dependencies: ["LiveReplay", "CacheLab", "RecipeClient", "FixtureServer"]
        ),
        .testTarget(
            name: "FixtureServerTests",
            dependencies: [
                "FixtureServer", "CacheLab", "CacheLabTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // Crashes, faults and hostile clients, against the `cachelab` executable as a child process.
        .testTarget(
            name: "ReliabilityTests",
            dependencies: ["CacheLab", "RecipeClient", "FixtureServer", "CacheLabFuzzing", "CacheLabTestSupport"]
        ),
        // What several test targets share: HTTP over plain sockets, `cachelab` as a child process.
        .target(name: "CacheLabTestSupport", path: "Tests/TestSupport"),
    ],
    swiftLanguageModes: [.v6]
)
