import ClientModel

/// SHARDS's spatial sampling (Waldspurger, Park, Garthwaite and Ahmad, "Efficient MRC
/// Construction with SHARDS", FAST 2015): the objects whose hashed key falls under a threshold.
/// Every request of a sampled object is kept, so reuse within the sample is the trace's reuse.
enum SpatialSample {
    /// Whether `key` is in a sample of `rate` of the objects: its 53-bit hash is under
    /// rate × 2^53.
    @inline(__always)
    static func contains(_ key: UInt64, threshold: UInt64) -> Bool {
        hash(key) >> 11 < threshold
    }

    static func threshold(rate: Double) -> UInt64 {
        precondition(rate > 0 && rate <= 1, "a sample rate is in (0, 1]")
        return UInt64((rate * 9_007_199_254_740_992).rounded(.down))
    }

    /// SplitMix64's first output from the state `key`: spreads consecutive ids over all 64 bits.
    @inline(__always)
    static func hash(_ key: UInt64) -> UInt64 { SplitMix64.mix(key &+ SplitMix64.increment) }

    /// The sampled point's counts scaled to the whole trace (`requests` requests, `bytes`
    /// bytes), with SHARDS's adjustment: a sample holds more or fewer requests than `rate` of the
    /// trace, mostly because it caught more or fewer of the few very popular objects, whose
    /// requests are nearly all hits. So the difference from the expected count is counted as
    /// hits (at distance 0): without it, a 1 % sample of a Zipf trace that misses its hottest
    /// objects overstates the miss ratio by 0.1–0.2.
    static func estimate(_ point: CurvePoint, rate: Double, requests: Int, bytes: Int) -> CurvePoint {
        func scaled(_ hits: Int, sampled: Int, total: Int) -> Int {
            let expected = Double(total) * rate
            guard expected > 0 else { return 0 }
            let adjusted = Double(hits) + expected - Double(sampled)
            return Int((min(max(adjusted / expected, 0), 1) * Double(total)).rounded())
        }
        var estimate = point
        estimate.requests = requests
        estimate.bytesRequested = bytes
        estimate.hits = scaled(point.hits, sampled: point.requests, total: requests)
        estimate.bytesHit = scaled(point.bytesHit, sampled: point.bytesRequested, total: bytes)
        return estimate
    }
}
