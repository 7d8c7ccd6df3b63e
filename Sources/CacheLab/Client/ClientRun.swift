import CacheEngine
import ClientModel

/// A client's two tiers replayed batch by batch, as `ImagePipeline` runs them: a request is looked
/// up at its time — a memory hit, a delayed hit when its image is downloading, a disk hit (copied
/// into memory), or a miss that starts a download — and a download's image is stored in memory,
/// then on disk, when the latency model says it ends (before the first request at or after that
/// time, at the latest time given then). The downloads under way end at every app event, where a
/// live replay waits for the answers, and at the end of the trace.
///
/// Prefetches (a request after a `prefetch` event) run as `ImagePrefetcher` runs them
/// (`PrefetchQueue`): at most `ClientConfiguration.prefetchesAtOnce` at once, the rest waiting in
/// order and looked up when a slot frees; a `stop_prefetch` drops a waiting one and cancels one
/// under way, whose download then stores nothing unless a row's request joined it.
///
/// Favourites follow the real tiers' rules (`PinnedEntries`, `ImagePipeline`): a `favourite`
/// pins the photo in each tier that holds it, memory first, and marks it wanted, so that each
/// tier that stores it later pins it right after the insertion; an `unfavourite` hands it back to
/// each tier's engine as used at that moment. Wanted photos outlive relaunches (favourites are
/// saved); memory pins do not, disk pins do.
///
/// One owner (a replay's worker thread), so its state is `@exclusivity(unchecked)`: the run-time
/// checks of a class's stored properties are a per-request cost (the Speed article's `tune`).
final class ClientRun {
    private let client: ClientConfiguration
    // Values are the entries' sizes in bytes, so a pinned entry's bytes are known in unit mode too.
    private let memoryCache: ClientTierCache?
    private let diskCache: ClientTierCache?
    @exclusivity(unchecked) private var memoryPins: PinnedEntries<UInt64, Void>
    @exclusivity(unchecked) private var diskPins: PinnedEntries<UInt64, Void>
    // The photos of the favourites: pinned as each tier stores them.
    @exclusivity(unchecked) private var wanted: Set<UInt64> = []
    // Every photo ever wanted, as a Bloom filter: a request whose key it has never seen cannot be
    // pinned or wanted (the pins are a subset of `wanted`), so most requests skip the hashed
    // lookups (SipHash) of the pins and `wanted`.
    private let everWanted = Doorkeeper(entries: 128)
    // The most the memory tier held at once (its engine and its pins), in its unit.
    @exclusivity(unchecked) private var memoryPeak = 0
    // The most one image may cost to be stored in memory.
    private let largestInMemory: Int
    // The most the disk tier held at once (engine and pins), in its unit.
    @exclusivity(unchecked) private var diskPeak = 0
    private let persisted: PersistedOrder?
    private let memoryLatency: LatencyModel
    private let diskLatency: LatencyModel
    @exclusivity(unchecked) private var recorder: HistogramRecorder
    @exclusivity(unchecked) private var tally = RunTally()
    @exclusivity(unchecked) private var result: RunResult
    @exclusivity(unchecked) private var lifecycle: ClientLifecycle
    private let recordsOutcomes: Bool
    @exclusivity(unchecked) private var outcomes: [RequestOutcome] = []
    // Downloads under way, by modelled end (µs of trace time).
    @exclusivity(unchecked) private var downloads = DownloadsInFlight()
    // The latency of the delayed hits, summed (the histogram sums all of it).
    @exclusivity(unchecked) private var delayedLatencyTotal = 0
    // The latest time given (ms): when a download's image is stored.
    @exclusivity(unchecked) private var latest = Int64.min
    // With outcomes: each image's latest download's end in µs, for `timingSlack`.
    @exclusivity(unchecked) private var lastDownload: [UInt64: Int64] = [:]
    @exclusivity(unchecked) private var timingSlack: [UInt32] = []
    // The prefetcher's slots and queue, and the photo the next request prefetches (a `prefetch`
    // event names it).
    @exclusivity(unchecked) private var prefetches = PrefetchQueue(maxConcurrent: ClientConfiguration.prefetchesAtOnce)
    @exclusivity(unchecked) private var prefetchKey: UInt64?

