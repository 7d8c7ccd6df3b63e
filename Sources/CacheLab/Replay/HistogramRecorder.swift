import Histogram

/// Records the latency model's value for every request, in microseconds.
struct HistogramRecorder: LatencyRecording {
    let model: LatencyModel
    var latencies = LatencyHistogram()

    init(_ model: LatencyModel) {
        self.model = model
    }

    @inline(__always)
    mutating func hit(size: Int) { record(model.hitMicroseconds(size: size)) }

    @inline(__always)
    mutating func miss(size: Int) { record(model.missMicroseconds(size: size)) }

    /// Records one request that took `latency` microseconds.
    @inline(__always)
    mutating func record(_ latency: Int) { latencies.record(microseconds: latency) }

    func summary() -> LatencySummary { latencies.summary() }
}
