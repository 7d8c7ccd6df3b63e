/// What a client does to its tiers on an app event, decided once for the simulated and the live
/// replay: both carry out the actions it returns.
public enum ClientAction: Sendable, Equatable {
    /// The app was killed and started again: the memory tier is empty, the disk tier is opened
    /// anew from what it persisted (expired entries swept at open).
    case relaunch
    /// Evict from the memory tier, in its policy's order, down to this cost.
    case trimMemory(toCost: Int)
    /// Remove the disk tier's expired entries, then, if it holds more than `limit`, evict down to
    /// `limit × trimRatio`.
    case sweepDisk(limit: Int, trimRatio: Double)
    /// The person favourited the recipe of this photo: pin it in every tier that holds it, and in
    /// each tier that stores it later, while it stays a favourite.
    case pin(key: UInt64)
    /// The recipe was unfavourited: the photo counts against the capacities again.
    case unpin(key: UInt64)
}
