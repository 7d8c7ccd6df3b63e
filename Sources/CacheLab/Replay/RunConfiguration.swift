import CacheEngine
import ClientModel

/// Everything that defines one simulated run of one trace.
public struct RunConfiguration: Sendable, Equatable, Codable {
    public var policy: PolicyKind
    /// Bytes, or objects in unit mode.
    public var capacity: Int
    public var sizeMode: SizeMode
    /// Entry lifetime in milliseconds of trace time; `nil` = the policy's default (none except `ttl`).
    public var ttl: Int64?
    public var ttlMode: TTLMode
    /// `nil` = the policy's default (0.7 for `size`, else 1).
    public var trimRatio: Double?
    public var network: NetworkProfile
    public var tier: TierKind
    /// The admission filter in front of the policy (`--admission`); nil: every miss is stored.
    public var admission: AdmissionFilter?

    public init(
        policy: PolicyKind,
        capacity: Int,
        sizeMode: SizeMode = .bytes,
        ttl: Int64? = nil,
        ttlMode: TTLMode = .fixed,
        trimRatio: Double? = nil,
        network: NetworkProfile = .wifi,
        tier: TierKind = .disk,
        admission: AdmissionFilter? = nil
    ) {
        self.policy = policy
        self.capacity = capacity
        self.sizeMode = sizeMode
        self.ttl = ttl
        self.ttlMode = ttlMode
        self.trimRatio = trimRatio
        self.network = network
        self.tier = tier
        self.admission = admission
    }

    /// The engine limits this run uses, the policy's defaults filled in.
    public var cacheConfiguration: CacheConfiguration {
        var limits = policy.configuration(
            capacity: capacity, sizeMode: sizeMode, ttl: ttl, ttlMode: ttlMode, trimRatio: trimRatio)
        limits.admission = admission
        return limits
    }
}
