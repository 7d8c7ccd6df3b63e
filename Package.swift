// swift-tools-version: 6.1
import Foundation
import PackageDescription

// `CACHELAB_OPTIMIZE_CORE=1` compiles the core with -O in debug builds too, its assertions kept
// (`-assert-config Debug`): the tests replay millions of requests through it, checking every
// invariant after each, and take about 40 % less time in a debug `swift test` (CI builds release
// instead: scripts/test, and the variable below). The contract module the
// tests share gets it too: a module compiled without -O runs the engine's inlinable code
// unspecialized, so the invariant checks it makes after every operation would look up generic
// metadata at every step (the whole test module with -O saves as much test time as it costs
// to compile, so it stays without). Off by default, so that a debugger sees
// every variable and a package depending on this one meets no unsafe flags.
let optimizeCore = ProcessInfo.processInfo.environment["CACHELAB_OPTIMIZE_CORE"] == "1"
let coreSettings: [SwiftSetting] =
    optimizeCore ? [.unsafeFlags(["-O", "-assert-config", "Debug"], .when(configuration: .debug))] : []

// The `cachelab` executable carries the Swift runtime and Foundation inside it (`-static-stdlib`)
// on Linux: loading and binding them as shared libraries is most of a short command's start-up
// (the Speed article's "Start-up" section). `-static-stdlib` links the runtime; Foundation's static
// archives also need the C libraries they are built on, named here in one group (their order
// does not matter inside it); libcurl, which FoundationNetworking calls, stays shared. Linked by
// the toolchain's lld: GNU ld prints a warning at every link for the `mktemp` inside Foundation's
// static archive (a `.gnu.warning` section), which lld does not act on; start-up is the same.
let staticRuntime = [
    "-static-stdlib", "-use-ld=lld",
    "-Xlinker", "--start-group",
    "-lFoundationNetworking", "-lFoundationInternationalization", "-lFoundationEssentials", "-lFoundation",
    "-lCoreFoundation", "-l_CFURLSessionInterface", "-l_FoundationICU", "-l_FoundationCShims",
    "-l_FoundationCollections",
    "-Xlinker", "--end-group",
    "-l:libcurl.so.4", "-lstdc++",
]

