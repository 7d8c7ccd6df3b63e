/// What executing a plan gave.
public struct PlanOutcome: Sendable {
    /// Each cell's output, in the plan's order.
    public var outputs: [CellOutput]
    /// Requests read.
    public var requests: Int
    public var timing: PlanTiming
}
