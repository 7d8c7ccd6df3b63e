/// A Zipf trace's shape: requests whose popularity follows a Zipf law, the object of popularity
/// rank `k` (1-based) requested with probability proportional to `1 / k^alpha`.
///
/// - Objects have ids that look like hashed ids (a bijective scramble of the rank, salted by
///   the seed) and one fixed size each, drawn from `sizes` independently of rank.
/// - Requests arrive as a Poisson process of 100 requests per second of trace time.
/// - Everything is drawn from `SplitMix64`, so the same parameters give the same trace.
public struct ZipfParameters: Sendable, Equatable {
    public var requests: Int
    public var objects: Int
    public var alpha: Double
    public var seed: UInt64
    public var sizes: SizeDistribution

    public init(
        requests: Int, objects: Int, alpha: Double, seed: UInt64,
        sizes: SizeDistribution = .logUniform(min: 1_000, max: 100_000)
    ) {
        precondition(requests >= 0, "requests must not be negative")
        precondition(objects >= 1, "a Zipf trace needs at least one object")
        precondition(alpha >= 0 && alpha.isFinite, "alpha must be a finite number >= 0")
        if case .logUniform(let low, let high) = sizes {
            precondition(low >= 1 && low <= high, "sizes need 1 <= min <= max")
        }
        self.requests = requests
        self.objects = objects
        self.alpha = alpha
        self.seed = seed
        self.sizes = sizes
    }

    /// The trace's name.
    public var name: String {
        let sized = sizes == .logUniform(min: 1_000, max: 100_000) ? "" : ", sizes=\(sizes)"
        return "zipf(alpha=\(alpha), objects=\(objects), seed=\(seed)\(sized))"
    }
}
