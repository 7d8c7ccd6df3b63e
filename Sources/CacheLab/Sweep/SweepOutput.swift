/// A cell's output as a sweep keeps it: a run, or points of a curve.
public enum SweepOutput: Sendable, Equatable, Codable {
    case run(RunResult)
    case curve([CurvePoint])

    /// The run, for a cell that makes one (programmer's mistake otherwise).
    public var run: RunResult {
        guard case .run(let result) = self else { preconditionFailure("SweepOutput: not a run") }
        return result
    }

    /// The curve points it gives: a run's one point, or the curve's.
    public var points: [CurvePoint] {
        switch self {
        case .run(let result): [CurvePoint(result)]
        case .curve(let points): points
        }
    }
}
