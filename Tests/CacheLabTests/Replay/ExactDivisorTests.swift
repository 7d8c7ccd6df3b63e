import ClientModel
import Testing

@testable import CacheLab

@Suite("ExactDivisor: division as a multiplication")
struct ExactDivisorTests {
    @Test(arguments: [1, 2, 3, 7, 20, 50, 400, 1_000, 65_537, 1 << 31, Int(UInt32.max)])
    func everyQuotientIsTheDivisionOperators(divisor: Int) {
        let exact = ExactDivisor(divisor)
        var generator = SplitMix64(seed: UInt64(divisor))
        // Given numerators at the edges of the 32-bit range, beyond it, and drawn across it
        var numerators = [0, 1, divisor - 1, divisor, divisor + 1, Int(UInt32.max) - 1, Int(UInt32.max)]
        numerators += [1 << 32, (1 << 32) + 1, Int.max, -1, -divisor, Int.min + 1]
        numerators += (0..<20_000).map { _ in Int(generator.next() >> 32) }
        numerators += (0..<1_000).map { _ in Int(bitPattern: UInt(generator.next() >> 1)) }
        // Then each quotient is the one `/` gives
        for n in numerators {
            #expect(exact.quotient(n) == n / divisor, "\(n) / \(divisor)")
        }
    }
}
