/// How far an execution has got.
public struct PlanProgress: Sendable {
    public enum Phase: Sendable {
        /// The pass measuring the working set, when a capacity is a share of it (before the replay).
        case workingSet
        /// The pass computing each request's next use (before the replay).
        case nextUses
        /// The replay.
        case replay
    }

    public var phase: Phase = .replay
    /// Requests read so far.
    public var requests: Int
    /// How much of the file has been consumed (compressed bytes for `.zst`; requests for a trace
    /// in memory), and of how much.
    public var done: Int
    public var total: Int?
}
