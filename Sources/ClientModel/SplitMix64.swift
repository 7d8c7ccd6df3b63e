/// A small, fast, seedable pseudo-random generator (Steele, Lea and Flood, "Fast splittable
/// pseudorandom number generators", OOPSLA 2014). Everything random in cachelab draws from it, so
/// the same seed always gives the same trace.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    @usableFromInline package var state: UInt64

    @inlinable public init(seed: UInt64) {
        state = seed
    }

    @inlinable public mutating func next() -> UInt64 {
        state &+= Self.increment
        return Self.mix(state)
    }

    /// The stream's step: the golden ratio's 64-bit fraction.
    public static let increment: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// The finalizer: spreads any 64-bit value over all 64 bits (consecutive ids included), the
    /// output of the stream whose state is `value`.
    @inlinable @inline(__always)
    public static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform double in `0..<1`.
    @inlinable public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }
}
