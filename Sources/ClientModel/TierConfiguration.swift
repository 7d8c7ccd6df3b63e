import CacheEngine

/// One tier of a client's image cache: its policy and limits.
public struct TierConfiguration: Sendable, Equatable, Codable {
    public var policy: PolicyKind
    /// Bytes, or objects in unit mode. For a tier with a soft limit (swept, not enforced on
    /// insert) this is the limit the sweeps trim against.
    public var capacity: Int
    public var ttl: Int64?
    public var ttlMode: TTLMode
    public var trimRatio: Double?
    /// What favourites may hold pinned in this tier, beside `capacity` (same unit); nil: as much
    /// as `capacity`. A pin that does not fit is refused and the image cached as usual.
    public var pinBudget: Int?
    /// The most one entry may cost to be stored in a memory tier (Nuke's: under 10 % of the
    /// limit); nil: anything up to the capacity.
    public var largestEntry: Int?
    /// The admission filter in front of the tier's policy; nil: every miss is stored.
    public var admission: AdmissionFilter?

    @inlinable public init(
        policy: PolicyKind, capacity: Int, ttl: Int64? = nil, ttlMode: TTLMode = .fixed, trimRatio: Double? = nil,
        pinBudget: Int? = nil, largestEntry: Int? = nil, admission: AdmissionFilter? = nil
    ) {
        precondition(pinBudget.map { $0 >= 0 } ?? true, "a pin budget cannot be negative")
        self.policy = policy
        self.capacity = capacity
        self.ttl = ttl
        self.ttlMode = ttlMode
        self.trimRatio = trimRatio
        self.pinBudget = pinBudget
        self.largestEntry = largestEntry
        self.admission = admission
    }

    /// The pin budget in force: `pinBudget`, or the capacity.
    @inlinable public var effectivePinBudget: Int { pinBudget ?? capacity }
}
