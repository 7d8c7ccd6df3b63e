extension Replay {
    /// Replays `trace` through a client's two tiers: a lookup tries memory, then disk, then the
    /// network; a disk hit is copied into memory; a download goes into both. App events act as
    /// the client does: a relaunch empties memory (and may sweep the disk), going to the
    /// background may trim memory and sweep the disk, a memory warning trims memory.
    public static func simulate(_ trace: Trace, client: ClientConfiguration) -> RunResult {
        let memoryKind = client.memory?.policy ?? .lru
        let diskKind = client.disk?.policy ?? .lru
        return memoryKind.withOrder(MemoryOrder(trace: trace, client: client, diskKind: diskKind))
    }
}

/// Picks the memory tier's policy type, then the disk tier's, so the loop is specialized for both.
private struct MemoryOrder: PolicyBody {
    let trace: Trace
    let client: ClientConfiguration
    let diskKind: PolicyKind

    func run<Memory: EvictionPolicy>(_ memory: Memory.Type) -> RunResult {
        diskKind.withOrder(ClientSimulation<Memory>(trace: trace, client: client))
    }
}

private struct ClientSimulation<Memory: EvictionPolicy>: PolicyBody {
    let trace: Trace
    let client: ClientConfiguration

    func run<Disk: EvictionPolicy>(_ disk: Disk.Type) -> RunResult {
        let memoryCache = client.memory.map { tier in
            Cache<UInt64, Void, Memory>(
                configuration: limits(tier, hard: true), expectedCount: expected(tier, hard: true))
        }
        let softDisk = client.diskSweep != .onInsert
        let diskCache = client.disk.map { tier in
            Cache<UInt64, Void, Disk>(
                configuration: limits(tier, hard: !softDisk), expectedCount: expected(tier, hard: !softDisk))
        }
        let memoryLatency = LatencyModel(network: client.network, tier: .memory)
        let diskLatency = LatencyModel(network: client.network, tier: .disk)
        var recorder = HistogramRecorder(memoryLatency)
        var result = RunResult(trace: trace.name, client: client)
        var lastSweep: Int64?
        var nextEvent = 0

        func sweepDisk(at now: Int64) {
            guard let diskCache, let tier = client.disk else { return }
            diskCache.sweep(limit: tier.capacity, trimRatio: tier.trimRatio ?? 1, at: now)
            lastSweep = now
        }

        func apply(_ event: TraceEvent) {
            switch event.kind {
            case .relaunch:
                result.relaunches += 1
                memoryCache?.removeAll()
                switch client.diskSweep {
                case .onInsert: break
                case .atLaunch(let interval):
                    if lastSweep.map({ event.time - $0 >= interval }) ?? true { sweepDisk(at: event.time) }
                case .atBackgroundAndLaunch: sweepDisk(at: event.time)
                }
            case .background:
                if let share = client.memoryShareKeptInBackground, let memoryCache, let tier = client.memory {
                    memoryCache.trim(toCost: Int(Double(tier.capacity) * share))
                }
                if client.diskSweep == .atBackgroundAndLaunch { sweepDisk(at: event.time) }
            case .memoryWarning:
                if let memoryCache, let tier = client.memory {
                    memoryCache.trim(toCost: Int(Double(tier.capacity) * client.memoryShareKeptOnWarning))
                }
            case .foreground:
                break
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
            let latency: Int
            if memoryCache?.value(forKey: key, at: now) != nil {
                result.memoryHits += 1
                result.bytesHit += size
                latency = memoryLatency.hitMicroseconds(size: size)
            } else if diskCache?.value(forKey: key, at: now) != nil {
                result.diskHits += 1
                result.bytesHit += size
                memoryCache?.insertAfterMiss((), forKey: key, size: size, at: now)
                latency = diskLatency.hitMicroseconds(size: size)
            } else {
                diskCache?.insertAfterMiss((), forKey: key, size: size, at: now)
                memoryCache?.insertAfterMiss((), forKey: key, size: size, at: now)
                latency = memoryLatency.missMicroseconds(size: size)
            }
            recorder.record(latency)
        }
        for event in trace.events[nextEvent...] { apply(event) }

        result.requests = trace.count
        result.hits = result.memoryHits + result.diskHits
        result.misses = trace.count - result.hits
        result.bytesDownloaded = result.bytesRequested - result.bytesHit
        result.evictions = (memoryCache?.evictions ?? 0) + (diskCache?.evictions ?? 0)
        result.expirations = (memoryCache?.expirations ?? 0) + (diskCache?.expirations ?? 0)
        result.latency = recorder.summary(requests: trace.count)
        return result
    }

    // A soft-limited disk tier takes everything between sweeps: its engine gets no real limit.
    private func limits(_ tier: TierConfiguration, hard: Bool) -> CacheConfiguration {
        tier.policy.configuration(
            capacity: hard ? tier.capacity : 1 << 50, sizeMode: client.sizeMode, ttl: tier.ttl, ttlMode: tier.ttlMode,
            trimRatio: hard ? tier.trimRatio : 1)
    }

    private func expected(_ tier: TierConfiguration, hard: Bool) -> Int {
        trace.expectedEntries(under: limits(tier, hard: hard))
    }
}
