import CacheEngine
import Histogram

extension RunCell {
    /// The cell's replay, built on the thread that will run it.
    func makeReplay(_ context: CellContext) -> CellReplay {
        switch self {
        case .simulate(let configuration, let latency):
            return configuration.policy.withOrder(
                SimulatedRunFactory(configuration: configuration, latency: latency, context: context))
        case .client(let client, let outcomes):
            let run = ClientRun(client: client, recordsOutcomes: outcomes, context: context)
            return CellReplay(replay: { run.replay($0) }, finish: { .run(run.finish()) })
        case .lruStack(let capacities, let sizeMode, let tier):
            let pass = LRUStackPass(capacities: capacities, sizeMode: sizeMode, tier: tier, context: context)
            return CellReplay(replay: { pass.replay($0) }, finish: { pass.finish() })
        case .statistics:
            let counter = TraceStatistics.Counter()
            return CellReplay(replay: { counter.add($0) }, finish: { .statistics(counter.statistics) })
        case .sampled(let rate, let cell):
            let sampledContext = context
            var reported: Int?
            let inner: CellReplay
            switch cell {
            case .simulate(var configuration, let latency):
                reported = configuration.capacity
                configuration.capacity = max(1, Int((Double(configuration.capacity) * rate).rounded()))
                inner = RunCell.simulate(configuration, latency: latency).makeReplay(sampledContext)
            case .lruStack(let capacities, let sizeMode, let tier):
                let pass = LRUStackPass(
                    capacities: capacities, sizeMode: sizeMode, tier: tier, scale: rate, context: sampledContext)
                inner = CellReplay(replay: { pass.replay($0) }, finish: { pass.finish() })
            default:
                inner = cell.makeReplay(sampledContext)
            }
            let sampled = SampledReplay(rate: rate, inner: inner, reportedCapacity: reported)
            return CellReplay(replay: { sampled.replay($0) }, finish: { sampled.finish() })
        case .custom(_, _, let make):
            return make(context)
        }
    }
}

extension RunCell {
    /// A single-tier cell ordered by `order` instead of the configuration's policy (see
    /// `Replay.simulate(_:_:order:latency:)`).
    public static func simulate<Policy: EvictionPolicy & SendableMetatype>(
        _ configuration: RunConfiguration, order: Policy.Type, latency: Bool = true
    ) -> RunCell {
        .custom(label: configuration.policy.rawValue, needsFuture: Policy.needsFuture) { context in
            SimulatedRunFactory(configuration: configuration, latency: latency, context: context).run(Policy.self)
        }
    }
}

/// Builds a single-tier cell's replay for the registry's policy, or for one given.
private struct SimulatedRunFactory: PolicyBody {
    let configuration: RunConfiguration
    let latency: Bool
    let context: CellContext

    func run<Policy: EvictionPolicy>(_ policy: Policy.Type) -> CellReplay {
        if latency {
            let recorder = HistogramRecorder(LatencyModel(network: configuration.network, tier: configuration.tier))
            return make(policy, recorder)
        }
        return make(policy, NoLatency())
    }

    private func make<Policy: EvictionPolicy, Recorder: LatencyRecording>(
        _ policy: Policy.Type, _ recorder: Recorder
    ) -> CellReplay {
        let run = SimulatedRun<Policy, Recorder>(configuration: configuration, recorder: recorder, context: context)
        return CellReplay(replay: { run.replay($0) }, finish: { .run(run.finish()) })
    }
}
