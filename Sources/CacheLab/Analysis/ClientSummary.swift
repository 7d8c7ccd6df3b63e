import ClientModel

/// A client setup replayed on every trace of a set, averaged: one row of a comparison (the
/// recommended client, or a preset). Ratios and p95 are averaged with each trace weighted
/// equally, bytes summed.
public struct ClientSummary: Sendable, Equatable {
    public var client: ClientConfiguration
    public var hitRatio: Double
    /// The share of requests the memory tier served.
    public var memoryHitRatio: Double
    public var byteHitRatio: Double
    public var latencyP95: Double
    public var bytesDownloaded: Int
    /// The most bytes favourites pinned at once in the memory and the disk tier, on any trace:
    /// beside the capacities, within each tier's pin budget.
    public var pinnedMemoryPeak = 0
    public var pinnedDiskPeak = 0

    /// Each client replayed on every trace and averaged.
    public static func summarize(
        _ clients: [ClientConfiguration], on sources: [TraceSource], workers: Int = ParallelSweep.defaultWorkers
    ) throws(TraceError) -> [ClientSummary] {
        let byTrace = try RunPlan.execute(clients.map { .client($0) }, on: sources, workers: workers)
        let count = Double(sources.count)
        return clients.indices.map { index in
            let mine = byTrace.map { $0[index].run }
            return ClientSummary(
                client: clients[index], hitRatio: mine.map(\.hitRatio).reduce(0, +) / count,
                memoryHitRatio: mine.map { $0.requests == 0 ? 0 : Double($0.memoryHits) / Double($0.requests) }
                    .reduce(0, +) / count,
                byteHitRatio: mine.map(\.byteHitRatio).reduce(0, +) / count,
                latencyP95: mine.map { $0.latency?.p95 ?? 0 }.reduce(0, +) / count,
                bytesDownloaded: mine.map(\.bytesDownloaded).reduce(0, +),
                pinnedMemoryPeak: mine.compactMap(\.client?.pins.peakMemoryBytes).max() ?? 0,
                pinnedDiskPeak: mine.compactMap(\.client?.pins.peakDiskBytes).max() ?? 0)
        }
    }
}
