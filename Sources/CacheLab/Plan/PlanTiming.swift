/// Where an execution's time went, in seconds (all 0 without a stopwatch). Reading and replaying
/// overlap, so they add up to more than the wall clock when both are busy.
public struct PlanTiming: Sendable, Equatable {
    /// From start to the last output.
    public var wall: Double
    /// The reading thread's time in the stream: reading, decompressing, parsing.
    public var reading: Double
    /// The busiest worker's time replaying.
    public var replaying: Double
    /// The pass computing next uses before the replay; `nil` when none ran.
    public var nextUses: Double?

    public init(wall: Double, reading: Double, replaying: Double, nextUses: Double?) {
        self.wall = wall
        self.reading = reading
        self.replaying = replaying
        self.nextUses = nextUses
    }
}
