/// libCacheSim's random numbers: Lehmer's multiplicative generator on 128 bits (multiplier
/// 0xda942042e4dd58b5, the high 64 bits drawn), started at 0xdeadbeef as libCacheSim starts
/// every thread. A cache's randomized policy and its admission filter draw from one stream, as
/// libCacheSim's do from its thread's, so a run makes libCacheSim's choices draw for draw.
///
/// A reference, shared by the engine, its policy and its admission filter; one owner thread.
public final class LehmerRandom {
    /// Where libCacheSim's generator starts in every thread.
    public static let libCacheSimSeed: UInt64 = 0xdead_beef
    @usableFromInline package static let multiplier: UInt64 = 0xda94_2042_e4dd_58b5
    /// How many coming draws the generator holds ready: enough for a lookahead past three
    /// samples of a 2^16-bucket table (each at most 34 draws) and the sample after them.
    @inlinable package static var bufferSize: Int { 256 }
    /// The most draws a `lookahead` may read (past what it skips), so a sample that halves its
    /// table (33 draws and a 34th for the chain) can be peeked in full.
    @inlinable package static var lookaheadReach: Int { 40 }

    /// The state after the last draw computed (not the last taken: `ahead` holds the ones
    /// between).
    @exclusivity(unchecked) @usableFromInline package var high: UInt64 = 0
    @exclusivity(unchecked) @usableFromInline package var low: UInt64
    /// How many numbers have been drawn since the start (or the last `reseed`): a hint that
    /// depends on the coming draws is stale once this moves.
    @exclusivity(unchecked) @usableFromInline package var draws: UInt64 = 0
    /// How many numbers have been computed since the start: draws `draws..<computed` wait in
    /// `ahead`, draw n at `n % bufferSize`. So a lookahead reads coming draws instead of
    /// recomputing each from a copy of the state (128-bit multiplies in a dependent chain: a
    /// Random eviction's hints used to redo about twenty).
    @exclusivity(unchecked) @usableFromInline package var computed: UInt64 = 0
    @usableFromInline package let ahead = UnsafeMutablePointer<UInt64>.allocate(capacity: bufferSize)

    /// A generator whose 128-bit state starts at `seed`.
    @inlinable public init(seed: UInt64 = libCacheSimSeed) {
        low = seed
    }

    deinit { ahead.deallocate() }

    /// Starts the stream again at `seed`.
    @inlinable public func reseed(_ seed: UInt64) {
        high = 0
        low = seed
        draws = 0
        computed = 0
    }

    /// The numbers `next()` will give after the next `skipping` (for hints): the generator
    /// itself does not move, and at most `lookaheadReach` of them may be read. Valid until the
    /// generator draws again.
    @usableFromInline package struct Lookahead {
        @usableFromInline package let ahead: UnsafeMutablePointer<UInt64>
        @usableFromInline package var position: UInt64
        /// Where the computed draws end.
        @usableFromInline package let end: UInt64

        @inline(__always)
        @inlinable package mutating func next() -> UInt64 {
            assert(position < end, "LehmerRandom: a lookahead read past its reach")
            defer { position &+= 1 }
            return ahead[Int(position % UInt64(LehmerRandom.bufferSize))]
        }

        @inlinable package init(ahead: UnsafeMutablePointer<UInt64>, position: UInt64, end: UInt64) {
            self.ahead = ahead
            self.position = position
            self.end = end
        }
    }

    @inline(__always)
    @inlinable package func lookahead(skipping: Int = 0) -> Lookahead {
        precondition(
            skipping >= 0 && skipping + Self.lookaheadReach <= Self.bufferSize,
            "LehmerRandom: a lookahead past \(Self.bufferSize) draws")
        if computed &- draws < UInt64(skipping + Self.lookaheadReach) { compute() }
        return Lookahead(ahead: ahead, position: draws &+ UInt64(skipping), end: computed)
    }

    /// The next draw.
    @inline(__always)
    @inlinable public func next() -> UInt64 {
        if computed == draws { compute() }
        defer { draws &+= 1 }
        return ahead[Int(draws % UInt64(Self.bufferSize))]
    }

    /// Fills `ahead` with coming draws.
    /// The state and the count are copied into locals for the loop: kept in the class, each
    /// store into `ahead` (a pointer that might alias them, as far as the compiler knows) would
    /// make every step load them again and store them back.
    @inlinable package func compute() {
        var (high, low, computed) = (self.high, self.low, self.computed)
        let end = draws &+ UInt64(Self.bufferSize)
        while computed != end {
            ahead[Int(computed % UInt64(Self.bufferSize))] = Self.step(&high, &low)
            computed &+= 1
        }
        (self.high, self.low, self.computed) = (high, low, computed)
    }

    /// One step of the generator on a 128-bit state: the state times the multiplier, the high
    /// 64 bits drawn.
    @inline(__always)
    @inlinable package static func step(_ high: inout UInt64, _ low: inout UInt64) -> UInt64 {
        let (carry, product) = low.multipliedFullWidth(by: multiplier)
        low = product
        high = high &* multiplier &+ carry
        return high
    }
}
