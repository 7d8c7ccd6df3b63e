// swift-tools-version: 6.1
import PackageDescription

// cachelab's benchmarks live in their own package so that `swift build` and `swift test` of the
// main package never build the benchmark plugin and its tools.
// Run them from this directory: `swift package benchmark --no-progress < /dev/null`.
let package = Package(
    name: "CacheLabBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "cachelab", path: "../"),
        // The default traits pull in a package that is not available; the malloc interposer is
        // what feeds the malloc counters on Swift 6.3.
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "CacheLabBenchmarks",
            dependencies: [
                .product(name: "CacheEngine", package: "cachelab"),
                .product(name: "ClientModel", package: "cachelab"),
                .product(name: "CacheLab", package: "cachelab"),
                .product(name: "CacheLabRecorder", package: "cachelab"),
                .product(name: "RecipeClient", package: "cachelab"),
                .product(name: "FixtureServer", package: "cachelab"),
                .product(name: "LiveReplay", package: "cachelab"),
                .product(name: "LiveServer", package: "cachelab"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/CacheLabBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        )
    ],
    swiftLanguageModes: [.v6]
)
