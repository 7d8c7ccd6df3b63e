/// How capacity is counted.
public enum SizeMode: String, CaseIterable, Sendable, Codable {
    /// Capacity and costs are bytes.
    case bytes
    /// Every entry costs 1; capacity is a number of entries.
    case unit
}

/// When an entry's lifetime starts counting.
public enum TTLMode: String, CaseIterable, Sendable, Codable {
    /// An entry expires a fixed time after it was inserted.
    case fixed
    /// An entry expires a fixed time after it was last inserted or hit (Kingfisher's memory cache).
    case sliding
}

/// The limits of one cache: everything the engine enforces, independent of the eviction order.
public struct CacheConfiguration: Sendable, Equatable, Codable {
    /// A capacity no trace reaches (2^50 bytes, or entries): a tier without a limit of its own
    /// (a disk swept later rather than on insert, a preset's "unlimited" cache).
    public static let unlimited = 1 << 50

    /// Bytes in `.bytes` mode, entries in `.unit` mode.
    public var capacity: Int
    public var sizeMode: SizeMode
    /// Lifetime of an entry in milliseconds of trace time; `nil` means entries never expire.
    public var ttl: Int64?
    public var ttlMode: TTLMode
    /// When an insertion overflows the capacity, evict down to `trimRatio × capacity` (the
    /// low-water mark) instead of just enough to fit. 1 means "just enough".
    public var trimRatio: Double
    /// Where the random numbers of a randomized policy and of the admission filter start
    /// (`LehmerRandom`): libCacheSim's seed unless a run asks for another.
    public var randomSeed: UInt64 = LehmerRandom.libCacheSimSeed
    /// The admission filter in front of the policy, if any: a miss it refuses is not stored.
    public var admission: AdmissionFilter?

    @inlinable public init(
        capacity: Int,
        sizeMode: SizeMode = .bytes,
        ttl: Int64? = nil,
        ttlMode: TTLMode = .fixed,
        trimRatio: Double = 1
    ) {
        precondition(capacity >= 0, "capacity must not be negative")
        precondition(trimRatio > 0 && trimRatio <= 1, "trimRatio must be in (0, 1]")
        precondition(ttl.map { $0 > 0 } ?? true, "ttl must be positive")
        self.capacity = capacity
        self.sizeMode = sizeMode
        self.ttl = ttl
        self.ttlMode = ttlMode
        self.trimRatio = trimRatio
    }

    /// The total an overflowing insertion trims down to (new entry included).
    @inlinable public var lowWaterMark: Int {
        trimRatio >= 1 ? capacity : Int((Double(capacity) * trimRatio).rounded(.down))
    }

    /// The entries a cache makes room for when it is made; it grows from there as it fills
    /// (doubling: rarely, and never per request). It depends on the limits alone, never on the
    /// trace, so a trace read from a file and the same trace in memory give the same figures,
    /// the bookkeeping's bytes included: in unit mode the capacity (up to 131,072 entries), in
    /// bytes mode one entry per 4 KiB of capacity (16 to 65,536).
    @inlinable public var initialEntries: Int {
        switch sizeMode {
        case .unit: capacity >= 1 << 17 ? (1 << 17) + 1 : max(capacity + 1, 16)
        case .bytes: min(max(capacity >> 12, 16), 1 << 16)
        }
    }

    /// What an entry of `size` bytes costs against the capacity.
    @inline(__always)
    @inlinable public func cost(ofSize size: Int) -> Int {
        sizeMode == .unit ? 1 : size
    }
}
