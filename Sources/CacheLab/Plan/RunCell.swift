import CacheEngine
import ClientModel

/// One cell of a run plan: a cache (or a pass) that every request of the trace goes through once.
///
/// A cell is a description, cheap and `Sendable`; the executor builds its replay on the thread
/// that owns it (`makeReplay`) and gets a `CellOutput` back at the end.
public enum RunCell: Sendable {
    /// A single-tier cache, simulated: `cachelab run --policy`. `latency` models each request's
    /// latency (else the loop does only the cache's work, as libCacheSim's throughput does).
    case simulate(RunConfiguration, latency: Bool = true)
    /// A client's two tiers, simulated as the real pipeline behaves (`Replay.simulate(_:client:)`).
    /// `outcomes` also keeps every request's outcome, for comparing with a live replay.
    case client(ClientConfiguration, outcomes: Bool = false)
    /// LRU at every capacity from one stack-distance pass (`MissRatioCurve`).
    case lruStack(capacities: [Int], sizeMode: SizeMode, tier: TierKind)
    /// The trace's statistics (requests, objects, working set), for capacities given as shares.
    case statistics
    /// A cell run on a spatial sample of the objects (SHARDS), its figures scaled to the whole
    /// trace: a `.simulate` cell's capacity is scaled down by `rate`, a `.lruStack` cell's
    /// distances up.
    indirect case sampled(rate: Double, RunCell)
    /// A replay made by the caller: a policy outside the registry (a variant under study, a
    /// deliberately broken one in a test).
    case custom(label: String, needsFuture: Bool, make: @Sendable (CellContext) -> CellReplay)

    /// Whether the cell needs each request's next use (Belady's optimum).
    public var needsFuture: Bool {
        switch self {
        case .simulate(let configuration, _): configuration.policy.needsFuture
        case .client, .lruStack, .statistics: false
        case .sampled(_, let cell): cell.needsFuture
        case .custom(_, let needsFuture, _): needsFuture
        }
    }

    /// How much work the cell is per request, roughly, relative to an LRU replay: the executor
    /// spreads cells over the cores by it.
    var weight: Double {
        switch self {
        case .simulate(let configuration, let latency):
            let policy = configuration.policy.relativeCost
            return latency ? policy + 0.5 : policy
        case .client: return 2.5
        case .lruStack(let capacities, _, _): return 2 + Double(capacities.count) / 10
        case .statistics: return 0.5
        case .sampled(let rate, let cell): return 0.3 + cell.weight * rate
        case .custom: return 1.5
        }
    }
}
