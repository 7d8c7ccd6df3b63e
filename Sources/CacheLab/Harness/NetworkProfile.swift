/// A named network for the simulator's latency model: a miss costs one round trip plus the
/// object's transfer time at the profile's bandwidth.
public enum NetworkProfile: String, CaseIterable, Sendable, Codable {
    case loopback
    case wifi
    case lte
    case slow3g = "3g"

    /// Round-trip time in microseconds.
    public var roundTripMicroseconds: Int {
        switch self {
        case .loopback: 200
        case .wifi: 20_000
        case .lte: 50_000
        case .slow3g: 200_000
        }
    }

    /// Download bandwidth in megabits per second (10^6 bits).
    public var megabitsPerSecond: Int {
        switch self {
        case .loopback: 1_000
        case .wifi: 50
        case .lte: 20
        case .slow3g: 2
        }
    }

    public var summary: String {
        "\(Double(roundTripMicroseconds) / 1000) ms round trip, \(megabitsPerSecond) Mbit/s"
    }
}

/// Which tier of an app's image cache a single-tier run models.
public enum TierKind: String, CaseIterable, Sendable, Codable {
    /// A persistent disk cache: survives app relaunches; a hit costs a read.
    case disk
    /// An in-memory cache: emptied by every relaunch; a hit is nearly free.
    case memory
}

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
