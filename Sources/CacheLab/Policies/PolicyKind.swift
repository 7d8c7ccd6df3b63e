/// Every policy cachelab can run, by its command-line name. Tests and benchmarks loop over
/// `allCases`, so a policy added here is covered everywhere at once.
///
/// To add a policy: write one file with a type conforming to `EvictionPolicy` (its facts stated
/// on it: `PolicyDescription`), add a case here, and its line in `described`.
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
    case wtinylfuAdaptive = "wtinylfu-adaptive"
    case gdsf
    case belady
    case random
    case hyperbolic
    case beladysize
    case lecar
    case cacheus
    case lhd
    case slru
    case lfuda
    case lruk
    case mq
    case lirs
    case clockpro
    case clock2qplus

    /// The type that describes the policy (`PolicyDescription`): the policy's own, or a preset's.
    /// The one line a new policy adds here.
    public var described: any PolicyDescription.Type {
        switch self {
        case .lru: LRUPolicy.self
        case .fifo: FIFOPolicy.self
        case .lfu: LFUPolicy.self
        case .size: SizeBoundedPreset.self
        case .ttl: TTLPreset.self
        case .clock: CLOCKPolicy.self
        case .sieve: SIEVEPolicy.self
        case .twoq: TwoQPolicy.self
        case .s3fifo: S3FIFOPolicy.self
        case .arc: ARCPolicy.self
        case .wtinylfu: WTinyLFUPolicy.self
        case .wtinylfuAdaptive: AdaptiveWTinyLFUPolicy.self
        case .gdsf: GDSFPolicy.self
        case .belady: BeladyPolicy.self
        case .random: RandomPolicy.self
        case .hyperbolic: HyperbolicPolicy.self
        case .beladysize: BeladySizePolicy.self
        case .lecar: LeCaRPolicy.self
        case .cacheus: CacheusPolicy.self
        case .lhd: LHDPolicy.self
        case .slru: SLRUPolicy.self
        case .lfuda: LFUDAPolicy.self
        case .lruk: LRUKPolicy.self
        case .mq: MQPolicy.self
        case .lirs: LIRSPolicy.self
        case .clockpro: ClockProPolicy.self
        case .clock2qplus: Clock2QPlusPolicy.self
        }
    }

    /// One line for `--help` and reports.
    public var summary: String { described.summary }

    /// `PolicyDescription.ordersByRecency`.
    public var ordersByRecency: Bool { described.ordersByRecency }

    /// `PolicyDescription.storedShare`: the largest entry stored, as a share of the capacity.
    public var admissionShare: Double? { described.storedShare }

    /// `PolicyDescription.mayDeclineNewEntries`.
    public var mayDeclineNewEntries: Bool { described.mayDeclineNewEntries }

    /// `PolicyDescription.relativeCost`.
    public var relativeCost: Double { described.relativeCost }

    /// Whether the policy must know each request's next use (`EvictionPolicy.needsFuture`): only
    /// the single-tier simulator, which holds the whole trace, can run it; a client's tiers and a
    /// live replay refuse it (`PolicyError.needsFuture`).
    public var needsFuture: Bool {
        func order<Description: PolicyDescription>(_: Description.Type) -> Bool { Description.Order.needsFuture }
        return order(described)
    }

    /// Whether a hit takes the request's size (`EvictionPolicy.resizesOnHit`: LHD).
    public var resizesOnHit: Bool {
        func order<Description: PolicyDescription>(_: Description.Type) -> Bool { Description.Order.resizesOnHit }
        return order(described)
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
        described.configuration(
            capacity: capacity, sizeMode: sizeMode, ttl: ttl, ttlMode: ttlMode, trimRatio: trimRatio)
    }

    /// Calls `body` with this policy's eviction order as a concrete type, so generic code that
    /// runs it is specialized for each policy (no existential on the per-request path).
    public func withOrder<Result>(_ body: some PolicyBody<Result>) -> Result {
        func open<Description: PolicyDescription>(_: Description.Type) -> Result {
            body.run(Description.Order.self)
        }
        return open(described)
    }
}

/// Generic work to do with a policy type, for `PolicyKind.withOrder(_:)`.
public protocol PolicyBody<Result> {
    associatedtype Result
    func run<Policy: EvictionPolicy>(_ policy: Policy.Type) -> Result
}
