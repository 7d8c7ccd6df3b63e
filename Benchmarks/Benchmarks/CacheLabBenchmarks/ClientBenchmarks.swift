import Benchmark
import CacheLab
import ClientModel
import FixtureServer
import Foundation
import LiveReplay
import LiveServer
import RecipeClient

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The paths an app or a user waits on, each with a floor in `scripts/bench-check`: the disk
/// tier's reads and writes, the client's start-up, a live replay through the real pipeline, the
/// fixture server's photo answers, and `tune`.
/// Their malloc counts are not checked (SQLite, URLSession and SwiftNIO allocate as they see fit):
/// they measure speed only, and the floors are far below what any machine this runs on does.
enum ClientBenchmarks {
    /// The blob every `Disk:` benchmark reads or writes: 100 KB, about a large recipe photo.
    static let blobSize = 100_000
    /// Distinct URLs a disk benchmark cycles through, so each iteration touches rows it wrote.
    static let urls = (0..<32).map { "http://127.0.0.1:8080/photos/\($0)/large.jpg" }
    /// Blobs per iteration: 20 MB each way.
    static let blobsPerIteration = 200
    /// The committed trace `Live:weekly-returner` replays, found from this file.
    static let liveTrace = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("traces/weekly-returner.csv")
        .path
    /// The client of the Live replay article's table: memory LRU 400 KB over disk LRU 1.5 MB.
    static let liveClient = ClientConfiguration(
        name: "lru-lru", memory: TierConfiguration(policy: .lru, capacity: 400_000),
        disk: TierConfiguration(policy: .lru, capacity: 1_500_000))

    static let megabytesPerSecond = BenchmarkMetric.custom(
        "Megabytes per second", polarity: .prefersLarger, useScalingFactor: false)
    static let serverNanosecondsPerRequest = BenchmarkMetric.custom(
        "Server CPU ns per request", polarity: .prefersSmaller, useScalingFactor: false)
    static let microsecondsPerLaunch = BenchmarkMetric.custom(
        "Microseconds per launch", polarity: .prefersSmaller, useScalingFactor: false)
    static let replaysPerSecond = BenchmarkMetric.custom(
        "Client replays per second", polarity: .prefersLarger, useScalingFactor: false)
    /// Rows in the store `Startup:pipeline` opens: 2,000 photos of 4 KB, a disk a thumbnail list fills.
    static let launchRows = 2_000

