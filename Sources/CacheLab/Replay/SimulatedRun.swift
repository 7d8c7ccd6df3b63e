import CacheEngine

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
    /// The slots stage 2 found (nil: a miss), by request position modulo 8, for stage 3.
    private let hitSlots = UnsafeMutablePointer<Int32?>.allocate(capacity: 8)

    init(configuration: RunConfiguration, recorder: Recorder, context: CellContext) {
        result = RunResult(trace: context.name, configuration: configuration)
        let limits = result.cache
        cache = StorageLedger.$current.withValue(ledger) {
            Cache(configuration: limits, expectedCount: limits.initialEntries)
        }
        state = .allocate(capacity: 1)
        state.initialize(to: State(recorder: recorder))
        hitSlots.initialize(repeating: nil, count: 8)
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
        // FIFO's hits touch nothing but the index: stages 2 and 3 would only look it up again.
        let prefetchesHits = cache.prefetchesHits
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
                if prefetchesHits {
                    if position &+ Self.hitPrefetchDistance < keys.count {
                        hitSlots[(position &+ Self.hitPrefetchDistance) & 7] = cache.prefetchHit(
                            keys[position &+ Self.hitPrefetchDistance])
                    }
                    if let neighbour = hitSlots[(position &+ Self.neighbourPrefetchDistance) & 7] {
                        cache.prefetchHitNeighbours(neighbour)
                    }
                }
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
        case .background, .foreground, .memoryWarning, .favourite, .unfavourite, .prefetch, .stopPrefetch:
            // A single cache has no app around it to trim, no favourites to keep and no
            // prefetcher: pins and prefetches are a client's (`Replay.simulate(_:client:)`); a
            // prefetch's request is a request like any other here.
            break
        }
    }

    func finish() -> RunResult {
        var result = result
        state.pointee.tally.apply(to: &result, tier: result.configuration.tier)
        result.evictions = cache.evictions
        result.expirations = cache.expirations
        result.notAdmitted = cache.notAdmitted
        result.latency = state.pointee.recorder.summary()
        result.kind = .tier(TierMeasurements(entries: cache.count, metadataBytes: ledger.peakBytes))
        return result
    }
}
