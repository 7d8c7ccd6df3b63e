import CacheEngine

/// What favourites held pinned over a client run, beside the tiers' capacities (not in them).
public struct PinSummary: Sendable, Equatable, Codable {
    /// The most bytes pinned at once in the memory tier.
    public var peakMemoryBytes = 0
    /// The most bytes pinned at once in the disk tier.
    public var peakDiskBytes = 0
    /// Bytes pinned in the memory tier at the end of the run.
    public var memoryBytes = 0
    /// Bytes pinned in the disk tier at the end of the run.
    public var diskBytes = 0
    /// Pins refused because a tier's pin budget was full (those images were cached as usual).
    public var refusals = 0

    @inlinable public init() {}

    /// The pins of a memory and a disk tier as they stand.
    @inlinable public init<Key, Memory, Disk>(memory: PinnedEntries<Key, Memory>, disk: PinnedEntries<Key, Disk>) {
        peakMemoryBytes = memory.peakBytes
        peakDiskBytes = disk.peakBytes
        memoryBytes = memory.bytes
        diskBytes = disk.bytes
        refusals = memory.refusals + disk.refusals
    }

    /// The most bytes pinned at once in both tiers, each at its own peak.
    @inlinable public var peakBytes: Int { peakMemoryBytes + peakDiskBytes }

    /// Folds in the next launch of a live run: peaks are the larger, refusals add up, the end is
    /// the later launch's.
    @inlinable public mutating func addLaunch(_ launch: PinSummary) {
        peakMemoryBytes = max(peakMemoryBytes, launch.peakMemoryBytes)
        peakDiskBytes = max(peakDiskBytes, launch.peakDiskBytes)
        memoryBytes = launch.memoryBytes
        diskBytes = launch.diskBytes
        refusals += launch.refusals
    }
}
