import ClientModel

/// The simulator's latency model, in microseconds. Deterministic: the same request always costs
/// the same, so latency percentiles are reproducible.
///
/// - memory hit: 50 µs;
/// - disk hit: 500 µs + size at 400 MB/s;
/// - miss: the profile's round trip + size × 8 / bandwidth.
public struct LatencyModel: Sendable, Equatable {
    public var network: NetworkProfile
    public var tier: TierKind

    public init(network: NetworkProfile, tier: TierKind) {
        self.network = network
        self.tier = tier
    }

    @inline(__always)
    public func hitMicroseconds(size: Int) -> Int {
        switch tier {
        case .memory: 50
        case .disk: 500 + size / 400
        }
    }

    @inline(__always)
    public func missMicroseconds(size: Int) -> Int {
        network.roundTripMicroseconds + size * 8 / network.megabitsPerSecond
    }
}
