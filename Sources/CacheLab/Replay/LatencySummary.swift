/// Latency percentiles of a run, in milliseconds.
public struct LatencySummary: Sendable, Equatable, Codable {
    public var p50 = 0.0
    public var p95 = 0.0
    public var p99 = 0.0
    public var mean = 0.0
    /// The latency at each of `cdfPercentiles`, for plotting the distribution (empty when
    /// nothing was recorded).
    public var cdf: [Double] = []

    /// Where `cdf` samples the distribution: every percentile, and the tail closer.
    public static let cdfPercentiles: [Double] =
        Array(stride(from: 0.0, through: 99, by: 1)) + [99.5, 99.9, 100]

    public init(p50: Double = 0, p95: Double = 0, p99: Double = 0, mean: Double = 0) {
        self.p50 = p50
        self.p95 = p95
        self.p99 = p99
        self.mean = mean
    }
}
