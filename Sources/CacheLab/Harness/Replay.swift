import Histogram

/// Replays a trace held in memory through one cache or one client, sequentially and
/// deterministically: a run plan of one cell (see `RunPlan` for traces read from files, and for
/// many caches in one pass).
public enum Replay {
    /// Runs `trace` through a fresh cache built from `configuration` and counts what happened.
    ///
    /// Every request is a lookup; a miss downloads the object and inserts it. App events are
    /// applied between requests: with a `.memory` tier a relaunch empties the cache.
    /// The per-request path allocates nothing once the cache has warmed up. A policy that needs
    /// the future (Belady) is told each request's next use, computed once before the loop.
    ///
    /// - Parameters:
    ///   - trace: the requests and app events.
    ///   - configuration: the policy and its limits.
    ///   - latency: record every request's modelled latency in an HdrHistogram (the
    ///     default). Without it the result's latency is zero and the loop does only the cache's
    ///     work, which is what libCacheSim's throughput figures measure.
    public static func simulate(_ trace: Trace, _ configuration: RunConfiguration, latency: Bool = true) -> RunResult {
        RunPlan.replay(trace, [.simulate(configuration, latency: latency)], workers: 1)[0].run
    }

    /// Runs `trace` through a cache ordered by `order` instead of the configuration's policy
    /// (whose name, capacity and lifetime still label and limit the run): for a policy outside
    /// the registry, such as a variant under study or a deliberately broken one in a test.
    public static func simulate<Policy: EvictionPolicy & SendableMetatype>(
        _ trace: Trace, _ configuration: RunConfiguration, order: Policy.Type, latency: Bool = true
    ) -> RunResult {
        RunPlan.replay(trace, [.simulate(configuration, order: order, latency: latency)], workers: 1)[0].run
    }
}

extension RunCell {
    /// A single-tier cell ordered by `order` instead of the configuration's policy (see
    /// `Replay.simulate(_:_:order:latency:)`).
    public static func simulate<Policy: EvictionPolicy & SendableMetatype>(
        _ configuration: RunConfiguration, order: Policy.Type, latency: Bool = true
    ) -> RunCell {
        .custom(label: configuration.policy.rawValue, needsFuture: Policy.needsFuture) { context in
            SimulatedRunFactory(configuration: configuration, latency: latency, context: context).run(Policy.self)
        }
    }
}

/// Builds a single-tier cell's replay for the registry's policy, or for one given.
struct SimulatedRunFactory: PolicyBody {
    let configuration: RunConfiguration
    let latency: Bool
    let context: CellContext

    func run<Policy: EvictionPolicy>(_ policy: Policy.Type) -> CellReplay {
        if latency {
            let recorder = HistogramRecorder(LatencyModel(network: configuration.network, tier: configuration.tier))
            return make(policy, recorder)
        }
        return make(policy, NoLatency())
    }

    private func make<Policy: EvictionPolicy, Recorder: LatencyRecording>(
        _ policy: Policy.Type, _ recorder: Recorder
    ) -> CellReplay {
        let run = SimulatedRun<Policy, Recorder>(configuration: configuration, recorder: recorder, context: context)
        return CellReplay(replay: { run.replay($0) }, finish: { .run(run.finish()) })
    }
}

/// What the replay loop does with each request's outcome, beyond counting it.
protocol LatencyRecording {
    mutating func hit(size: Int)
    mutating func miss(size: Int)
    /// The latencies recorded, summed up.
    func summary() -> LatencySummary
}

/// Records nothing; compiled away.
struct NoLatency: LatencyRecording {
    @inline(__always) mutating func hit(size: Int) {}
    @inline(__always) mutating func miss(size: Int) {}
    func summary() -> LatencySummary { LatencySummary() }
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

    func summary() -> LatencySummary { latencies.summary() }
}

/// One single-tier cache replayed batch by batch: the simulator's loop, specialized per policy
/// and per recorder (`SimulatedRunFactory`).
final class SimulatedRun<Policy: EvictionPolicy, Recorder: LatencyRecording> {
    private struct State {
        var tally = RunTally()
        var recorder: Recorder
    }