    init(client: ClientConfiguration, recordsOutcomes: Bool, context: CellContext) {
        do throws(PolicyError) { try client.requireOnline() } catch {
            preconditionFailure("a client cell: \(error)")
        }
        self.client = client
        self.recordsOutcomes = recordsOutcomes
        memoryCache = client.memoryLimits.map {
            ClientTierCache.make(policy: client.memory?.policy ?? .lru, configuration: $0)
        }
        diskCache = client.diskLimits.map {
            ClientTierCache.make(policy: client.disk?.policy ?? .lru, configuration: $0)
        }
        memoryPins = PinnedEntries(budget: client.memoryPinBudget)
        largestInMemory = client.memory?.largestEntry ?? .max
        diskPins = PinnedEntries(budget: client.diskPinBudget)
        // The disk's order is rebuilt from last use at a relaunch, which changes it unless its
        // policy orders by recency and no fixed lifetime counts from insertion.
        persisted = diskCache.flatMap { diskCache in
            guard let disk = client.disk, let limits = client.diskLimits,
                !(disk.policy.ordersByRecency && (limits.ttl == nil || limits.ttlMode == .sliding))
            else { return nil }
            return PersistedOrder(of: diskCache)
        }
        memoryLatency = LatencyModel(network: client.network, tier: .memory)
        diskLatency = LatencyModel(network: client.network, tier: .disk)
        recorder = HistogramRecorder(memoryLatency)
        result = RunResult(trace: context.name, client: client)
        lifecycle = ClientLifecycle(client: client)
    }

    func replay(_ batch: RequestBatch) {
        var nextEvent = 0
        let events = batch.events
        // The tiers' lookups, bound once a batch: called through the tiers' stored properties
        // from `lookUp` (which the compiler does not inline), each call retained and released
        // its closure's context.
        let memoryValue = memoryCache?.value
        let diskValue = diskCache?.value
        for index in 0..<batch.count {
            while nextEvent < events.count, events[nextEvent].position <= batch.start + index {
                apply(events[nextEvent])
                nextEvent += 1
            }
            let key = batch.keys[index]
            let size = batch.sizes[index]
            let now = batch.times[index]
            // What the image costs in memory: its decoded bitmap, or its encoded bytes.
            let memorySize = client.memoryCost.bytes(
                size: size, pixels: batch.pixelSizes.isEmpty ? 0 : batch.pixelSizes[index])
            let nowMicroseconds = now &* 1_000
            // The downloads that have ended store their images first, at the latest time given.
            land(endedBy: nowMicroseconds)
            latest = max(latest, now)
            if let prefetched = prefetchKey {
                prefetchKey = nil
                if prefetched == key {
                    prefetch(
                        PrefetchQueue.Prefetch(
                            position: batch.start + index, key: key, size: size, memorySize: memorySize, time: now),
                        at: nowMicroseconds)
                    continue
                }
            }
            let (outcome, latency) = lookUp(
                key, size: size, memorySize: memorySize, at: now, microseconds: nowMicroseconds, prefetch: false,
                memoryValue: memoryValue, diskValue: diskValue)
            if outcome == .delayed { delayedLatencyTotal &+= latency }
            recorder.record(latency)
            tally.record(outcome, size: size)
            if recordsOutcomes { recordOutcome(outcome, key: key, at: nowMicroseconds) }
        }
        for event in events[nextEvent...] { apply(event) }
    }

