/// One cell of a sweep: its place in the manifest, and how to make its run-plan cell once the
/// trace's working set is known.
public struct SweepCell: Sendable {
    public var entry: SweepManifest.Entry
    /// Whether making the cell needs the trace's statistics (a capacity given as a share).
    public var needsStatistics: Bool
    /// Whether the cell needs each request's next use (Belady): a pass of its own over a trace
    /// that does not carry them, so the plan keeps such cells together.
    public var needsFuture: Bool
    /// Work per request, relative to an LRU replay (`RunCell.weight`): shards are balanced by it.
    public var weight: Double
    /// The run-plan cell, given the trace's statistics (nil when `needsStatistics` is false).
    public var make: @Sendable (TraceStatistics?) throws -> RunCell
    /// For a stack pass: the cells replaying its points one by one, when the trace turns out
    /// not to be stackable (`CellOutput.unstackable`).
    public var fallback: (@Sendable (TraceStatistics?) throws -> [RunCell])?

    public init(
        entry: SweepManifest.Entry, needsStatistics: Bool, needsFuture: Bool, weight: Double,
        make: @escaping @Sendable (TraceStatistics?) throws -> RunCell,
        fallback: (@Sendable (TraceStatistics?) throws -> [RunCell])? = nil
    ) {
        self.entry = entry
        self.needsStatistics = needsStatistics
        self.needsFuture = needsFuture
        self.weight = weight
        self.make = make
        self.fallback = fallback
    }

    /// A single-tier replay at capacity `index` of `capacities`.
    public static func simulate(
        _ configuration: RunConfiguration, capacities: CapacityList, index: Int, latency: Bool,
        entry: SweepManifest.Entry
    ) -> SweepCell {
        SweepCell(
            entry: entry, needsStatistics: capacities.needsStatistics, needsFuture: configuration.policy.needsFuture,
            weight: RunCell.simulate(configuration, latency: latency).weight
        ) { statistics in
            var configuration = configuration
            configuration.capacity = try capacities.resolve(index, for: statistics, mode: configuration.sizeMode)
            return .simulate(configuration, latency: latency)
        }
    }

    /// A cell's key: the configuration's fields that change results, and the capacity as asked.
    public static func key(
        _ configuration: RunConfiguration, capacity: String, latency: Bool, extra: String = ""
    ) -> String {
        let ttl = configuration.ttl.map { Quantity.durationLabel(milliseconds: $0) } ?? "none"
        let trim = configuration.trimRatio.map { "\($0)" } ?? "default"
        // Only when set, so the names of cells without a filter stay what they were.
        let admission = configuration.admission.map { " admission=\($0)" } ?? ""
        return
            "simulate policy=\(configuration.policy.rawValue) capacity=\(capacity) size-mode=\(configuration.sizeMode.rawValue) ttl=\(ttl) ttl-mode=\(configuration.ttlMode.rawValue) trim=\(trim) network=\(configuration.network.rawValue) tier=\(configuration.tier.rawValue) latency=\(latency)\(admission)\(extra)"
    }
}
