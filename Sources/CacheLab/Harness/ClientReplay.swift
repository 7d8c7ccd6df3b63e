extension Replay {
    /// Replays `trace` through a client's two tiers: a lookup tries memory, then disk, then the
    /// network; a disk hit is copied into memory; a download goes into both. App events act as
    /// the client does (`ClientLifecycle`): a relaunch empties memory and reopens the disk from
    /// what it persisted, going to the background may trim memory and sweep the disk, a memory
    /// warning trims memory.
    ///
    /// A relaunch models the real disk tier (`DiskTier` over SQLite), which persists each entry's
    /// size and last use but not its policy's private state: the disk's order is rebuilt from
    /// last use, each entry re-inserted at its last-use time. For LRU-ordered policies without a
    /// fixed TTL that changes nothing; for FIFO, LFU or a fixed TTL it is what a relaunched app
    /// really has.
    ///
    /// A client has no future knowledge: a tier whose policy needs it (Belady) is a programmer
    /// mistake here; check `ClientConfiguration.requireOnline()` first.
    ///
    /// - Parameter outcomes: also return every request's `RequestOutcome`, in trace order (for
    ///   comparing with a live replay).
    public static func simulate(_ trace: Trace, client: ClientConfiguration, outcomes: Bool = false) -> RunResult {
        let memoryKind = client.memory?.policy ?? .lru
        let diskKind = client.disk?.policy ?? .lru
        do throws(PolicyError) { try client.requireOnline() } catch {
            preconditionFailure("Replay.simulate(client:): \(error)")
        }
        return memoryKind.withOrder(
            MemoryOrder(trace: trace, client: client, diskKind: diskKind, recordsOutcomes: outcomes))
    }
}

/// Picks the memory tier's policy type, then the disk tier's, so the loop is specialized for both.
private struct MemoryOrder: PolicyBody {
    let trace: Trace
    let client: ClientConfiguration
    let diskKind: PolicyKind
    let recordsOutcomes: Bool

    func run<Memory: EvictionPolicy>(_ memory: Memory.Type) -> RunResult {
        diskKind.withOrder(ClientSimulation<Memory>(trace: trace, client: client, recordsOutcomes: recordsOutcomes))
    }
}

private struct ClientSimulation<Memory: EvictionPolicy>: PolicyBody {
    let trace: Trace
    let client: ClientConfiguration
    let recordsOutcomes: Bool

