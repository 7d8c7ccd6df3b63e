/// What a caller hears of the plans it has executed: how far each has read, and where its time
/// went once it is done. The core reads no clock of its own: times come from `stopwatch`.
public struct PlanObserver: Sendable {
    /// Reads the time (seconds, any origin) for the timing figures; without one they are 0.
    public var stopwatch: RunPlan.Stopwatch?
    /// Each plan's progress through its trace, from the reading thread.
    public var progress: (@Sendable (PlanProgress) -> Void)?
    /// Each plan's outcome, once it has executed.
    public var finished: (@Sendable (PlanOutcome) -> Void)?

    public init(
        stopwatch: RunPlan.Stopwatch? = nil, progress: (@Sendable (PlanProgress) -> Void)? = nil,
        finished: (@Sendable (PlanOutcome) -> Void)? = nil
    ) {
        self.stopwatch = stopwatch
        self.progress = progress
        self.finished = finished
    }
}

extension RunPlan {
    /// Runs every cell over the trace, once, telling `observer` how it went.
    public func execute(workers: Int, observer: PlanObserver) throws(TraceError) -> PlanOutcome {
        let outcome = try execute(workers: workers, stopwatch: observer.stopwatch, progress: observer.progress)
        observer.finished?(outcome)
        return outcome
    }
}
