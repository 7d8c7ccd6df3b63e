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
        case .latencyP50: Report.decimal(result.latency.p50, places: 3)
        case .latencyP95: Report.decimal(result.latency.p95, places: 3)
        case .latencyP99: Report.decimal(result.latency.p99, places: 3)
        case .latencyMean: Report.decimal(result.latency.mean, places: 3)
        case .memoryPolicy: result.tiers.memory?.policy.rawValue ?? ""
        case .memoryCapacityBytes: result.tiers.memory.map { String($0.capacity) } ?? ""
        case .diskPolicy: result.tiers.disk?.policy.rawValue ?? ""
        case .diskCapacityBytes: result.tiers.disk.map { String($0.capacity) } ?? ""
        case .memoryHits: String(result.memoryHits)
        case .diskHits: String(result.diskHits)
        case .mode: result.mode
        case .failures: String(result.failures)
        case .serverRequests: result.serverRequests.map(String.init) ?? ""
        case .serverBytes: result.serverBytes.map(String.init) ?? ""
        case .memoryLatencyP50: result.latencyBySource[.memory].map { Report.decimal($0.p50, places: 3) } ?? ""
        case .diskLatencyP50: result.latencyBySource[.disk].map { Report.decimal($0.p50, places: 3) } ?? ""
        case .networkLatencyP50: result.latencyBySource[.network].map { Report.decimal($0.p50, places: 3) } ?? ""
        case .networkLatencyP99: result.latencyBySource[.network].map { Report.decimal($0.p99, places: 3) } ?? ""
        case .optRatio: result.optRatio.map { Report.decimal($0, places: 6) } ?? ""
        case .entries: result.entries.map(String.init) ?? ""
        case .metadataBytes: result.metadataBytes.map(String.init) ?? ""
        }
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
