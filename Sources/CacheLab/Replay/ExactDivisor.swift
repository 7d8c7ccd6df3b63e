/// Integer division by a divisor fixed at run time, as a multiplication: `n / divisor` for every
/// `n`, the quotient the `/` operator gives, without the hardware divide on the common path.
///
/// For `0 <= n < 2^32` the quotient is the high 64 bits of `n × ⌈2^64 / divisor⌉` (exact for
/// every 32-bit numerator: Lemire, Kaser and Kurz, "Faster Remainder by Direct Computation",
/// Software: Practice and Experience, 2019); any other numerator is divided.
struct ExactDivisor: Sendable, Equatable {
    let divisor: Int
    /// ⌈2^64 / divisor⌉, or 0 for a divisor of 1 (whose quotient is the numerator).
    private let multiplier: UInt64

    init(_ divisor: Int) {
        precondition(divisor > 0, "ExactDivisor: divisor \(divisor) is not positive")
        self.divisor = divisor
        multiplier = divisor == 1 ? 0 : UInt64.max / UInt64(divisor) &+ 1
    }

    @inline(__always)
    func quotient(_ n: Int) -> Int {
        guard multiplier != 0 else { return n }
        guard UInt(bitPattern: n) < 1 << 32 else { return n / divisor }
        return Int(truncatingIfNeeded: multiplier.multipliedFullWidth(by: UInt64(n)).high)
    }
}
