import Histogram

/// Records the latency model's value for every request, in microseconds.
struct HistogramRecorder: LatencyRecording {
    let model: LatencyModel
    var latencies = LatencyHistogram()
    // The model's figures, read once: its properties switch over the tier and the network on
    // every call, and its miss time divides by the bandwidth.
    private let diskHits: Bool
    private let roundTrip: Int
    private let bandwidth: ExactDivisor

    init(_ model: LatencyModel) {
        self.model = model
        diskHits = model.tier == .disk
        roundTrip = model.network.roundTripMicroseconds
        bandwidth = ExactDivisor(model.network.megabitsPerSecond)
    }

    /// `model.hitMicroseconds(size:)`.
    @inline(__always)
    mutating func hit(size: Int) { record(diskHits ? 500 + size / 400 : 50) }

    /// `model.missMicroseconds(size:)`.
    @inline(__always)
    mutating func miss(size: Int) { record(roundTrip + bandwidth.quotient(size * 8)) }

    /// Records one request that took `latency` microseconds.
    @inline(__always)
    mutating func record(_ latency: Int) { latencies.record(microseconds: latency) }

    func summary() -> LatencySummary? { latencies.summary() }
}
