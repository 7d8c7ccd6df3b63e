import CacheEngine

extension RunRequest {
    /// The runs as a sweep of one trace, to be split into shards: each run a cell, named by what
    /// determines its result.
    ///
    /// - Parameters:
    ///   - source: the trace.
    ///   - command: the command line, for the manifest.
    ///   - output: how the results are printed (`table`, `csv`), for the manifest.
    public func sweep(
        on source: TraceSource, command: String = "", output: String = ""
    ) throws(TraceError)
        -> SweepPlan
    {
        let request = self
        let cells = parts.map { part -> SweepCell in
            switch part {
            case .client(let client, let slot):
                let entry = SweepManifest.Entry(
                    trace: 0, slot: slot, role: .run,
                    key:
                        "client \(client) size-mode=\(sizeMode.rawValue) ttl=\(ttl.map(String.init) ?? "none") ttl-mode=\(ttlMode.rawValue) trim=\(trimRatio.map { "\($0)" } ?? "default") network=\(network.rawValue) memory-cost=\(memoryCost.rawValue)\(admission.map { " admission=\($0)" } ?? "")"
                )
                return SweepCell(entry: entry, needsStatistics: client.needsStatistics, needsFuture: false, weight: 2.5)
                {
                    statistics in .client(try client.configuration(request, statistics))
                }
            case .single(let configuration, let slot, let latency, let optimum):
                let entry = SweepManifest.Entry(
                    trace: 0, slot: slot, role: optimum ? .optimum : .run,
                    key: SweepCell.key(configuration, capacity: capacities.key(slot), latency: latency))
                return .simulate(configuration, capacities: capacities, index: slot, latency: latency, entry: entry)
            }
        }
        return try SweepPlan(
            kind: .run, command: command, output: output, sortsCapacities: sortsCapacities, sources: [source],
            cells: cells)
    }
}
