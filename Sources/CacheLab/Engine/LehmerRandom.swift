/// libCacheSim's random numbers: Lehmer's multiplicative generator on 128 bits (multiplier
/// 0xda942042e4dd58b5, the high 64 bits drawn), started at 0xdeadbeef as libCacheSim starts
/// every thread. A cache's randomized policy and its admission filter draw from one stream, as
/// libCacheSim's do from its thread's, so a run makes libCacheSim's choices draw for draw.
///
/// A reference, shared by the engine, its policy and its admission filter; one owner thread.
public final class LehmerRandom {
    /// Where libCacheSim's generator starts in every thread.
    public static let libCacheSimSeed: UInt64 = 0xdead_beef
    static let multiplier: UInt64 = 0xda94_2042_e4dd_58b5

    private var high: UInt64 = 0
    private var low: UInt64
    /// How many numbers have been drawn since the start (or the last `reseed`): a hint that
    /// depends on the coming draws is stale once this moves.
    private(set) var draws: UInt64 = 0

    /// A generator whose 128-bit state starts at `seed`.
    public init(seed: UInt64 = libCacheSimSeed) {
        low = seed
    }

    /// Starts the stream again at `seed`.
    public func reseed(_ seed: UInt64) {
        high = 0
        low = seed
        draws = 0
    }

    /// The numbers `next()` will give after the next `skipping`, drawn from a copy of the state
    /// (for hints): the generator itself does not move.
    struct Lookahead {
        fileprivate var high: UInt64
        fileprivate var low: UInt64

        @inline(__always)
        mutating func next() -> UInt64 { LehmerRandom.step(&high, &low) }
    }

    @inline(__always)
    func lookahead(skipping: Int = 0) -> Lookahead {
        var copy = Lookahead(high: high, low: low)
        for _ in 0..<skipping { _ = copy.next() }
        return copy
    }

    /// The next draw.
    @inline(__always)
    public func next() -> UInt64 {
        draws &+= 1
        return Self.step(&high, &low)
    }

    /// One step of the generator on a 128-bit state: the state times the multiplier, the high
    /// 64 bits drawn.
    @inline(__always)
    fileprivate static func step(_ high: inout UInt64, _ low: inout UInt64) -> UInt64 {
        let (carry, product) = low.multipliedFullWidth(by: multiplier)
        low = product
        high = high &* multiplier &+ carry
        return high
    }
}
