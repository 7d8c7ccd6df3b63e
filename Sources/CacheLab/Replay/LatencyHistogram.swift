import Histogram

/// Latencies in microseconds in an HdrHistogram (3 significant digits, up to an hour), with the
/// exact mean kept alongside: what the simulated replay records from its model and the live
/// replay from the wall clock.
public struct LatencyHistogram: Sendable {
    private var histogram = Histogram<UInt64>(
        highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: .three)
    /// The exact sum of the latencies recorded, in microseconds (cheaper than walking the
    /// histogram for the mean).
    public private(set) var sum = 0
    public private(set) var count = 0

    public init() {
        histogram.autoResize = true
    }

    /// Records one request that took `microseconds`.
    @inline(__always)
    public mutating func record(microseconds: Int) {
        sum &+= microseconds
        count &+= 1
        histogram.record(UInt64(max(microseconds, 0)))
    }

    /// Adds every value recorded in `other`.
    public mutating func add(_ other: LatencyHistogram) {
        histogram.add(other.histogram)
        sum &+= other.sum
        count &+= other.count
    }

    /// Percentiles and mean in milliseconds (all zero when nothing was recorded).
    public func summary() -> LatencySummary {
        guard count > 0 else { return LatencySummary() }
        var summary = LatencySummary(
            p50: Double(histogram.valueAtPercentile(50)) / 1000,
            p95: Double(histogram.valueAtPercentile(95)) / 1000,
            p99: Double(histogram.valueAtPercentile(99)) / 1000,
            mean: Double(sum) / Double(count) / 1000)
        summary.cdf = LatencySummary.cdfPercentiles.map { Double(histogram.valueAtPercentile($0)) / 1000 }
        return summary
    }
}
