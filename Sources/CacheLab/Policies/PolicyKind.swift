/// Every policy cachelab can run, by its command-line name. Tests and benchmarks loop over
/// `allCases`, so a policy added here is covered everywhere at once.
///
/// To add a policy: write one file with a type conforming to `EvictionPolicy`, add a case here,
/// and a line to `withOrder(_:)`.
public enum PolicyKind: String, CaseIterable, Sendable, Codable {
    case lru
    case fifo
    case lfu
    case size
    case ttl
    case clock
    case sieve
    case twoq
    case s3fifo
    case arc
    case wtinylfu
    case gdsf
    case belady

    /// One line for `--help` and reports.
    public var summary: String {
        switch self {
        case .lru: "least recently used first (libCacheSim LRU)"
        case .fifo: "first inserted first; hits change nothing (libCacheSim FIFO)"
        case .lfu: "least frequently used first, ties least recent (libCacheSim LFU)"
        case .size: "LRU trimming to a low-water mark on overflow (disk caches)"
        case .ttl: "LRU with entries expiring a fixed time after insertion or last use"
        case .clock: "FIFO giving hit entries a second chance (libCacheSim Clock)"
        case .sieve: "a hand sweeping old to new evicts the first unhit entry (libCacheSim Sieve)"
        case .twoq: "FIFO Ain, LRU Am, ghost Aout sending returning keys to Am (libCacheSim TwoQ)"
        case .s3fifo: "small FIFO, main FIFO and ghost FIFO (libCacheSim S3FIFO)"
        case .arc: "recency list T1 and frequency list T2 with an adaptive split and ghosts (libCacheSim ARC)"
        case .wtinylfu:
            "1 % LRU window before a segmented-LRU main, a frequency sketch admitting window victims (libCacheSim WTinyLFU)"
        case .gdsf: "lowest of inflation + hits / size first: small, often used images stay (libCacheSim GDSF)"
        case .belady: "next used farthest in the future first: the offline optimum, simulator only (libCacheSim Belady)"
        }
    }

    /// Whether the policy's order is the order of last use alone (LRU and its presets), so that a
    /// disk tier rebuilt from each entry's last use at relaunch has exactly the order it had.
    public var ordersByRecency: Bool {
        switch self {
        case .lru, .size, .ttl: true
        case .fifo, .lfu, .clock, .sieve, .twoq, .s3fifo, .arc, .wtinylfu, .gdsf, .belady: false
        }
    }

    /// The largest entry the policy stores, as a share of the capacity, when that is less than
    /// all of it: libCacheSim's 2Q admits only entries that fit its Ain queue (25 %), S3-FIFO only
    /// entries smaller than its small queue (10 %), W-TinyLFU only entries that fit its window
    /// (1 %). A tier using them never holds a bigger image.
    public var admissionShare: Double? {
        switch self {
        case .twoq: 0.25
        case .s3fifo: 0.1
        case .wtinylfu: 0.01
        case .lru, .fifo, .lfu, .size, .ttl, .clock, .sieve, .arc, .gdsf, .belady: nil
        }
    }

    /// Whether the policy may decline to store a missed entry that fits: GDSF ranks the newcomer
    /// with the stored entries and evicts it first when it ranks lowest. Belady's MIN stores
    /// every miss, so it bounds the hits of every other policy but not of these.
    public var mayDeclineNewEntries: Bool { self == .gdsf }

    /// Whether the policy must know each request's next use (`EvictionPolicy.needsFuture`): only
    /// the single-tier simulator, which holds the whole trace, can run it; a client's tiers and a
    /// live replay refuse it (`PolicyError.needsFuture`).
    public var needsFuture: Bool {
        switch self {
        case .belady: true
        case .lru, .fifo, .lfu, .size, .ttl, .clock, .sieve, .twoq, .s3fifo, .arc, .wtinylfu, .gdsf: false
        }
    }

    /// The policies a real client's tiers can run: every one that needs no future knowledge.
    public static var online: [PolicyKind] { allCases.filter { !$0.needsFuture } }

    /// The engine limits this policy runs with, from what the user asked for.
    public func configuration(
        capacity: Int,
        sizeMode: SizeMode = .bytes,
        ttl: Int64? = nil,
        ttlMode: TTLMode = .fixed,
        trimRatio: Double? = nil
    ) -> CacheConfiguration {
        switch self {
        case .size:
            CacheConfiguration(
                capacity: capacity, sizeMode: sizeMode, ttl: ttl, ttlMode: ttlMode,
                trimRatio: trimRatio ?? SizeBoundedPreset.defaultTrimRatio)
        case .ttl:
            CacheConfiguration(
                capacity: capacity, sizeMode: sizeMode, ttl: ttl ?? TTLPreset.defaultTTL,
                ttlMode: ttlMode, trimRatio: trimRatio ?? 1)
        case .lru, .fifo, .lfu, .clock, .sieve, .twoq, .s3fifo, .arc, .wtinylfu, .gdsf, .belady:
            CacheConfiguration(
                capacity: capacity, sizeMode: sizeMode, ttl: ttl, ttlMode: ttlMode,
                trimRatio: trimRatio ?? 1)
        }
    }

    /// Calls `body` with this policy's eviction order as a concrete type, so generic code that
    /// runs it is specialized for each policy (no existential on the per-request path).
    public func withOrder<Result>(_ body: some PolicyBody<Result>) -> Result {
        switch self {
        case .lru, .size, .ttl: body.run(LRUPolicy.self)
        case .fifo: body.run(FIFOPolicy.self)
        case .lfu: body.run(LFUPolicy.self)
        case .clock: body.run(CLOCKPolicy.self)
        case .sieve: body.run(SIEVEPolicy.self)
        case .twoq: body.run(TwoQPolicy.self)
        case .s3fifo: body.run(S3FIFOPolicy.self)
        case .arc: body.run(ARCPolicy.self)
        case .wtinylfu: body.run(WTinyLFUPolicy.self)
        case .gdsf: body.run(GDSFPolicy.self)
        case .belady: body.run(BeladyPolicy.self)
        }
    }
}

/// Generic work to do with a policy type, for `PolicyKind.withOrder(_:)`.
public protocol PolicyBody<Result> {
    associatedtype Result
    func run<Policy: EvictionPolicy>(_ policy: Policy.Type) -> Result
}
