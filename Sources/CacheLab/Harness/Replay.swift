import Histogram

/// Replays a trace through one cache, sequentially and deterministically.
public enum Replay {
    /// Runs `trace` through a fresh cache built from `configuration` and counts what happened.
    ///
    /// Every request is a lookup; a miss downloads the object and inserts it. App events are
    /// applied between requests: with a `.memory` tier a relaunch empties the cache.
    /// The per-request path allocates nothing once the cache has warmed up.
    public static func simulate(_ trace: Trace, _ configuration: RunConfiguration) -> RunResult {
        configuration.policy.withOrder(Simulation(trace: trace, configuration: configuration))
    }
}

/// The replay loop, specialized per policy by `PolicyKind.withOrder`.
struct Simulation: PolicyBody {
    let trace: Trace
    let configuration: RunConfiguration

    func run<Policy: EvictionPolicy>(_ policy: Policy.Type) -> RunResult {
        var result = RunResult(trace: trace.name, configuration: configuration)
        let cache = Cache<UInt64, Void, Policy>(
            configuration: result.cache, expectedCount: expectedEntries(result.cache))
        let model = LatencyModel(network: configuration.network, tier: configuration.tier)
        // One hour in microseconds is far beyond any modelled request; 3 significant digits.
        var histogram = Histogram<UInt64>(highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: .three)
        histogram.autoResize = true

        var hits = 0
        var latencySum = 0  // microseconds; the exact mean, cheaper than walking the histogram
        var bytesHit = 0
        var bytesRequested = 0
        var position = 0
        var nextEvent = 0
        let events = trace.events
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
                            if cache.value(forKey: key, at: now) != nil {
                                hits &+= 1
                                bytesHit &+= size
                                let latency = model.hitMicroseconds(size: size)
                                latencySum &+= latency
                                histogram.record(UInt64(latency))
                            } else {
                                cache.insert((), forKey: key, size: size, at: now)
                                let latency = model.missMicroseconds(size: size)
                                latencySum &+= latency
                                histogram.record(UInt64(latency))
                            }
                            position &+= 1
                        }
                    }
                }
            }
        }

        result.requests = trace.count
        result.hits = hits
        result.misses = trace.count - hits
        result.bytesRequested = bytesRequested
        result.bytesHit = bytesHit
        result.bytesDownloaded = bytesRequested - bytesHit
        result.evictions = cache.evictions
        result.expirations = cache.expirations
        if histogram.totalCount > 0 {
            result.latency = LatencySummary(
                p50: Double(histogram.valueAtPercentile(50)) / 1000,
                p95: Double(histogram.valueAtPercentile(95)) / 1000,
                p99: Double(histogram.valueAtPercentile(99)) / 1000,
                mean: Double(latencySum) / Double(trace.count) / 1000)
        }
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

    // Sizes the cache's storage for the most entries it can hold on this trace, so the replay
    // does not grow it mid-run.
    private func expectedEntries(_ limits: CacheConfiguration) -> Int {
        guard trace.count > 0 else { return 16 }
        if limits.sizeMode == .unit { return min(limits.capacity, trace.count) + 1 }
        var smallest = Int.max
        for size in trace.sizes where size < smallest { smallest = size }
        return min(limits.capacity / max(smallest, 1), trace.count) + 1
    }
}
