/// How one point of a miss-ratio curve was computed.
public enum CurveMethod: Sendable, Equatable, Codable, CustomStringConvertible {
    /// A replay of the policy at that capacity (`Replay.simulate`).
    case simulated
    /// Read off LRU's stack distances, all capacities from one pass: equal to the replay.
    case stackDistance
    /// SHARDS: LRU's stack distances of a spatially hashed sample of the objects, scaled.
    case sampledStackDistance(rate: Double)
    /// A replay of the sampled objects through a cache scaled down by the same rate (a
    /// miniature simulation, for policies without a stack property).
    case sampledSimulation(rate: Double)

    public var description: String {
        switch self {
        case .simulated: "simulated"
        case .stackDistance: "stack"
        case .sampledStackDistance(let rate): "shards(\(rate))"
        case .sampledSimulation(let rate): "mini(\(rate))"
        }
    }
}
