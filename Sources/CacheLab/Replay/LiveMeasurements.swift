import ClientModel

/// What a live run measures beyond the counts every run has.
public struct LiveMeasurements: Sendable, Equatable, Codable {
    /// Requests whose download failed (an injected fault, a timeout).
    public var failures = 0
    /// Photo requests and body bytes the server counted during the run.
    public var serverRequests = 0
    public var serverBytes = 0
    /// The wall-clock latency of the requests each source served.
    public var latencyBySource: [RequestOutcome: LatencySummary] = [:]

    public init() {}
}
