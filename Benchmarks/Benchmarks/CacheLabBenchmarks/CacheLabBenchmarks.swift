import Benchmark
import CacheEngine
import CacheLab
import CacheLabRecorder
import Foundation

/// The workload every `Replay:<policy>` benchmark replays: one million Zipf(0.9) requests over
/// 100,000 objects of 1–100 KB, through a cache a tenth of the working set.
struct ReplayWorkload: Sendable {
    static let requests = 1_000_000
    static let objects = 100_000
    static let alpha = 0.9
    static let seed: UInt64 = 42

    // Built once per benchmark process, from the first benchmark's setup: never measured.
    static let shared = ReplayWorkload()

    let trace: Trace
    let capacity: Int

    init() {
        trace = SyntheticTrace.zipf(
            requests: Self.requests, objects: Self.objects, alpha: Self.alpha, seed: Self.seed)
        capacity = TraceStatistics(trace).workingSetBytes / 10
    }
}

/// The lookups every `Recorder:lookup` iteration records: 100,000 over 10,000 photo URLs.
struct RecorderWorkload: Sendable {
    static let lookups = 100_000
    static let shared = RecorderWorkload()

    let urls = (0..<10_000).map { "https://recipes.example/photos/\($0)-4a1f9c2e-7b3d-4e8a-9f60-\($0 % 97)/small.jpg" }
}

enum CacheLabMetric {
    /// Hits per 10,000 requests (5911 = 59.11 %). Deterministic: a change means the policy's
    /// behaviour changed, not the machine.
    static let hitRatio = BenchmarkMetric.custom(
        "Hit ratio (basis points)", polarity: .prefersLarger, useScalingFactor: false)
    /// Requests replayed per second of wall clock over the measured loop (noisy, like wall clock).
    static let requestsPerSecond = BenchmarkMetric.custom(
        "Requests per second", polarity: .prefersLarger, useScalingFactor: false)
    /// Nanoseconds a `TraceRecorder.recordLookup` call takes on the caller's thread, on average
    /// (noisy, like wall clock).
    static let nanosecondsPerLookup = BenchmarkMetric.custom(
        "Nanoseconds per lookup", polarity: .prefersSmaller, useScalingFactor: false)
}

/// `CACHELAB_BENCH_ITERATIONS=N` caps every benchmark at N measured iterations after one warm-up
/// (CI sets 1: it checks only the malloc counts, which one replay gives exactly, and a replay of
/// a sampling policy takes a second in the check's time). Unset: up to 20 iterations or 3 s.
let iterationCap = ProcessInfo.processInfo.environment["CACHELAB_BENCH_ITERATIONS"].flatMap { Int($0) }

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [
            .throughput, .wallClock, .mallocCountTotal, CacheLabMetric.hitRatio, CacheLabMetric.requestsPerSecond,
        ],
        timeUnits: .milliseconds,
        units: [.mallocCountTotal: .count, CacheLabMetric.hitRatio: .count, CacheLabMetric.requestsPerSecond: .kilo],
        warmupIterations: 1,
        // One iteration is one whole replay of the trace.
        scalingFactor: .one,
        maxDuration: iterationCap == nil ? .seconds(3) : .seconds(60),
        maxIterations: iterationCap ?? 20,
        thresholds: [
            // The per-request path must not allocate: a replay's mallocs are its cache's storage
            // and its latency histogram, a fixed handful. Thresholds/*.p90.json hold the measured
            // count; 1,000 more fails the check, so even one request in 1,000 allocating is caught,
            // and since the count cannot drop by 1,000, an improvement never fails it.
            .mallocCountTotal: .init(absolute: [.p90: 1_000])
        ]
    )

    // Replay:<policy> is what `cachelab run` does (counts and the latency histogram);
    // Simulate:<policy> is the cache's inner loop alone, the figure libCacheSim's throughput
    // numbers compare with.
    for kind in PolicyKind.allCases {
        for (name, latency) in [("Replay", true), ("Simulate", false)] {
            Benchmark("\(name):\(kind.rawValue)") { benchmark, workload in
                let configuration = RunConfiguration(policy: kind, capacity: workload.capacity)
                var last: RunResult?
                let start = ContinuousClock.now
                for _ in benchmark.scaledIterations {
                    let result = Replay.simulate(workload.trace, configuration, latency: latency)
                    blackHole(result)
                    last = result
                }
                let elapsed = ContinuousClock.now - start
                // Custom metrics are recorded outside the measured region, so they count no mallocs.
                benchmark.stopMeasurement()

                guard let last else { return }
                let seconds =
                    Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
                let replayed = Double(last.requests * benchmark.scaledIterations.count)
                benchmark.measurement(CacheLabMetric.requestsPerSecond, Int(replayed / seconds))
                benchmark.measurement(CacheLabMetric.hitRatio, Int((last.hitRatio * 10_000).rounded()))
            } setup: {
                ReplayWorkload.shared
            }
        }
    }

    // Recorder:lookup is what an app pays per image lookup for recording it: the salted hash,
    // the line formatted into the buffer, the lock; the writer task's file writes run beside it.
    Benchmark(
        "Recorder:lookup",
        configuration: .init(
            metrics: [.wallClock, .mallocCountTotal, CacheLabMetric.nanosecondsPerLookup],
            units: [.mallocCountTotal: .count, CacheLabMetric.nanosecondsPerLookup: .count],
            maxDuration: .seconds(1),
            maxIterations: iterationCap ?? 10_000,
            // About 780 mallocs per 100,000 lookups: the buffers handed to the writer (one per
            // 32 KB) and the writer's file writes. One per lookup would add 100,000.
            thresholds: [.mallocCountTotal: .init(absolute: [.p90: 1_000])])
    ) { benchmark, workload in
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("recorder-benchmark-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let recorder = try TraceRecorder(directory: folder)
        let urls = workload.urls
        var time: Int64 = 0
        let start = ContinuousClock.now
        for _ in benchmark.scaledIterations {
            for index in 0..<RecorderWorkload.lookups {
                time += 1
                recorder.recordLookup(urls[index % urls.count], size: 8_000 + index % 4_096, source: .memory, at: time)
            }
        }
        let elapsed = ContinuousClock.now - start
        benchmark.stopMeasurement()
        try await recorder.close()
        let nanoseconds = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) * 1e-9
        let lookups = Double(RecorderWorkload.lookups * benchmark.scaledIterations.count)
        benchmark.measurement(CacheLabMetric.nanosecondsPerLookup, Int((nanoseconds / lookups).rounded()))
    } setup: {
        RecorderWorkload.shared
    }

    ClientBenchmarks.register()
}
