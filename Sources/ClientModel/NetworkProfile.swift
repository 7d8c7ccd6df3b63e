/// A named network for the simulator's latency model: a miss costs one round trip plus the
/// object's transfer time at the profile's bandwidth.
public enum NetworkProfile: String, CaseIterable, Sendable, Codable {
    case loopback
    case wifi
    case lte
    case slow3g = "3g"

    /// Round-trip time in microseconds.
    @inlinable public var roundTripMicroseconds: Int {
        switch self {
        case .loopback: 200
        case .wifi: 20_000
        case .lte: 50_000
        case .slow3g: 200_000
        }
    }

    /// Download bandwidth in megabits per second (10^6 bits).
    @inlinable public var megabitsPerSecond: Int {
        switch self {
        case .loopback: 1_000
        case .wifi: 50
        case .lte: 20
        case .slow3g: 2
        }
    }

    @inlinable public var summary: String {
        "\(Double(roundTripMicroseconds) / 1000) ms round trip, \(megabitsPerSecond) Mbit/s"
    }
}
