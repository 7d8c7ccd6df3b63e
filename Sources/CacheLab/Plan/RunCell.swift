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

/// What a cell gives back at the end of the trace.
public enum CellOutput: Sendable {
    /// A simulated run: a single tier or a client.
    case run(RunResult)
    /// Curve points, capacities ascending.
    case curve([CurvePoint])
    /// LRU's stack pass could not be exact: an object's size changed within the trace (bytes
    /// mode), so its points must be replayed one by one.
    case unstackable
    case statistics(TraceStatistics)

    /// The run, for a cell that makes one (programmer's mistake otherwise).
    public var run: RunResult {
        guard case .run(let result) = self else { preconditionFailure("CellOutput: not a run: \(self)") }
        return result
    }
}

/// A cell's replay: what it does with each batch of requests, and its output at the end.
///
/// Built on the thread that runs it and used only there. It is a pair of closures, not a protocol,
/// so that each closure is compiled for the cell's concrete policy types (a call through a
/// protocol on a generic class would run its unspecialized code).
public struct CellReplay {
    /// Replays one batch; batches come in trace order.
    public let replay: (RequestBatch) -> Void
    /// The output, once every batch has been replayed.
    public let finish: () -> CellOutput

    public init(replay: @escaping (RequestBatch) -> Void, finish: @escaping () -> CellOutput) {
        self.replay = replay
        self.finish = finish
    }
}

/// What a cell's replay is told of the trace when it is built.
public struct CellContext: Sendable {
    /// The trace's name, for the results.
    public var name: String

    public init(name: String) {
        self.name = name
    }
}