    // Looks a request up at `now` (ms; `microseconds` the moment it is made): a memory hit, a
    // delayed hit when its image is downloading, a disk hit (copied into memory), or a miss that
    // starts a download. Returns where it was served and its latency (µs). `memoryValue` and
    // `diskValue` are the tiers' `value`, bound by the caller.
    @inline(__always)
    private func lookUp(
        _ key: UInt64, size: Int, memorySize: Int, at now: Int64, microseconds: Int64, prefetch: Bool,
        memoryValue: TierLookup?, diskValue: TierLookup?
    ) -> (RequestOutcome, Int) {
        let mayBeWanted = everWanted.mightContain(key)
        if (mayBeWanted && memoryPins.contains(key)) || memoryValue?(key, now) != nil {
            return (.memory, memoryLatency.hitMicroseconds(size: size))
        } else if let end = downloads.end(of: key) {
            // Its image is downloading: the request waits for the rest of that download, which
            // a stopped prefetch then no longer cancels.
            if !prefetch { downloads.join(key) }
            return (.delayed, Int(end &- microseconds))
        } else if (mayBeWanted && diskPins.contains(key)) || diskValue?(key, now) != nil {
            persisted?.used(key, size: size, at: now)
            storeInMemory(key, size: memorySize, mayBeWanted: mayBeWanted, at: now)
            return (.disk, diskLatency.hitMicroseconds(size: size))
        } else {
            let latency = memoryLatency.missMicroseconds(size: size)
            downloads.start(
                key, size: size, memorySize: memorySize, endingAt: microseconds &+ Int64(latency), prefetch: prefetch)
            return (.network, latency)
        }
    }

    /// A tier's `value`: the entry's cost if the key is live at the time, else nil.
    private typealias TierLookup = (_ key: UInt64, _ now: Int64) -> Int?

    // MARK: Prefetches

    // A prefetch asked for at `microseconds`: waits for a slot unless its photo is already
    // waiting or under way (then dropped). Its outcome is known when it starts; until then its
    // place among the outcomes holds `.dropped`.
    private func prefetch(_ prefetch: PrefetchQueue.Prefetch, at microseconds: Int64) {
        if recordsOutcomes {
            outcomes.append(.dropped)
            timingSlack.append(.max)
        }
        guard prefetches.ask(prefetch) else {
            tally.record(.dropped, size: prefetch.size)
            return
        }
        startPrefetches(at: microseconds)
    }

    // Starts waiting prefetches while a slot is free, at `microseconds`: each looked up at the
    // time it was asked (as `ImagePrefetcher` passes it), holding its slot while it waits for a
    // download. A prefetch's latency is no row's: it is not recorded.
    private func startPrefetches(at microseconds: Int64) {
        let memoryValue = memoryCache?.value
        let diskValue = diskCache?.value
        while let prefetch = prefetches.next() {
            let (outcome, _) = lookUp(
                prefetch.key, size: prefetch.size, memorySize: prefetch.memorySize, at: prefetch.time,
                microseconds: microseconds, prefetch: true, memoryValue: memoryValue, diskValue: diskValue)
            tally.record(outcome, size: prefetch.size)
            if recordsOutcomes {
                recordOutcome(outcome, key: prefetch.key, at: microseconds, position: prefetch.position)
            }
            if outcome == .network || outcome == .delayed { prefetches.run(prefetch) }
        }
    }

    // The list stopped prefetching `key` at `microseconds`: a waiting prefetch is dropped; one
    // under way ends, its download cancelled unless a row joined it; a freed slot starts the next.
    private func stopPrefetch(_ key: UInt64, at microseconds: Int64) {
        switch prefetches.stop(key) {
        case .dropped(let prefetch):
            tally.record(.dropped, size: prefetch.size)
        case .ended:
            if let size = downloads.cancel(key) { tally.cancelled(size: size) }
            startPrefetches(at: microseconds)
        case .nothing:
            break
        }
    }

    // Notes `outcome` and how close the request came to another outcome by its timing: its
    // distance to the end of its image's latest download.
    // A prefetch's (`position`) fills the place it held since it was asked.
    private func recordOutcome(_ outcome: RequestOutcome, key: UInt64, at now: Int64, position: Int? = nil) {
        var slack = UInt32.max
        if let end = lastDownload[key], outcome != .network {
            slack = UInt32(min(abs(end - now), Int64(UInt32.max - 1)))
        }
        if let position {
            outcomes[position] = outcome
            timingSlack[position] = slack
        } else {
            outcomes.append(outcome)
            timingSlack.append(slack)
        }
        if outcome == .network, let end = downloads.end(of: key) { lastDownload[key] = end }
    }