    private let cache: Cache<UInt64, Void, Policy>
    // The counts and the recorder live behind a pointer, so the loop reaches them without the
    // exclusivity checks a class's stored properties need.
    private let state: UnsafeMutablePointer<State>
    private let ledger = StorageLedger()
    private var result: RunResult
    /// How many requests ahead the loop prefetches a key's index bucket (stage 1), what a hit on
    /// it would touch (stage 2: the bucket has arrived, so its slot is known) and that data's
    /// neighbours (stage 3). Each stage's loads have the requests between it and the next to
    /// arrive, so the dependent misses of a hit (bucket, then slot, then a list's neighbours)
    /// overlap the work of the requests before it instead of following one another.
    static var prefetchDistance: Int { 16 }
    static var hitPrefetchDistance: Int { 8 }
    static var neighbourPrefetchDistance: Int { 4 }
    /// The slots stage 2 found, by request position modulo 8, for stage 3.
    private let hitSlots = UnsafeMutablePointer<Int32>.allocate(capacity: 8)

    init(configuration: RunConfiguration, recorder: Recorder, context: CellContext) {
        result = RunResult(trace: context.name, configuration: configuration)
        let limits = result.cache
        cache = StorageLedger.$current.withValue(ledger) {
            Cache(configuration: limits, expectedCount: limits.initialEntries)
        }
        state = .allocate(capacity: 1)
        state.initialize(to: State(recorder: recorder))
        hitSlots.initialize(repeating: -1, count: 8)
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
        hitSlots.deallocate()
    }

    func replay(_ batch: RequestBatch) {
        // Storage the cache grows into is charged to this run's ledger too.
        StorageLedger.$current.withValue(ledger) { loop(batch) }
    }

    @inline(__always)
    private func loop(_ batch: RequestBatch) {
        let cache = cache
        let state = state
        var tally = state.pointee.tally
        let keys = batch.keys
        let sizes = batch.sizes
        let times = batch.times
        let nextUses = batch.nextUses
        let events = batch.events
        let start = batch.start
        var position = 0
        var nextEvent = 0
        while true {
            while nextEvent < events.count, events[nextEvent].position <= start &+ position {
                apply(events[nextEvent])
                nextEvent &+= 1
            }
            guard position < keys.count else { break }
            let end = nextEvent < events.count ? min(events[nextEvent].position &- start, keys.count) : keys.count
            while position < end {
                // Requests a few ahead start loading what they will touch (see prefetchDistance).
                if position &+ Self.prefetchDistance < keys.count {
                    cache.prefetch(keys[position &+ Self.prefetchDistance])
                }
                if position &+ Self.hitPrefetchDistance < keys.count {
                    hitSlots[(position &+ Self.hitPrefetchDistance) & 7] = cache.prefetchHit(
                        keys[position &+ Self.hitPrefetchDistance])
                }
                let neighbour = hitSlots[(position &+ Self.neighbourPrefetchDistance) & 7]
                if neighbour >= 0 { cache.prefetchHitNeighbours(neighbour) }
                let key = keys[position]
                let size = sizes[position]
                let now = times[position]
                if Policy.needsFuture { cache.upcoming(nextUse: nextUses[position]) }
                if cache.value(forKey: key, size: size, at: now) != nil {
                    tally.hit(size: size)
                    state.pointee.recorder.hit(size: size)
                } else {
                    cache.insertAfterMiss((), forKey: key, size: size, at: now)
                    tally.miss(size: size)
                    state.pointee.recorder.miss(size: size)
                }
                position &+= 1
            }
        }
        while nextEvent < events.count {
            apply(events[nextEvent])
            nextEvent &+= 1
        }
        state.pointee.tally = tally
    }

    private func apply(_ event: TraceEvent) {
        switch event.kind {
        case .relaunch:
            result.relaunches += 1
            if result.configuration.tier == .memory { cache.removeAll() }
            cache.restartAdmission()
        case .background, .foreground, .memoryWarning, .favourite, .unfavourite:
            // A single cache has no app around it to trim, and no favourites to keep: pins are a
            // client's (`Replay.simulate(_:client:)`).
            break
        }
    }

    func finish() -> RunResult {
        var result = result
        state.pointee.tally.apply(to: &result, tier: result.configuration.tier)
        result.evictions = cache.evictions
        result.expirations = cache.expirations
        result.notAdmitted = cache.notAdmitted
        result.entries = cache.count
        result.latency = state.pointee.recorder.summary()
        result.metadataBytes = ledger.peakBytes
        return result
    }
}
