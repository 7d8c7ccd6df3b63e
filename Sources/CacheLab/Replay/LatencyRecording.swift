/// What the replay loop does with each request's outcome, beyond counting it.
protocol LatencyRecording {
    mutating func hit(size: Int)
    mutating func miss(size: Int)
    /// The latencies recorded, summed up.
    func summary() -> LatencySummary?
}
