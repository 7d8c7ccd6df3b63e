import CacheEngine

/// One point of a miss-ratio curve: a policy at a capacity.
public struct CurvePoint: Sendable, Equatable, Codable {
    public var trace: String
    public var policy: PolicyKind
    /// Bytes, or objects in unit mode.
    public var capacity: Int
    public var sizeMode: SizeMode
    public var method: CurveMethod
    /// All requests of the trace (a sampled point estimates its counts for all of them).
    public var requests: Int
    public var hits: Int
    public var bytesRequested: Int
    public var bytesHit: Int

    public var misses: Int { requests - hits }
    public var hitRatio: Double { requests == 0 ? 0 : Double(hits) / Double(requests) }
    public var missRatio: Double { requests == 0 ? 0 : Double(misses) / Double(requests) }
    public var byteHitRatio: Double { bytesRequested == 0 ? 0 : Double(bytesHit) / Double(bytesRequested) }
    public var byteMissRatio: Double { bytesRequested == 0 ? 0 : 1 - byteHitRatio }

    public init(
        trace: String, policy: PolicyKind, capacity: Int, sizeMode: SizeMode, method: CurveMethod,
        requests: Int, hits: Int, bytesRequested: Int, bytesHit: Int
    ) {
        self.trace = trace
        self.policy = policy
        self.capacity = capacity
        self.sizeMode = sizeMode
        self.method = method
        self.requests = requests
        self.hits = hits
        self.bytesRequested = bytesRequested
        self.bytesHit = bytesHit
    }

    /// The point a replay measured.
    public init(_ result: RunResult, method: CurveMethod = .simulated) {
        self.init(
            trace: result.trace, policy: result.configuration.policy, capacity: result.cache.capacity,
            sizeMode: result.cache.sizeMode, method: method, requests: result.requests, hits: result.hits,
            bytesRequested: result.bytesRequested, bytesHit: result.bytesHit)
    }
}