    static func register() {
        let speedOnly = Benchmark.Configuration(
            metrics: [.wallClock, megabytesPerSecond], units: [megabytesPerSecond: .count],
            warmupIterations: 1, maxDuration: .seconds(2), maxIterations: iterationCap ?? 10, thresholds: [:])

        // Disk:write is `DiskStore.put` of a 100 KB blob, replacing a row (checksum, one statement).
        Benchmark("Disk:write", configuration: speedOnly) { benchmark in
            try withStore { store, blob in
                var time: Int64 = 0
                let start = ContinuousClock.now
                for _ in benchmark.scaledIterations {
                    for index in 0..<blobsPerIteration {
                        time += 1
                        try store.put(url: urls[index % urls.count], bytes: blob, at: time)
                    }
                }
                recordMegabytesPerSecond(benchmark, since: start)
            }
        }

        // Disk:read is `DiskStore.get` of a 100 KB blob: the row read, its length and checksum
        // verified, its use recorded. What a disk hit costs before the image can be shown.
        Benchmark("Disk:read", configuration: speedOnly) { benchmark in
            try withStore { store, blob in
                for (index, url) in urls.enumerated() { try store.put(url: url, bytes: blob, at: Int64(index)) }
                // Reads of a settled store: the puts' pages checkpointed out of the WAL first, as
                // they are long before an app reads them back.
                var time: Int64 = 1_000
                for index in 0..<blobsPerIteration {
                    time += 1
                    blackHole(try store.get(url: urls[index % urls.count], at: time))
                }
                let start = ContinuousClock.now
                for _ in benchmark.scaledIterations {
                    for index in 0..<blobsPerIteration {
                        time += 1
                        blackHole(try store.get(url: urls[index % urls.count], at: time))
                    }
                }
                recordMegabytesPerSecond(benchmark, since: start)
            }
        }

        // Startup:pipeline is an app's launch: `ImagePipeline` opening the recommended client over
        // a SQLite store of 2,000 photos (the disk tier rebuilt from its rows, in last-use order),
        // before the first image can be asked for.
        Benchmark(
            "Startup:pipeline",
            configuration: .init(
                metrics: [.wallClock, microsecondsPerLaunch], units: [microsecondsPerLaunch: .count],
                warmupIterations: 1, maxDuration: .seconds(3), maxIterations: iterationCap ?? 10, thresholds: [:])
        ) { benchmark in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("startup-benchmark-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let path = folder.appendingPathComponent("images.sqlite").path
            let client = ClientConfiguration(
                name: "launch", memory: ClientConfiguration.recommended.memory,
                disk: TierConfiguration(policy: .lru, capacity: 64 * 1024 * 1024))
            do {
                let store = try DiskStore(path: path)
                let blob = [UInt8](repeating: 7, count: 4_096)
                for row in 0..<launchRows {
                    try store.put(url: "http://127.0.0.1:8080/photos/\(row)/small.jpg", bytes: blob, at: Int64(row))
                }
            }
            var launches = 0
            let start = ContinuousClock.now
            for _ in benchmark.scaledIterations {
                let pipeline = try ImagePipeline(
                    client: client, diskPath: path, downloader: NoDownloads(), at: Int64(launchRows + launches))
                blackHole(pipeline)
                launches += 1
            }
            let elapsed = ContinuousClock.now - start
            benchmark.stopMeasurement()
            benchmark.measurement(microsecondsPerLaunch, Int(seconds(elapsed) * 1e6 / Double(launches)))
        }

        // Tune:daily-reader is `cachelab tune --scenario daily-reader` with budgets of 1 MiB of
        // memory and 2 MiB of disk: every policy a client can run, four disk lifetimes, every
        // capacity on the grid, each candidate a client replay.
        Benchmark(
            "Tune:daily-reader",
            configuration: .init(
                metrics: [.wallClock, replaysPerSecond], units: [replaysPerSecond: .count],
                warmupIterations: 1, maxDuration: .seconds(5), maxIterations: iterationCap ?? 5, thresholds: [:])
        ) { benchmark, traces in
            let request = Tuner.Request(memoryBudget: 1 << 20, diskBudget: 2 << 20)
            let candidates =
                Tuner.capacities(upTo: request.diskBudget).count * request.policies.count * request.diskTTLs.count
                + Tuner.capacities(upTo: request.memoryBudget).count * request.policies.filter { $0 != .size }.count
            var replays = 0
            let start = ContinuousClock.now
            for _ in benchmark.scaledIterations {
                blackHole(Tuner.tune(traces, request))
                replays += candidates
            }
            let elapsed = ContinuousClock.now - start
            benchmark.stopMeasurement()
            benchmark.measurement(replaysPerSecond, Int(Double(replays) / seconds(elapsed)))
        } setup: {
            var trace = ScrollScenario.named("daily-reader")!.makeTrace()
            trace.name = "daily-reader"
            return [trace]
        }

        // Tune:endless-feed is `cachelab tune --kind endless-feed` on the first three days of
        // feed-heavy-month: the kind's grid (disks from 1 MiB to 256 MiB, memory from 4 MiB to the
        // iPhone SE 2's 161 MB), every policy a client can run, four disk lifetimes, each
        // candidate a client replay of 100 KB photos in tiers of thousands: the default tune's
        // costliest kind, where sampling policies walk sparse tables.
        Benchmark(
            "Tune:endless-feed",
            configuration: .init(
                metrics: [.wallClock, replaysPerSecond], units: [replaysPerSecond: .count],
                warmupIterations: 0, maxDuration: .seconds(5), maxIterations: iterationCap ?? 3, thresholds: [:])
        ) { benchmark, traces in
            let kind = AppKind.endlessFeed
            let request = Tuner.Request(
                memoryBudget: Int(Double(DeviceProfile.iphoneSE2.ram) * 0.05), diskBudget: kind.diskBudget,
                smallestDisk: kind.smallestDisk, smallestMemory: kind.smallestMemory)
            var replays = 0
            let start = ContinuousClock.now
            for _ in benchmark.scaledIterations {
                let recommendation = Tuner.tune(traces, request)
                replays += recommendation.diskCandidates.count + recommendation.memoryCandidates.count
                blackHole(recommendation)
            }
            let elapsed = ContinuousClock.now - start
            benchmark.stopMeasurement()
            benchmark.measurement(replaysPerSecond, Int(Double(replays) / seconds(elapsed)))
        } setup: {
            var scenario = ScrollScenario.named("feed-heavy-month")!
            scenario.days = 3
            var trace = scenario.makeTrace()
            trace.name = "feed-heavy-3-days"
            return [trace]
        }

        // Live:weekly-returner is `cachelab run --mode live` on the committed weekly-returner
        // trace, in process: the fixture server started, every request through the real pipeline
        // (memory, SQLite disk, URLSession), relaunches included.
        Benchmark(
            "Live:weekly-returner",
            configuration: .init(
                metrics: [.wallClock, CacheLabMetric.requestsPerSecond, CacheLabMetric.hitRatio],
                units: [CacheLabMetric.requestsPerSecond: .count, CacheLabMetric.hitRatio: .count],
                warmupIterations: 1, maxDuration: .seconds(3), maxIterations: iterationCap ?? 5, thresholds: [:])
        ) { benchmark, trace in
            var requests = 0
            var seconds = 0.0
            var hitRatio = 0.0
            for _ in benchmark.scaledIterations {
                let live = try await LiveServer.run(trace, client: liveClient)
                guard live.failures == 0 else {
                    throw BenchmarkFailure("live replay: \(live.failures) failures, \(live.firstErrors)")
                }
                requests += live.run.requests
                seconds += live.seconds
                hitRatio = live.run.hitRatio
            }
            benchmark.stopMeasurement()
            benchmark.measurement(CacheLabMetric.requestsPerSecond, Int(Double(requests) / seconds))
            benchmark.measurement(CacheLabMetric.hitRatio, Int((hitRatio * 10_000).rounded()))
        } setup: {
            try TraceReader.read(path: liveTrace)
        }

        // Serve:photo is the fixture server answering one small photo over and over to `wrk`
        // (two threads, 32 connections) on loopback: the server's CPU per request, from this
        // process's own CPU time (wrk is a child, counted apart). The serve-vs-nginx script's
        // "one small" row.
        Benchmark(
            "Serve:photo",
            configuration: .init(
                metrics: [.wallClock, serverNanosecondsPerRequest, CacheLabMetric.requestsPerSecond],
                units: [serverNanosecondsPerRequest: .count, CacheLabMetric.requestsPerSecond: .count],
                warmupIterations: 1, maxDuration: .seconds(10), maxIterations: iterationCap ?? 3, thresholds: [:])
        ) { benchmark in
            let server = try await FixtureServer.start()
            let url = server.baseURL + server.catalog.recipes[0].smallPhoto.path
            var requests = 0
            var cpu: Duration = .zero
            var wall: Duration = .zero
            do {
                for _ in benchmark.scaledIterations {
                    let before = processCPU()
                    let start = ContinuousClock.now
                    requests += try runWrk(url: url, seconds: 2)
                    wall += ContinuousClock.now - start
                    cpu += processCPU() - before
                }
            } catch {
                try? await server.stop()
                throw error
            }
            benchmark.stopMeasurement()
            try await server.stop()
            guard requests > 0 else { throw BenchmarkFailure("wrk completed no request") }
            benchmark.measurement(serverNanosecondsPerRequest, Int(nanoseconds(cpu) / Double(requests)))
            benchmark.measurement(CacheLabMetric.requestsPerSecond, Int(Double(requests) / seconds(wall)))
        }
    }

    /// A new store in a temporary directory and a 100 KB blob, removed after `body`.
    static func withStore(_ body: (DiskStore, [UInt8]) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("disk-benchmark-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var random = SplitMix64(seed: 7)
        let blob = (0..<blobSize).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        try body(try DiskStore(path: folder.appendingPathComponent("images.sqlite").path), blob)
    }

    static func recordMegabytesPerSecond(_ benchmark: Benchmark, since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        benchmark.stopMeasurement()
        let bytes = Double(blobSize * blobsPerIteration * benchmark.scaledIterations.count)
        benchmark.measurement(megabytesPerSecond, Int(bytes / 1e6 / seconds(elapsed)))
    }

    /// Runs `wrk` against `url` for `seconds` and returns the requests it completed.
    static func runWrk(url: String, seconds: Int) throws -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["wrk", "-t2", "-c32", "-d\(seconds)s", url]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchmarkFailure("wrk exited \(process.terminationStatus) (is it installed?): \(text)")
        }
        // "  123456 requests in 2.00s, 1.23GB read"
        guard let line = text.split(separator: "\n").first(where: { $0.contains(" requests in ") }),
            let count = Int(line.split(separator: " ")[0])
        else { throw BenchmarkFailure("no request count in wrk's output: \(text)") }
        if text.contains("Non-2xx") || text.contains("Socket errors") {
            throw BenchmarkFailure("wrk met errors: \(text)")
        }
        return count
    }

    /// User and system CPU time this process has used.
    static func processCPU() -> Duration {
        var usage = rusage()
        #if canImport(Glibc)
            getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
            getrusage(RUSAGE_SELF, &usage)
        #endif
        func duration(_ time: timeval) -> Duration { .seconds(time.tv_sec) + .microseconds(time.tv_usec) }
        return duration(usage.ru_utime) + duration(usage.ru_stime)
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }

    static func nanoseconds(_ duration: Duration) -> Double { seconds(duration) * 1e9 }
}

/// A downloader a launch never calls: `Startup:pipeline` asks for no image.
struct NoDownloads: ImageDownloading {
    func download(_ url: String) async throws -> [UInt8] { throw BenchmarkFailure("a launch downloaded \(url)") }
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
