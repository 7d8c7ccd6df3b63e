import ClientModel

/// How many times to try a fetch and how long to wait between tries: exponential backoff with
/// seeded jitter.
///
/// The wait before retry `n` (1 for the second attempt) is `min(baseDelay * 2^(n-1), maxDelay)`,
/// scaled by a factor drawn uniformly from `1 - jitter ..< 1 + jitter`.
public struct RetryPolicy: Sendable, Equatable {
    /// Attempts in all, the first included; at least 1.
    public var maxAttempts: Int
    public var baseDelay: Duration
    public var maxDelay: Duration
    /// The jitter fraction, in `0...1`; 0 gives exact powers of two.
    public var jitter: Double
    /// Seeds the jitter, so the same policy waits the same delays every run.
    public var seed: UInt64

    public init(
        maxAttempts: Int = 3,
        baseDelay: Duration = .milliseconds(500),
        maxDelay: Duration = .seconds(8),
        jitter: Double = 0.2,
        seed: UInt64 = 0x5EED
    ) {
        precondition(maxAttempts >= 1, "A retry policy needs at least one attempt")
        precondition((0...1).contains(jitter), "Jitter is a fraction in 0...1")
        precondition(baseDelay >= .zero && maxDelay >= baseDelay, "Delays must satisfy 0 <= baseDelay <= maxDelay")
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.jitter = jitter
        self.seed = seed
    }

    /// Three attempts, 0.5 s then 1 s apart, ±20 %.
    public static let standard = RetryPolicy()

    /// The same policy with its jitter drawn from `seed`: an install's own
    /// (`DiskStore.installSeed()`), so installs do not retry in step, each the same every run.
    public func seeded(_ seed: UInt64) -> RetryPolicy {
        var policy = self
        policy.seed = seed
        return policy
    }

    /// One attempt, no retries.
    public static let never = RetryPolicy(maxAttempts: 1)

    /// The wait before retry `retry` (1-based), drawing the jitter from `random`.
    public func delay(beforeRetry retry: Int, using random: inout SplitMix64) -> Duration {
        precondition(retry >= 1, "Retries are numbered from 1")
        // Doubling saturates at maxDelay long before 2^62 could overflow.
        let exponent = min(retry - 1, 62)
        let base = Self.nanoseconds(baseDelay)
        let cap = Self.nanoseconds(maxDelay)
        let backoff = base > cap >> exponent ? cap : base << exponent
        let factor = jitter == 0 ? 1 : 1 - jitter + 2 * jitter * random.nextUnit()
        return .nanoseconds(Int64((Double(backoff) * factor).rounded()))
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
