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
    /// How many coming draws the generator holds ready: enough for a lookahead past three
    /// samples of a 2^16-bucket table (each at most 34 draws) and the sample after them.
    static var bufferSize: Int { 256 }
    /// The most draws a `lookahead` may read (past what it skips), so a sample that halves its
    /// table (33 draws and a 34th for the chain) can be peeked in full.
    static var lookaheadReach: Int { 40 }

    /// The state after the last draw computed (not the last taken: `ahead` holds the ones
    /// between).
    private var high: UInt64 = 0
    private var low: UInt64
    /// How many numbers have been drawn since the start (or the last `reseed`): a hint that
    /// depends on the coming draws is stale once this moves.
    private(set) var draws: UInt64 = 0
    /// How many numbers have been computed since the start: draws `draws..<computed` wait in
    /// `ahead`, draw n at `n % bufferSize`. So a lookahead reads coming draws instead of
    /// recomputing each from a copy of the state (128-bit multiplies in a dependent chain: a
    /// Random eviction's hints used to redo about twenty).
    private var computed: UInt64 = 0
    private let ahead = UnsafeMutablePointer<UInt64>.allocate(capacity: bufferSize)

    /// A generator whose 128-bit state starts at `seed`.
    public init(seed: UInt64 = libCacheSimSeed) {
        low = seed
    }

    deinit { ahead.deallocate() }

    /// Starts the stream again at `seed`.
    public func reseed(_ seed: UInt64) {
        high = 0
        low = seed
        draws = 0
        computed = 0
    }

    /// The numbers `next()` will give after the next `skipping` (for hints): the generator
    /// itself does not move, and at most `lookaheadReach` of them may be read. Valid until the
    /// generator draws again.
    struct Lookahead {
        fileprivate let ahead: UnsafeMutablePointer<UInt64>
        fileprivate var position: UInt64
        /// Where the computed draws end.
        fileprivate let end: UInt64

        @inline(__always)
        mutating func next() -> UInt64 {
            assert(position < end, "LehmerRandom: a lookahead read past its reach")
            defer { position &+= 1 }
            return ahead[Int(position % UInt64(LehmerRandom.bufferSize))]
        }
    }

    @inline(__always)
    func lookahead(skipping: Int = 0) -> Lookahead {
        precondition(
            skipping >= 0 && skipping + Self.lookaheadReach <= Self.bufferSize,
            "LehmerRandom: a lookahead past \(Self.bufferSize) draws")
        if computed &- draws < UInt64(skipping + Self.lookaheadReach) { compute() }
        return Lookahead(ahead: ahead, position: draws &+ UInt64(skipping), end: computed)
    }

    /// The next draw.
    @inline(__always)
    public func next() -> UInt64 {
        if computed == draws { compute() }
        defer { draws &+= 1 }
        return ahead[Int(draws % UInt64(Self.bufferSize))]
    }

    /// Fills `ahead` with coming draws.
    private func compute() {
        while computed &- draws < UInt64(Self.bufferSize) {
            ahead[Int(computed % UInt64(Self.bufferSize))] = Self.step(&high, &low)
            computed &+= 1
        }
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