    func run<Disk: EvictionPolicy>(_ disk: Disk.Type) -> RunResult {
        let memoryCache = client.memoryLimits.map { limits in
            Cache<UInt64, Void, Memory>(configuration: limits, expectedCount: trace.expectedEntries(under: limits))
        }
        let diskCache = client.diskLimits.map { limits in
            Cache<UInt64, Void, Disk>(configuration: limits, expectedCount: trace.expectedEntries(under: limits))
        }
        let persisted = diskCache.flatMap { diskCache in
            needsRebuild
                ? PersistedOrder(of: diskCache, expectedCount: trace.expectedEntries(under: diskCache.configuration))
                : nil
        }
        let memoryLatency = LatencyModel(network: client.network, tier: .memory)
        let diskLatency = LatencyModel(network: client.network, tier: .disk)
        var recorder = HistogramRecorder(memoryLatency)
        var result = RunResult(trace: trace.name, client: client)
        var lifecycle = ClientLifecycle(client: client)
        var outcomes: [RequestOutcome] = []
        if recordsOutcomes { outcomes.reserveCapacity(trace.count) }
        var nextEvent = 0

        func apply(_ event: TraceEvent) {
            for action in lifecycle.actions(for: event) {
                switch action {
                case .relaunch:
                    result.relaunches += 1
                    memoryCache?.removeAll()
                    if let diskCache {
                        persisted?.rebuild(diskCache)
                        diskCache.sweep(limit: diskCache.configuration.capacity, trimRatio: 1, at: event.time)
                    }
                case .trimMemory(let target):
                    memoryCache?.trim(toCost: target)
                case .sweepDisk(let limit, let trimRatio):
                    diskCache?.sweep(limit: limit, trimRatio: trimRatio, at: event.time)
                }
            }
        }

        for position in 0..<trace.count {
            while nextEvent < trace.events.count, trace.events[nextEvent].position <= position {
                apply(trace.events[nextEvent])
                nextEvent += 1
            }
            let key = trace.keys[position]
            let size = trace.sizes[position]
            let now = trace.times[position]
            result.bytesRequested += size
            let outcome: RequestOutcome
            if memoryCache?.value(forKey: key, at: now) != nil {
                outcome = .memory
                result.memoryHits += 1
                result.bytesHit += size
                recorder.record(memoryLatency.hitMicroseconds(size: size))
            } else if diskCache?.value(forKey: key, at: now) != nil {
                outcome = .disk
                result.diskHits += 1
                result.bytesHit += size
                persisted?.used(key, size: size, at: now)
                memoryCache?.insertAfterMiss((), forKey: key, size: size, at: now)
                recorder.record(diskLatency.hitMicroseconds(size: size))
            } else {
                outcome = .network
                if diskCache?.insertAfterMiss((), forKey: key, size: size, at: now) == true {
                    persisted?.used(key, size: size, at: now)
                }
                memoryCache?.insertAfterMiss((), forKey: key, size: size, at: now)
                recorder.record(memoryLatency.missMicroseconds(size: size))
            }
            if recordsOutcomes { outcomes.append(outcome) }
        }
        for event in trace.events[nextEvent...] { apply(event) }

        result.requests = trace.count
        result.hits = result.memoryHits + result.diskHits
        result.misses = trace.count - result.hits
        result.bytesDownloaded = result.bytesRequested - result.bytesHit
        result.evictions = (memoryCache?.evictions ?? 0) + (diskCache?.evictions ?? 0)
        result.expirations = (memoryCache?.expirations ?? 0) + (diskCache?.expirations ?? 0)
        result.latency = recorder.latencies.summary()
        result.outcomes = outcomes
        return result
    }

    // Rebuilding from last use changes the disk's state unless its policy orders by recency and
    // no fixed lifetime counts from insertion.
    private var needsRebuild: Bool {
        guard let disk = client.disk, let limits = client.diskLimits,
            trace.events.contains(where: { $0.kind == .relaunch })
        else { return false }
        return !(disk.policy.ordersByRecency && (limits.ttl == nil || limits.ttlMode == .sliding))
    }
}

/// What a persistent disk tier remembers of each entry: its size and last use, in order of last
/// use. Kept beside the simulated disk so a relaunch can rebuild it as `DiskTier` does at open.
private final class PersistedOrder<Key: CacheKey> {
    struct LastUse {
        var time: Int64
        var size: Int
    }

    // LRU over the disk's keys: next victim = least recently used. Unlimited, one unit each.
    private let recency: Cache<Key, LastUse, LRUPolicy>

    init<Disk>(of disk: Cache<Key, Void, Disk>, expectedCount: Int) {
        recency = Cache(
            configuration: CacheConfiguration(capacity: 1 << 50, sizeMode: .unit), expectedCount: expectedCount)
        disk.onRemoval = { [recency] key, _, _ in _ = recency.removeValue(forKey: key) }
    }

    /// Records a disk hit or insertion of `key` at `now`.
    @inline(__always)
    func used(_ key: Key, size: Int, at now: Int64) {
        recency.insert(LastUse(time: now, size: size), forKey: key, size: 1, at: now)
    }

    /// Empties `disk` and inserts every entry again, least recently used first, at its last use.
    func rebuild<Disk>(_ disk: Cache<Key, Void, Disk>) {
        let keys = recency.storedKeys
        disk.removeAll()
        for key in keys {
            // Reading in order re-touches every key in the same order: the recency list is unchanged.
            guard let use = recency.value(forKey: key, at: 0) else { continue }
            if !disk.insert((), forKey: key, size: use.size, at: use.time) {
                _ = recency.removeValue(forKey: key)
            }
        }
    }
}
