import ClientModel
import Histogram
import Testing

@testable import CacheLab

/// `LatencyHistogram` counts most values in an array of its own and folds them into its
/// HdrHistogram when read: every figure must be the one recording each value in an HdrHistogram
/// of the same layout gives.
@Suite("LatencyHistogram: the same percentiles as recording each value in an HdrHistogram")
struct LatencyHistogramTests {
    /// The summary an HdrHistogram of `LatencyHistogram`'s layout gives for `values`.
    static func reference(_ values: [Int]) -> LatencySummary {
        var histogram = Histogram<UInt64>(highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: .three)
        histogram.autoResize = true
        for value in values { histogram.record(UInt64(max(value, 0))) }
        var summary = LatencySummary(
            p50: Double(histogram.valueAtPercentile(50)) / 1000,
            p95: Double(histogram.valueAtPercentile(95)) / 1000,
            p99: Double(histogram.valueAtPercentile(99)) / 1000,
            mean: Double(values.reduce(0, +)) / Double(values.count) / 1000)
        summary.cdf = LatencySummary.cdfPercentiles.map { Double(histogram.valueAtPercentile($0)) / 1000 }
        return summary
    }

    /// Values around every bucket edge up to past the array's range, in random order.
    static func values(seed: UInt64, count: Int) -> [Int] {
        var random = SplitMix64(seed: seed)
        let edges = (0..<36).flatMap { bits in [(1 << bits) - 1, 1 << bits, (1 << bits) + 1] }
        let drawn = (0..<count).map { _ in Int(random.next() >> (20 + random.next() % 44)) }
        return (edges + drawn).shuffled(using: &random)
    }

    @Test(arguments: [1 as UInt64, 2, 3])
    func everyPercentileIsTheOneEachValueRecordedGives(seed: UInt64) {
        // Given values from 0 to 2^35, some below the array's range and some past it
        let values = Self.values(seed: seed, count: 5_000)
        // When recorded
        var histogram = LatencyHistogram()
        for value in values { histogram.record(microseconds: value) }
        // Then the summary is the HdrHistogram's, including the least and greatest (0 and 100 %)
        #expect(histogram.summary() == Self.reference(values))
        #expect(histogram.count == values.count)
        #expect(histogram.sum == values.reduce(0, +))
    }

    @Test(arguments: [1 as UInt64, 2, 3])
    func valuesBelowTheArraysLimitAreReadWithoutFolding(seed: UInt64) {
        // Given values that all stay in the array (below 2^32, as every modelled latency does):
        // with zeros, without them, a few in one bucket, and the array's last value alone
        let values = Self.values(seed: seed, count: 5_000).filter { $0 < 1 << 32 }
        let samples = [values, values.filter { $0 != 0 }, Array(values.prefix(7)), [0, 0, 7], [(1 << 32) - 1]]
        for sample in samples {
            // When recorded
            var histogram = LatencyHistogram()
            for value in sample { histogram.record(microseconds: value) }
            // Then the summary read from the array is the HdrHistogram's
            #expect(histogram.summary() == Self.reference(sample))
        }
    }

    @Test(arguments: [1 as UInt64, 2])
    func valuesAtPercentilesAreTheLibrarysOwn(seed: UInt64) {
        // Given an HdrHistogram of values across every bucket edge, and percentiles anywhere in
        // 0...100 (their bounds, near-integers and repeats included), in random order
        var histogram = Histogram<UInt64>(highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: .three)
        histogram.autoResize = true
        for value in Self.values(seed: seed, count: 2_000) { histogram.record(UInt64(value)) }
        var random = SplitMix64(seed: seed)
        var percentiles = (0..<500).map { _ in Double(random.next() % 1_000_001) / 10_000 }
        percentiles += [0, 100, 50, 50, 99.9, 0.0001, 99.9999, 1.0.nextDown, 1.0.nextUp]
        // Then one walk gives what valueAtPercentile gives for each
        #expect(
            LatencyHistogram.values(atPercentiles: percentiles, of: histogram)
                == percentiles.map { histogram.valueAtPercentile($0) })
    }

    @Test func theLeastAndGreatestAreExactWhenTheyShareABucketWithOthers() {
        // Given values that all fall in one bucket (10,000 to 10,007 count as one at 3 digits)
        let values = [10_003, 10_001, 10_002, 10_007, 10_006]
        var histogram = LatencyHistogram()
        for value in values { histogram.record(microseconds: value) }
        // Then the 0th and 100th percentiles are the least and the greatest, as recorded
        #expect(histogram.summary() == Self.reference(values))
        #expect(histogram.summary().cdf.first == 10.001)
        #expect(histogram.summary().cdf.last == 10.007)
    }

    @Test func addingHistogramsIsRecordingBoth() {
        // Given two histograms of different values, and zeros and negatives among them
        let first = Self.values(seed: 5, count: 1_000) + [0, -3]
        let second = Self.values(seed: 6, count: 1_000)
        var a = LatencyHistogram()
        var b = LatencyHistogram()
        for value in first { a.record(microseconds: value) }
        for value in second { b.record(microseconds: value) }
        // When one is added to the other (and to an empty one)
        a.add(b)
        var empty = LatencyHistogram()
        empty.add(a)
        // Then each is one HdrHistogram of all the values
        #expect(a.summary() == Self.reference(first + second))
        #expect(empty.summary() == Self.reference(first + second))
        #expect(LatencyHistogram().summary() == LatencySummary())
    }
}