let package = Package(
    name: "cachelab",
    // What an app ships (the engine, the client core, the recorder) builds for these; the lab, the
    // server and the command line are built and tested on Linux. The engine's storage ledger
    // counts with Synchronization's atomics, which these versions are the first to have.
    platforms: [.iOS(.v18), .macOS(.v15), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        // The cache engine: `Cache`, the policy protocol, every policy, admission. What an app's
        // tiers and the lab's simulator both run.
        .library(name: "CacheEngine", targets: ["CacheEngine"]),
        // What the client and the lab's client simulator share: a client's tiers and their
        // configuration, a request's outcome, an image's pixels.
        .library(name: "ClientModel", targets: ["ClientModel"]),
        .library(name: "CacheLab", targets: ["CacheLab"]),
        .library(name: "RecipeClient", targets: ["RecipeClient"]),
        .library(name: "FixtureServer", targets: ["FixtureServer"]),
        .library(name: "LiveReplay", targets: ["LiveReplay"]),
        .library(name: "LiveServer", targets: ["LiveServer"]),
        // What an iOS app adds to record its image cache's lookups (Foundation only).
        .library(name: "CacheLabRecorder", targets: ["CacheLabRecorder"]),
        .executable(name: "cachelab", targets: ["CacheLabMain"]),
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
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // `swift package generate-documentation`: the DocC catalogs (CI builds them, warnings fail).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", exact: "1.5.0"),
    ],
    targets: [
        // The engine: `Cache`, `ImageCaching`, the policy protocol, every policy, admission and the
        // structures they share. No Foundation, no system library; its code is @inlinable, so the
        // lab's replay loops and an app's tiers run it specialized for each policy.
        .target(name: "CacheEngine", dependencies: ["CPrefetch"], swiftSettings: coreSettings),
        // A client's configuration (tiers, pins, sweeps, memory cost, network), its app events and
        // a request's outcome: the real client and the lab's simulator of it read the same types.
        .target(name: "ClientModel", dependencies: ["CacheEngine"], swiftSettings: coreSettings),
        // The lab: traces, scenarios, the client simulator, replay, plans, sweeps, analysis and
        // reports. It imports no server, CLI framework, SQLite or networking.
        .target(
            name: "CacheLab",
            dependencies: [
                "CacheEngine", "ClientModel", "CacheLabLocking", "CZstd",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            swiftSettings: coreSettings
        ),
        // `__builtin_prefetch` for the replay loop: the index bucket of a request a few ahead is
        // loaded while the current one is served.
        .target(name: "CPrefetch"),
        // A value behind a pthread mutex (which ThreadSanitizer sees, unlike Synchronization's
        // Mutex on Linux): shared by every target, the Foundation-only recorder included.
        .target(name: "CacheLabLocking"),
        // The system zstd library (Debian: libzstd-dev), for reading and writing `.zst` traces.
        .systemLibrary(name: "CZstd", providers: [.apt(["libzstd-dev"])]),
        // The system SQLite library (Debian: libsqlite3-dev).
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        // Records an app's image-cache lookups and events as a cachelab trace. Foundation (and a
        // pthread mutex) only, so an iOS app can depend on it.
        .target(name: "CacheLabRecorder", dependencies: ["CacheLabLocking"]),
        // The real client's core: recipes, their list states, the image pipeline and its tiers.
        .target(
            name: "RecipeClient",
            dependencies: [
                "CacheEngine", "ClientModel", "CacheLabLocking", "CacheLabRecorder",
                // Apple's SDKs ship SQLite as the module SQLite3; elsewhere it is the system's.
                .target(name: "CSQLite", condition: .when(platforms: [.linux, .android, .windows, .openbsd, .wasi])),
            ]
        ),
        // A local server that imitates the recipe API (Hummingbird).
        .target(
            name: "FixtureServer",
            dependencies: [
                // RecipeClient: the pages link each card as the app's model decides.
                "ClientModel", "CacheLab", "CacheLabLocking", "RecipeClient",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Replays a trace through the real client's image pipeline against a server it knows as
        // an endpoint: it does not import the fixture server.
        .target(
            name: "LiveReplay",
            dependencies: ["ClientModel", "CacheLab", "CacheLabRecorder", "RecipeClient"]
        ),
        // Wires a live replay to a fixture server, started in process or already running.
        .target(
            name: "LiveServer",
            dependencies: ["LiveReplay", "ClientModel", "CacheLab", "FixtureServer"]
        ),
        // The thin command-line front end: its commands, which the tests parse in process.
        .target(
            name: "CacheLabCLI",
            dependencies: [
                "CacheEngine", "ClientModel", "CacheLab",
                "CacheLabLocking",
                "CacheLabRecorder",
                "FixtureServer",
                "LiveReplay",
                "LiveServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The `cachelab` executable: its entry point alone, so that only it links the Swift
        // runtime and Foundation into itself (the tests link the commands as they are).
        .executableTarget(
            name: "CacheLabMain",
            dependencies: ["CacheLabCLI"],
            linkerSettings: [.unsafeFlags(staticRuntime, .when(platforms: [.linux]))]
        ),
        // What the fuzzers check of any input (trace files, recipe JSON), shared by the fuzzer
        // and the corpus test.
        .target(
            name: "CacheLabFuzzing",
            dependencies: ["CacheEngine", "ClientModel", "CacheLab", "RecipeClient"]
        ),
        // libFuzzer's entry point when built by scripts/fuzz; otherwise a corpus runner.
        .executableTarget(
            name: "CacheLabFuzz",
            dependencies: ["CacheLabFuzzing"]
        ),
        // The core's tests: they build the core alone (no server, no command line).
        .testTarget(
            name: "CacheLabTests",
            dependencies: [
                "CacheEngine", "ClientModel", "CacheLab", "CacheLabLocking", "CacheLabTestSupport", "CacheLabContracts",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            // libCacheSim's counts, read by GoldenCountsTests from the source tree.
            exclude: ["Golden/golden-counts.tsv"]
        ),
        // The command line's tests: `cachelab` as a child process, its commands parsed in process.
        .testTarget(
            name: "CacheLabCLITests",
            dependencies: [
                "CacheEngine", "ClientModel", "CacheLab", "CacheLabCLI", "FixtureServer",
                "CacheLabTestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "CacheLabRecorderTests",
            dependencies: ["CacheLabRecorder", "CacheLab"]
        ),
        .testTarget(
            name: "RecipeClientTests",
            dependencies: [
                "RecipeClient", "CacheEngine", "ClientModel", "CacheLab", "CacheLabLocking", "CacheLabRecorder",
                "FixtureServer",
                "CacheLabContracts",
            ]
        ),
        .testTarget(
            name: "LiveReplayTests",
            dependencies: [
                "LiveReplay", "LiveServer", "CacheEngine", "ClientModel", "CacheLab", "CacheLabRecorder",
                "RecipeClient",
                "FixtureServer",
            ]
        ),
        .testTarget(
            name: "FixtureServerTests",
            dependencies: [
                "FixtureServer", "CacheEngine", "ClientModel", "CacheLab", "CacheLabLocking", "CacheLabTestSupport",
                "RecipeClient",
                // The routes are tested over loopback by a small client of NIO's (Support/TestClient),
                // not HummingbirdTesting, whose async-http-client and BoringSSL cost CI minutes.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // Crashes, faults and hostile clients, against the `cachelab` executable as a child process.
        .testTarget(
            name: "ReliabilityTests",
            dependencies: [
                "ClientModel", "CacheLab", "CacheLabLocking", "RecipeClient", "FixtureServer",
                "CacheLabFuzzing",
                "CacheLabTestSupport",
            ]
        ),
        // What several test targets share: HTTP over plain sockets, `cachelab` as a child process.
        .target(name: "CacheLabTestSupport", path: "Tests/TestSupport"),
        // The ImageCaching contract as rules any conformer is put through (the engine in
        // CacheLabTests, RecordingCache in RecipeClientTests).
        .target(
            name: "CacheLabContracts",
            dependencies: ["CacheEngine", "ClientModel", "CacheLab"],
            path: "Tests/Contracts",
            swiftSettings: coreSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)

// `CACHELAB_RELEASE_TESTS=1` (scripts/lib/release-build.sh): one release build serves the tests, the
// checks and the benchmarks (the DocC article Continuous integration says why). This package's
// modules get testable imports (the tests' `@testable import`) and keep their assertions (the
// engine's bounds and state checks stay on under the tests, as in a debug build); the test
// targets compile without optimization, file by file. These are settings of this package's own
// targets, not `-Xswiftc` flags, which would reach every dependency too: the dependencies build as
// any release build builds them. Off by default, like the core's flags above.
//
// Environment variables rather than traits or `swift build --static-swift-stdlib`, because: an
// unsafe flag under a trait condition, even a trait nobody enables, still makes SwiftPM 6.3 refuse
// this package as a dependency ("the target … contains unsafe build flags"), where these are
// simply absent; and `swift package`, whose benchmark plugin must build with exactly the test
// build's flags to reuse its modules (scripts/bench-check), takes no `--static-swift-stdlib`.
if ProcessInfo.processInfo.environment["CACHELAB_RELEASE_TESTS"] == "1" {
    for target in package.targets where target.type != .system && target.name != "CPrefetch" {
        let flags =
            target.type == .test
            ? ["-Onone", "-no-whole-module-optimization"] : ["-enable-testing", "-assert-config", "Debug"]
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(flags, .when(configuration: .release))]
    }
}
