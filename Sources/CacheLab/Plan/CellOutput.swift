/// What a cell gives back at the end of the trace.
public enum CellOutput: Sendable {
    /// A simulated run: a single tier or a client.
    case run(RunResult)
    /// Curve points, capacities ascending.
    case curve([CurvePoint])
    /// LRU's stack pass could not be exact: an object's size changed within the trace (bytes
    /// mode), so its points must be replayed one by one.
    case unstackable
    case statistics(TraceStatistics)

    /// The run, for a cell that makes one (programmer's mistake otherwise).
    public var run: RunResult {
        guard case .run(let result) = self else { preconditionFailure("CellOutput: not a run: \(self)") }
        return result
    }
}
