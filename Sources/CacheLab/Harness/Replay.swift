import Histogram

/// Replays a trace through one cache, sequentially and deterministically.
public enum Replay {
    /// Runs `trace` through a fresh cache built from `configuration` and counts what happened.
    ///
    /// Every request is a lookup; a miss downloads the object and inserts it. App events are
    /// applied between requests: with a `.memory` tier a relaunch empties the cache.
    /// The per-request path allocates nothing once the cache has warmed up. A policy that needs
    /// the future (Belady) is told each request's next use, computed once before the loop.
    ///
    /// - Parameter latency: record every request's modelled latency in an HdrHistogram (the
    ///   default). Without it the result's latency is zero and the loop does only the cache's
    ///   work, which is what libCacheSim's throughput figures measure.
    public static func simulate(_ trace: Trace, _ configuration: RunConfiguration, latency: Bool = true) -> RunResult {
        configuration.policy.withOrder(RegisteredOrder(trace: trace, configuration: configuration, latency: latency))
    }

    /// Runs `trace` through a cache ordered by `order` instead of the configuration's policy
    /// (whose name, capacity and lifetime still label and limit the run): for a policy outside
    /// the registry, such as a variant under study or a deliberately broken one in a test.
    public static func simulate<Policy: EvictionPolicy>(
        _ trace: Trace, _ configuration: RunConfiguration, order: Policy.Type, latency: Bool = true
    ) -> RunResult {
        let ledger = StorageLedger()
        var result = StorageLedger.$current.withValue(ledger) {
            // The loop records through a pointer held for exactly the replay's duration.
            if latency {
                var recorder = HistogramRecorder(LatencyModel(network: configuration.network, tier: configuration.tier))
                var result = withUnsafeMutablePointer(to: &recorder) {
                    Simulation(trace: trace, configuration: configuration, recorder: $0).run(order)
                }
                result.latency = recorder.latencies.summary()
                return result
            }
            var recorder = NoLatency()
            return withUnsafeMutablePointer(to: &recorder) {
                Simulation(trace: trace, configuration: configuration, recorder: $0).run(order)
            }
        }
        result.metadataBytes = ledger.peakBytes
        return result
    }

    /// The registry's policy for a configuration, handed to `simulate(_:_:order:latency:)`.
    private struct RegisteredOrder: PolicyBody {
        let trace: Trace
        let configuration: RunConfiguration
        let latency: Bool

        func run<Policy: EvictionPolicy>(_ policy: Policy.Type) -> RunResult {
            Replay.simulate(trace, configuration, order: policy, latency: latency)
        }
    }
}

/// What the replay loop does with each request's outcome, beyond counting it.
protocol LatencyRecording {
    mutating func hit(size: Int)
    mutating func miss(size: Int)
}

/// Records nothing; compiled away.
struct NoLatency: LatencyRecording {
    @inline(__always) mutating func hit(size: Int) {}
    @inline(__always) mutating func miss(size: Int) {}
}

/// Records the latency model's value for every request, in microseconds.
struct HistogramRecorder: LatencyRecording {
    let model: LatencyModel
    var latencies = LatencyHistogram()

    init(_ model: LatencyModel) {
        self.model = model
    }

    @inline(__always)
    mutating func hit(size: Int) { record(model.hitMicroseconds(size: size)) }

    @inline(__always)
    mutating func miss(size: Int) { record(model.missMicroseconds(size: size)) }

    /// Records one request that took `latency` microseconds.
    @inline(__always)
    mutating func record(_ latency: Int) { latencies.record(microseconds: latency) }

}

/// The replay loop, specialized per policy by `PolicyKind.withOrder` and per recorder.
struct Simulation<Recorder: LatencyRecording>: PolicyBody {
    let trace: Trace
    let configuration: RunConfiguration
    let recorder: UnsafeMutablePointer<Recorder>

    init(trace: Trace, configuration: RunConfiguration, recorder: UnsafeMutablePointer<Recorder>) {
        self.trace = trace
        self.configuration = configuration
        self.recorder = recorder
    }

    func run<Policy: EvictionPolicy>(_ policy: Policy.Type) -> RunResult {
        var result = RunResult(trace: trace.name, configuration: configuration)
        let cache = Cache<UInt64, Void, Policy>(
            configuration: result.cache, expectedCount: trace.expectedEntries(under: result.cache))
        var hits = 0
        var bytesHit = 0
        var bytesRequested = 0
        var position = 0
        var nextEvent = 0
        let events = trace.events
        // Only a policy that needs the future pays for it: one backward pass, before the loop.
        let nextUses = Policy.needsFuture ? trace.nextUses() : []
        nextUses.withUnsafeBufferPointer { nextUses in
            trace.times.withUnsafeBufferPointer { times in
                trace.keys.withUnsafeBufferPointer { keys in
                    trace.sizes.withUnsafeBufferPointer { sizes in
                        while position < keys.count || nextEvent < events.count {
                            while nextEvent < events.count, events[nextEvent].position <= position {
                                apply(events[nextEvent], to: cache, result: &result)
                                nextEvent += 1
                            }
                            let end = nextEvent < events.count ? events[nextEvent].position : keys.count
                            while position < end {
                                let key = keys[position]
                                let size = sizes[position]
                                let now = times[position]
                                bytesRequested &+= size
                                if Policy.needsFuture { cache.upcoming(nextUse: nextUses[position]) }
                                if cache.value(forKey: key, at: now) != nil {
                                    hits &+= 1
                                    bytesHit &+= size
                                    recorder.pointee.hit(size: size)
                                } else {
                                    cache.insertAfterMiss((), forKey: key, size: size, at: now)
                                    recorder.pointee.miss(size: size)
                                }
                                position &+= 1
                            }
                        }
                    }
                }
            }
        }

        result.requests = trace.count
        result.hits = hits
        if configuration.tier == .memory { result.memoryHits = hits } else { result.diskHits = hits }
        result.misses = trace.count - hits
        result.bytesRequested = bytesRequested
        result.bytesHit = bytesHit
        result.bytesDownloaded = bytesRequested - bytesHit
        result.evictions = cache.evictions
        result.expirations = cache.expirations
        result.entries = cache.count
        return result
    }

    private func apply<Policy>(_ event: TraceEvent, to cache: Cache<UInt64, Void, Policy>, result: inout RunResult) {
        switch event.kind {
        case .relaunch:
            result.relaunches += 1
            if configuration.tier == .memory { cache.removeAll() }
        case .background, .foreground, .memoryWarning:
            break
        }
    }
}

extension Trace {
    /// How many entries a cache with `limits` will typically hold on this trace: room for twice
    /// as many mean-sized objects as fit, never more than the trace's distinct keys can be.
    /// Sizing for the smallest object instead would spread a small cache over a table many times
    /// larger than the CPU's caches; should the estimate be exceeded, the storage doubles (rarely,
    /// and never again once warm).
    public func expectedEntries(under limits: CacheConfiguration) -> Int {
        guard count > 0 else { return 16 }
        let distinct = keyNames?.count ?? count
        if limits.sizeMode == .unit { return min(limits.capacity, distinct) + 1 }
        var total = 0
        for size in sizes { total &+= size }
        let mean = max(total / count, 1)
        // min(fit × 2, distinct) without computing fit × 2, which a huge capacity overflows.
        let fit = limits.capacity / mean
        return (fit > distinct / 2 ? distinct : fit * 2) + 16
    }
}
