import CacheLab
import ClientModel
import FixtureServer

extension FixtureConfiguration {
    /// Shapes photo answers like `network`, sped up `speed` times: its round trip before each
    /// response and its bandwidth per body, so that a download lasts, in trace time, what the
    /// simulator's latency model (`LatencyModel.missMicroseconds`) says. A live replay paced at
    /// `speed` then meets delayed hits where the simulator does.
    public mutating func shape(like network: NetworkProfile, speed: Double = 1) {
        precondition(speed > 0, "a speed is greater than 0")
        latency = .microseconds(Double(network.roundTripMicroseconds) / speed)
        bandwidth = Int(Double(network.megabitsPerSecond) * 125_000 * speed)
    }
}
