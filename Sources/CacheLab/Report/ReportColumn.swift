import ClientModel

/// The columns of cachelab's CSV report, in their stable order. Scripts depend on these names:
/// add new columns at the end, never rename or reorder.
public enum ReportColumn: String, CaseIterable, Sendable {
    case trace
    case policy
    case sizeMode = "size_mode"
    /// Bytes in bytes mode, objects in unit mode.
    case capacityBytes = "capacity_bytes"
    case ttlSeconds = "ttl_s"
    case ttlMode = "ttl_mode"
    case trimRatio = "trim_ratio"
    case network
    case tier
    case requests
    case hits
    case misses
    case hitRatio = "hit_ratio"
    case bytesRequested = "bytes_requested"
    case bytesHit = "bytes_hit"
    case byteHitRatio = "byte_hit_ratio"
    case bytesDownloaded = "bytes_downloaded"
    case bytesSaved = "bytes_saved"
    case evictions
    case expirations
    case relaunches
    case latencyP50 = "latency_p50_ms"
    case latencyP95 = "latency_p95_ms"
    case latencyP99 = "latency_p99_ms"
    case latencyMean = "latency_mean_ms"
    case memoryPolicy = "memory_policy"
    case memoryCapacityBytes = "memory_capacity_bytes"
    case diskPolicy = "disk_policy"
    case diskCapacityBytes = "disk_capacity_bytes"
    case memoryHits = "memory_hits"
    case diskHits = "disk_hits"
    case mode
    case failures
    case serverRequests = "server_requests"
    case serverBytes = "server_bytes"
    case memoryLatencyP50 = "memory_latency_p50_ms"
    case diskLatencyP50 = "disk_latency_p50_ms"
    case networkLatencyP50 = "network_latency_p50_ms"
    case networkLatencyP99 = "network_latency_p99_ms"
    /// Hit ratio ÷ Belady's on the same trace and capacity (`run --vs-opt`); empty otherwise.
    case optRatio = "opt_ratio"
    case entries
    case metadataBytes = "metadata_bytes"
    /// Client runs: `favourite` and `unfavourite` events, the most bytes favourites pinned at
    /// once in each tier (beside its capacity), and pins refused for a full pin budget.
    case favouriteEvents = "favourite_events"
    case pinnedMemoryPeakBytes = "pinned_memory_peak_bytes"
    case pinnedDiskPeakBytes = "pinned_disk_peak_bytes"
    case pinRefusals = "pin_refusals"
    /// Client runs: what the memory tier charged for an image (`decoded` or `encoded`), the most
    /// it held at once in that unit, and the most bytes the disk tier held at once.
    case memoryCost = "memory_cost"
    case memoryPeakCost = "memory_peak_cost"
    case diskPeakBytes = "disk_peak_bytes"
    /// Client runs: requests that waited for a download already under way, and their share of
    /// all the latency.
    case delayedHits = "delayed_hits"
    case delayedLatencyShare = "delayed_latency_share"
    /// The admission filter in front of the policy (`--admission`; for a client, each tier's:
    /// `memory:F disk:F`), empty for none; and the misses it refused.
    case admission
    case notAdmitted = "not_admitted"

