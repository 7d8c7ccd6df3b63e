/// What only a single-tier simulated run measures, beyond the counts every run has.
public struct TierMeasurements: Sendable, Equatable, Codable {
    /// Entries cached at the end of the run.
    public var entries = 0
    /// Bytes the cache's bookkeeping held at its largest (index, per-entry fields, the policy's
    /// lists, ghosts and counters; allocated capacity, slack included), counted by a
    /// `StorageLedger`.
    public var metadataBytes = 0

    public init(entries: Int = 0, metadataBytes: Int = 0) {
        self.entries = entries
        self.metadataBytes = metadataBytes
    }
}
