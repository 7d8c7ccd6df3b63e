import Benchmark
import CacheLab

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

enum CacheLabMetric {
    /// Hits per 10,000 requests (5911 = 59.11 %). Deterministic: a change means the policy's
    /// behaviour changed, not the machine.
    static let hitRatio = BenchmarkMetric.custom(
        "Hit ratio (basis points)", polarity: .prefersLarger, useScalingFactor: false)
    /// Requests replayed per second of wall clock over the measured loop (noisy, like wall clock).
    static let requestsPerSecond = BenchmarkMetric.custom(
        "Requests per second", polarity: .prefersLarger, useScalingFactor: false)
}

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
        maxDuration: .seconds(3),
        maxIterations: 20,
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
}