    // Stores the images of the downloads ended by `now` (µs), soonest first: in memory, then on
    // disk, at the latest time given, as `ImagePipeline` stores a download when it arrives.
    @inline(__always)
    private func land(endedBy now: Int64) {
        while let landing = downloads.next(endedBy: now) {
            let key = landing.key
            let mayBeWanted = everWanted.mightContain(key)
            storeInMemory(key, size: landing.memorySize, mayBeWanted: mayBeWanted, at: latest)
            if diskCache?.insertAfterMiss(landing.size, key, latest) == true {
                persisted?.used(key, size: landing.size, at: latest)
                if mayBeWanted { pinIfWanted(key, in: diskCache, &diskPins, at: latest) }
                diskPeak = max(diskPeak, (diskCache?.totalCost() ?? 0) + diskPins.cost)
            }
            // A prefetch that waited for it ends: the next waiting one starts then.
            if prefetches.landed(key) { startPrefetches(at: landing.end) }
        }
    }

    // After a miss in memory: stores the image at its memory cost, pins it if wanted, and notes
    // the memory tier's peak.
    @inline(__always)
    private func storeInMemory(_ key: UInt64, size: Int, mayBeWanted: Bool, at now: Int64) {
        guard size <= largestInMemory, memoryCache?.insertAfterMiss(size, key, now) == true else { return }
        if mayBeWanted { pinIfWanted(key, in: memoryCache, &memoryPins, at: now) }
        memoryPeak = max(memoryPeak, (memoryCache?.totalCost() ?? 0) + memoryPins.cost)
    }

    @inline(__always)
    private func pinIfWanted(
        _ key: UInt64, in cache: ClientTierCache?, _ pins: inout PinnedEntries<UInt64, Void>, at now: Int64
    ) {
        guard !wanted.isEmpty, wanted.contains(key), let cache else { return }
        Self.pin(key, in: cache, &pins, at: now)
    }

    // Moves `key` from the engine to the pins if it is stored, alive at `now` and fits the budget
    // (as the real tiers' `pin`).
    private static func pin(
        _ key: UInt64, in cache: ClientTierCache, _ pins: inout PinnedEntries<UInt64, Void>, at now: Int64
    ) {
        guard !pins.contains(key), cache.isLive(key, now), let cost = cache.cost(key),
            pins.admits(cost: cost),
            let size = cache.removeValue(key)
        else { return }
        pins.set(key, (), cost: cost, size: size)
    }

    private func apply(_ event: TraceEvent) {
        switch event.kind {
        case .prefetch:
            // The request that follows is the prefetch (if it is of this photo).
            prefetchKey = event.key
            return
        case .stopPrefetch:
            // The prefetcher's events wait for nothing: only what has ended by then lands.
            land(endedBy: event.time &* 1_000)
            latest = max(latest, event.time)
            if let key = event.key { stopPrefetch(key, at: event.time &* 1_000) }
            return
        default:
            break
        }
        // A live replay waits at every app event for the answers before it, so the downloads
        // under way end there (and the prefetches waiting for slots start and end).
        land(endedBy: .max)
        latest = max(latest, event.time)
        let actions = lifecycle.actions(for: event)
        for action in actions {
            switch action {
            case .relaunch:
                result.relaunches += 1
                memoryCache?.removeAll()
                memoryCache?.restartAdmission()
                diskCache?.restartAdmission()
                memoryPins.removeAll()
                if let diskCache {
                    persisted?.rebuild(diskCache, keeping: diskPins, among: everWanted)
                    diskCache.sweep(diskCache.configuration.capacity, 1, event.time)
                }
            case .trimMemory(let target):
                memoryCache?.trim(target)
            case .sweepDisk(let limit, let trimRatio):
                diskCache?.sweep(limit, trimRatio, event.time)
            case .pin(let key):
                result.updateClient { $0.favouriteEvents += 1 }
                wanted.insert(key)
                _ = everWanted.put(key)
                if let memoryCache { Self.pin(key, in: memoryCache, &memoryPins, at: event.time) }
                if let diskCache { Self.pin(key, in: diskCache, &diskPins, at: event.time) }
            case .unpin(let key):
                result.updateClient { $0.favouriteEvents += 1 }
                wanted.remove(key)
                if let entry = memoryPins.remove(key) {
                    _ = memoryCache?.restore(entry.size, key, event.time)
                }
                if let entry = diskPins.remove(key), let diskCache {
                    if diskCache.restore(entry.size, key, event.time) {
                        persisted?.used(key, size: entry.size, at: event.time)
                    } else {
                        persisted?.forget(key)
                    }
                }
            }
        }
    }

