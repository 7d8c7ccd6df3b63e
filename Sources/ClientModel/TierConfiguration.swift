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
    /// What favourites may hold pinned in this tier, beside `capacity` (same unit). A pin that
    /// does not fit is refused and the image cached as usual. nil: the tier's default, which does
    /// not follow the tuned capacity (`ClientConfiguration.memoryPinBudget`, `diskPinBudget`):
    /// - **disk**: `ClientConfiguration.defaultDiskPinBudget`, 10,000,000 bytes (128 entries in
    ///   unit mode): 64 favourites with both photos at the largest sizes the fixture server draws
    ///   (14 KB small, 140 KB large: 9.86 MB), or about 94 at the real API's sampled sizes
    ///   (9,959 + 95,670 bytes). The disk is what keeps favourites offline.
    /// - **memory**: its `capacity`. Memory pins only spare favourites a download while the app
    ///   runs; more than the memory tier's size would crowd out the list.
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
}
