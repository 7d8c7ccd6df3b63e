/// How capacity is counted.
public enum SizeMode: String, CaseIterable, Sendable {
    /// Capacity and costs are bytes.
    case bytes
    /// Every entry costs 1; capacity is a number of entries.
    case unit
}

/// When an entry's lifetime starts counting.
public enum TTLMode: String, CaseIterable, Sendable {
    /// An entry expires a fixed time after it was inserted.
    case fixed
    /// An entry expires a fixed time after it was last inserted or hit (Kingfisher's memory cache).
    case sliding
}

/// The limits of one cache: everything the engine enforces, independent of the eviction order.
public struct CacheConfiguration: Sendable, Equatable {
    /// Bytes in `.bytes` mode, entries in `.unit` mode.
    public var capacity: Int
    public var sizeMode: SizeMode
    /// Lifetime of an entry in milliseconds of trace time; `nil` means entries never expire.
    public var ttl: Int64?
    public var ttlMode: TTLMode
    /// When an insertion overflows the capacity, evict down to `trimRatio × capacity` (the
    /// low-water mark) instead of just enough to fit. 1 means "just enough".
    public var trimRatio: Double

    public init(
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
    public var lowWaterMark: Int {
        trimRatio >= 1 ? capacity : Int((Double(capacity) * trimRatio).rounded(.down))
    }

    /// What an entry of `size` bytes costs against the capacity.
    @inline(__always)
    public func cost(ofSize size: Int) -> Int {
        sizeMode == .unit ? 1 : size
    }
}
