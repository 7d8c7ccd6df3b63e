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