    func finish() -> RunResult {
        land(endedBy: .max)
        var result = result
        tally.apply(to: &result)
        let none = (evictions: 0, expirations: 0, notAdmitted: 0)
        let memory = memoryCache?.counts() ?? none
        let disk = diskCache?.counts() ?? none
        result.evictions = memory.evictions + disk.evictions
        result.expirations = memory.expirations + disk.expirations
        result.notAdmitted = memory.notAdmitted + disk.notAdmitted
        result.latency = recorder.latencies.summary()
        let latencyTotal = recorder.latencies.sum
        result.updateClient { client in
            client.pins = PinSummary(memory: memoryPins, disk: diskPins)
            client.memoryPeakCost = memoryPeak
            client.diskPeakBytes = diskPeak
            client.delayedLatencyShare = latencyTotal == 0 ? 0 : Double(delayedLatencyTotal) / Double(latencyTotal)
            if recordsOutcomes {
                client.outcomes = outcomes
                client.timingSlack = timingSlack
            }
        }
        return result
    }
}

/// What a persistent disk tier remembers of each entry: its size and last use, in order of last
/// use. Kept beside the simulated disk so a relaunch can rebuild it as `DiskTier` does at open.
/// Each key's record is found through the engine's key index, and the records are linked least
/// recently used first.
private final class PersistedOrder {
    struct LastUse {
        var time: Int64
        var size: Int
    }

    @exclusivity(unchecked) private var records = KeyedRecords(filler: LastUse(time: 0, size: 0))
    // Least recently used first.
    @exclusivity(unchecked) private var order = SlotList()

    init(of disk: ClientTierCache) {
        disk.observeRemovals { [self] key in forget(key) }
    }

    /// Records a disk hit or insertion of `key` at `now`.
    @inline(__always)
    func used(_ key: UInt64, size: Int, at now: Int64) {
        let use = LastUse(time: now, size: size)
        if let record = records.find(key) {
            records.extras[record] = use
            order.moveToTail(record, in: records.links)
        } else {
            order.append(records.add(key, cost: 0, extra: use), in: records.links)
        }
    }

    /// Forgets `key`: it is no longer on disk.
    func forget(_ key: UInt64) {
        guard let record = records.find(key) else { return }
        order.remove(record, in: records.links)
        records.remove(record)
    }

    /// Empties `disk` and inserts every entry again, least recently used first, at its last use,
    /// but for the pinned ones, which stay out of the engine (their last use is still kept); each
    /// pin is among `wanted`, so only a key it might hold is looked up in the pins. An entry the
    /// disk does not take back is forgotten; an insertion evicts only entries already put back,
    /// so the walk's next record is never one of them.
    func rebuild<Pinned>(
        _ disk: ClientTierCache, keeping pins: PinnedEntries<UInt64, Pinned>, among wanted: Doorkeeper
    ) {
        disk.removeAll()
        var next = order.first
        while let record = next {
            next = records.links.next(record)
            let key = records.key(record)
            let use = records.extras[record]
            guard !(wanted.mightContain(key) && pins.contains(key)) else { continue }
            if !disk.restore(use.size, key, use.time) { forget(key) }
        }
    }
}