    /// The value of this column for `result`, as written to CSV.
    public func value(of result: RunResult) -> String {
        switch self {
        case .trace: result.trace
        case .policy: result.label
        case .sizeMode: result.cache.sizeMode.rawValue
        case .capacityBytes: String(result.cache.capacity)
        case .ttlSeconds: result.cache.ttl.map { Report.decimal(Double($0) / 1000, places: 3) } ?? ""
        case .ttlMode: result.cache.ttl == nil ? "" : result.cache.ttlMode.rawValue
        case .trimRatio: Report.decimal(result.cache.trimRatio, places: 2)
        case .network: result.configuration.network.rawValue
        case .tier: result.configuration.tier.rawValue
        case .requests: String(result.requests)
        case .hits: String(result.hits)
        case .misses: String(result.misses)
        case .hitRatio: Report.decimal(result.hitRatio, places: 6)
        case .bytesRequested: String(result.bytesRequested)
        case .bytesHit: String(result.bytesHit)
        case .byteHitRatio: Report.decimal(result.byteHitRatio, places: 6)
        case .bytesDownloaded: String(result.bytesDownloaded)
        case .bytesSaved: String(result.bytesSaved)
        case .evictions: String(result.evictions)
        case .expirations: String(result.expirations)
        case .relaunches: String(result.relaunches)
        case .latencyP50: Report.decimal(Report.latency(of: result).p50, places: 3)
        case .latencyP95: Report.decimal(Report.latency(of: result).p95, places: 3)
        case .latencyP99: Report.decimal(Report.latency(of: result).p99, places: 3)
        case .latencyMean: Report.decimal(Report.latency(of: result).mean, places: 3)
        case .memoryPolicy: result.tiers.memory?.policy.rawValue ?? ""
        case .memoryCapacityBytes: result.tiers.memory.map { String($0.capacity) } ?? ""
        case .diskPolicy: result.tiers.disk?.policy.rawValue ?? ""
        case .diskCapacityBytes: result.tiers.disk.map { String($0.capacity) } ?? ""
        case .memoryHits: String(result.memoryHits)
        case .diskHits: String(result.diskHits)
        case .mode: result.mode.rawValue
        case .failures: String(result.live?.failures ?? 0)
        case .serverRequests: result.live.map { String($0.serverRequests) } ?? ""
        case .serverBytes: result.live.map { String($0.serverBytes) } ?? ""
        case .memoryLatencyP50: sourceLatency(result, .memory) { $0.p50 }
        case .diskLatencyP50: sourceLatency(result, .disk) { $0.p50 }
        case .networkLatencyP50: sourceLatency(result, .network) { $0.p50 }
        case .networkLatencyP99: sourceLatency(result, .network) { $0.p99 }
        case .optRatio: result.optRatio.map { Report.decimal($0, places: 6) } ?? ""
        case .entries: result.entries.map(String.init) ?? ""
        case .metadataBytes: result.metadataBytes.map(String.init) ?? ""
        case .favouriteEvents: result.client.map { String($0.favouriteEvents) } ?? ""
        case .pinnedMemoryPeakBytes: result.client.map { String($0.pins.peakMemoryBytes) } ?? ""
        case .pinnedDiskPeakBytes: result.client.map { String($0.pins.peakDiskBytes) } ?? ""
        case .pinRefusals: result.client.map { String($0.pins.refusals) } ?? ""
        case .memoryCost: result.client?.memoryCost.rawValue ?? ""
        case .memoryPeakCost: result.client.flatMap { $0.memory == nil ? nil : String($0.memoryPeakCost) } ?? ""
        case .diskPeakBytes: result.client.flatMap { $0.disk == nil ? nil : String($0.diskPeakBytes) } ?? ""
        case .delayedHits: result.client.map { String($0.delayedHits) } ?? ""
        case .delayedLatencyShare: result.client.map { Report.decimal($0.delayedLatencyShare, places: 6) } ?? ""
        case .admission: result.admissionLabel
        case .notAdmitted: String(result.notAdmitted)
        }
    }

    /// A live run's latency of the requests `source` served, in ms; empty otherwise.
    private func sourceLatency(
        _ result: RunResult, _ source: RequestOutcome, _ percentile: (LatencySummary) -> Double
    ) -> String {
        result.live?.latencyBySource[source].map { Report.decimal(percentile($0), places: 3) } ?? ""
    }
}

extension RunResult {
    /// The tiers this run had: a client's two, or a single-tier run's one.
    var tiers: (memory: TierConfiguration?, disk: TierConfiguration?) {
        if let client { return (client.memory, client.disk) }
        let tier = TierConfiguration(
            policy: configuration.policy, capacity: cache.capacity, ttl: cache.ttl, ttlMode: cache.ttlMode,
            trimRatio: cache.trimRatio)
        return configuration.tier == .memory ? (tier, nil) : (nil, tier)
    }
}
