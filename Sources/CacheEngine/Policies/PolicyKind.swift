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

    /// Calls `body` with the type that describes this policy (`PolicyDescription`: the policy's
    /// own, or a preset's) as a static type, so that generic code run through it is specialized
    /// for each policy. The one list of the policies: a new policy adds its line here.
    @inline(__always)
    @inlinable package func withDescription<Body: DescriptionBody>(_ body: Body) -> Body.Result {
        switch self {
        case .lru: body.run(LRUPolicy.self)
        case .fifo: body.run(FIFOPolicy.self)
        case .lfu: body.run(LFUPolicy.self)
        case .size: body.run(SizeBoundedPreset.self)
        case .ttl: body.run(TTLPreset.self)
        case .clock: body.run(CLOCKPolicy.self)
        case .sieve: body.run(SIEVEPolicy.self)
        case .twoq: body.run(TwoQPolicy.self)
        case .s3fifo: body.run(S3FIFOPolicy.self)
        case .arc: body.run(ARCPolicy.self)
        case .wtinylfu: body.run(WTinyLFUPolicy.self)
        case .wtinylfuAdaptive: body.run(AdaptiveWTinyLFUPolicy.self)
        case .gdsf: body.run(GDSFPolicy.self)
        case .belady: body.run(BeladyPolicy.self)
        case .random: body.run(RandomPolicy.self)
        case .hyperbolic: body.run(HyperbolicPolicy.self)
        case .beladysize: body.run(BeladySizePolicy.self)
        case .lecar: body.run(LeCaRPolicy.self)
        case .cacheus: body.run(CacheusPolicy.self)
        case .lhd: body.run(LHDPolicy.self)
        case .slru: body.run(SLRUPolicy.self)
        case .lfuda: body.run(LFUDAPolicy.self)
        case .lruk: body.run(LRUKPolicy.self)
        case .mq: body.run(MQPolicy.self)
        case .lirs: body.run(LIRSPolicy.self)
        case .clockpro: body.run(ClockProPolicy.self)
        case .clock2qplus: body.run(Clock2QPlusPolicy.self)
        }
    }

    /// The type that describes the policy (`PolicyDescription`): the policy's own, or a preset's.
    @inlinable public var described: any PolicyDescription.Type { withDescription(DescriptionType()) }

    /// One line for `--help` and reports.
    @inlinable public var summary: String { described.summary }

    /// `PolicyDescription.ordersByRecency`.
    @inlinable public var ordersByRecency: Bool { described.ordersByRecency }

    /// `PolicyDescription.storedShare`: the largest entry stored, as a share of the capacity.
    @inlinable public var admissionShare: Double? { described.storedShare }

    /// `PolicyDescription.mayDeclineNewEntries`.
    @inlinable public var mayDeclineNewEntries: Bool { described.mayDeclineNewEntries }

    /// `PolicyDescription.relativeCost`.
    @inlinable public var relativeCost: Double { described.relativeCost }

    /// libCacheSim's name for the policy, where cachelab's equals it miss for miss.
    @inlinable public var libCacheSimName: String? { described.libCacheSimName }

    /// Whether the policy draws from a seeded random stream.
    @inlinable public var drawsRandomly: Bool { described.drawsRandomly }

    /// Whether the policy must know each request's next use (`EvictionPolicy.needsFuture`): only
    /// the single-tier simulator, which holds the whole trace, can run it; a client's tiers and a
    /// live replay refuse it (`PolicyError.needsFuture`).
    @inlinable public var needsFuture: Bool {
        func order<Description: PolicyDescription>(_: Description.Type) -> Bool { Description.Order.needsFuture }
        return order(described)
    }

    /// Whether a hit takes the request's size (`EvictionPolicy.resizesOnHit`: LHD).
    @inlinable public var resizesOnHit: Bool {
        func order<Description: PolicyDescription>(_: Description.Type) -> Bool { Description.Order.resizesOnHit }
        return order(described)
    }

    /// The policies a real client's tiers can run: every one that needs no future knowledge.
    @inlinable public static var online: [PolicyKind] { allCases.filter { !$0.needsFuture } }

    /// The engine limits this policy runs with, from what the user asked for.
    @inlinable public func configuration(
        capacity: Int,
        sizeMode: SizeMode = .bytes,
        ttl: Int64? = nil,
        ttlMode: TTLMode = .fixed,
        trimRatio: Double? = nil
    ) -> CacheConfiguration {
        described.configuration(
            capacity: capacity, sizeMode: sizeMode, ttl: ttl, ttlMode: ttlMode, trimRatio: trimRatio)
    }

    /// Calls `body` with this policy's eviction order as a static type, so that generic code that
    /// runs it is specialized for each policy (no existential, no generic metadata lookups on the
    /// per-request path; opening `described` at run time instead left the replay loop unspecialized,
    /// which the Speed article measures).
    @inlinable public func withOrder<Result>(_ body: some PolicyBody<Result>) -> Result {
        withDescription(EvictionOrder(body: body))
    }
}

/// Generic work to do with a policy type, for `PolicyKind.withOrder(_:)`.
public protocol PolicyBody<Result> {
    associatedtype Result
    func run<Policy: EvictionPolicy>(_ policy: Policy.Type) -> Result
}

/// Generic work to do with the type describing a policy, for `PolicyKind.withDescription(_:)`.
@usableFromInline package protocol DescriptionBody<Result> {
    associatedtype Result
    func run<Description: PolicyDescription>(_ description: Description.Type) -> Result
}

/// The describing type itself, as an existential (`PolicyKind.described`).
@usableFromInline package struct DescriptionType: DescriptionBody {
    @inlinable package func run<Description: PolicyDescription>(
        _ description: Description.Type
    ) -> any PolicyDescription.Type {
        description
    }

    @inlinable package init() {}
}

/// `body` run with the describing type's eviction order (`PolicyKind.withOrder(_:)`).
@usableFromInline package struct EvictionOrder<Body: PolicyBody>: DescriptionBody {
    @usableFromInline package let body: Body

    @inline(__always)
    @inlinable package func run<Description: PolicyDescription>(_: Description.Type) -> Body.Result {
        body.run(Description.Order.self)
    }

    @inlinable package init(body: Body) {
        self.body = body
    }
}
