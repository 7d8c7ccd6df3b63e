import Histogram

/// Latencies in microseconds in an HdrHistogram (3 significant digits, up to an hour), with the
/// exact mean kept alongside: what the simulated replay records from its model and the live
/// replay from the wall clock.
///
/// The simulator records a value per request, so recording is on its hot path. Values below
/// 2^32 are counted in an array indexed as the HdrHistogram indexes them (`countIndex`), a few
/// inlined instructions, with the exact least non-zero and greatest value beside it; they are
/// folded into the HdrHistogram when the histogram is added to another or a summary is read of
/// one that holds values past the array (a summary of the array alone reads it as it is).
/// Folding records each count at a value of its own bucket, and the least and greatest at their
/// exact values, so the HdrHistogram ends with the counts, least and greatest that recording
/// each value would have left: every percentile is the same (`LatencyHistogramTests`). The index
/// is HdrHistogram's own formula written out (`countIndex`): the library keeps it internal.
public struct LatencyHistogram: Sendable {
    /// The values folded or recorded past the array; made with the first of them (nil until
    /// then): a replay makes a histogram for each of its cells, and most never need it.
    private var histogram: Histogram<UInt64>?
    /// Counts of the values below `directLimit` not yet in `histogram`, by `countIndex`, as far
    /// as the greatest value's index (empty until the first).
    private var pending: [UInt64] = []
    /// The least non-zero value in `pending` (`UInt64.max`: none) and the greatest (0: none).
    private var pendingLeast = UInt64.max
    private var pendingGreatest: UInt64 = 0
    /// The exact sum of the latencies recorded, in microseconds (cheaper than walking the
    /// histogram for the mean).
    public private(set) var sum = 0
    public private(set) var count = 0

    /// HdrHistogram's layout at 3 significant digits and unit resolution: 2,048 sub-buckets, the
    /// upper 1,024 of each bucket past the first in the counts.
    private static var subBucketHalfCountMagnitude: Int { 10 }
    private static var subBucketMask: UInt64 { (1 << (subBucketHalfCountMagnitude + 1)) - 1 }
    /// 64 less the bits of a sub-bucket index.
    private static var leadingZeroCountBase: Int { 64 - (subBucketHalfCountMagnitude + 1) }
    /// Values from here on are recorded in the HdrHistogram directly.
    private static var directLimit: UInt64 { 1 << 32 }
    private static let pendingCount = countIndex(directLimit - 1) + 1

    public init() {}

    /// An empty HdrHistogram of this layout, made the first time one is needed: its counts array
    /// is written element by element through generic code, which every one of `tune`'s cells
    /// paid for when each histogram made one up front.
    private static func makeHistogram() -> Histogram<UInt64> {
        var histogram = Histogram<UInt64>(highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: .three)
        histogram.autoResize = true
        return histogram
    }

    /// Where HdrHistogram counts `value` (`Histogram.countsIndexForValue`).
    @inline(__always)
    static func countIndex(_ value: UInt64) -> Int {
        let bucket = leadingZeroCountBase - (value | subBucketMask).leadingZeroBitCount
        return ((bucket + 1) << subBucketHalfCountMagnitude) + Int(value >> bucket) - (1 << subBucketHalfCountMagnitude)
    }

    /// The least value counted at `index` (`Histogram.valueFromIndex`).
    static func leastValue(at index: Int) -> UInt64 {
        var bucket = (index >> subBucketHalfCountMagnitude) - 1
        var subBucket = (index & ((1 << subBucketHalfCountMagnitude) - 1)) + (1 << subBucketHalfCountMagnitude)
        if bucket < 0 {
            subBucket -= 1 << subBucketHalfCountMagnitude
            bucket = 0
        }
        return UInt64(subBucket) << bucket
    }

    /// Records one request that took `microseconds`.
    @inline(__always)
    public mutating func record(microseconds: Int) {
        sum &+= microseconds
        count &+= 1
        let value = UInt64(max(microseconds, 0))
        guard value < Self.directLimit else {
            if histogram == nil { histogram = Self.makeHistogram() }
            histogram?.record(value)
            return
        }
        let index = Self.countIndex(value)
        if index >= pending.count { growPending(past: index) }
        pending[index] &+= 1
        pendingGreatest = max(pendingGreatest, value)
        pendingLeast = min(pendingLeast, value == 0 ? .max : value)
    }

    // Makes room in `pending` for `index`: twice as many counts, or the 8,192 that hold every
    // value below 2^17 µs (`countIndex(1 << 17)` is 8,192), or up to `index`, whichever is most,
    // within `pendingCount`. A histogram is made for each cell a replay runs, so the array grows
    // to the values seen instead of starting at all 23,552 counts (184 KiB zeroed per cell).
    private mutating func growPending(past index: Int) {
        let count = Swift.min(Swift.max(index + 1, pending.count * 2, 8_192), Self.pendingCount)
        pending += repeatElement(0, count: count - pending.count)
    }

    /// Adds every value recorded in `other`.
    public mutating func add(_ other: LatencyHistogram) {
        if histogram == nil { histogram = Self.makeHistogram() }
        histogram?.add(other.folded())
        sum &+= other.sum
        count &+= other.count
    }

    /// Percentiles and mean in milliseconds (all zero when nothing was recorded).
    public func summary() -> LatencySummary {
        guard count > 0 else { return LatencySummary() }
        let percentiles = [50, 95, 99] + LatencySummary.cdfPercentiles
        // Every value below 2^32 (every latency a replay models): read the pending counts as they
        // are, without folding them into the HdrHistogram first.
        let values =
            (histogram?.totalCount ?? 0) == 0
            ? pendingValues(atPercentiles: percentiles)
            : Self.values(atPercentiles: percentiles, of: folded())
        var summary = LatencySummary(
            p50: Double(values[0]) / 1000, p95: Double(values[1]) / 1000, p99: Double(values[2]) / 1000,
            mean: Double(sum) / Double(count) / 1000)
        summary.cdf = values.dropFirst(3).map { Double($0) / 1000 }
        return summary
    }

    /// What `valueAtPercentile` answers for each percentile: the least and the greatest value
    /// for 0 and 100, and for the others the count to reach (at or past `p` percent of `total`,
    /// rounded up, less one ulp of `p`), least first, with the place of its answer.
    private static func ranks(
        of percentiles: [Double], total: UInt64, least: UInt64, greatest: UInt64
    ) -> (values: [UInt64], targets: [(count: UInt64, position: Int)]) {
        var values = [UInt64](repeating: 0, count: percentiles.count)
        var targets: [(count: UInt64, position: Int)] = []
        for (position, percentile) in percentiles.enumerated() {
            if percentile == 0 {
                values[position] = least
            } else if percentile >= 100 {
                values[position] = greatest
            } else {
                let requested = Swift.min(Swift.max(percentile.nextDown, 0), 100)
                let count = (requested * Double(total)) / 100
                targets.append((Swift.max(1, UInt64(count.rounded(.up))), position))
            }
        }
        targets.sort { $0.count < $1.count }
        return (values, targets)
    }

    /// `histogram.valueAtPercentile(p)` for every `p` of `percentiles`, in one walk over its
    /// buckets: the same rule (`ranks`; the highest value equivalent to the bucket that reaches
    /// the count, within the least and the greatest recorded), from the library's `@inlinable`
    /// iterator, so the walk is specialized here. `valueAtPercentile` is not inlinable: called
    /// from this module it walks every bucket through unspecialized generic code, once per
    /// percentile (103 here).
    static func values(atPercentiles percentiles: [Double], of histogram: Histogram<UInt64>) -> [UInt64] {
        let least = histogram.min
        let greatest = histogram.maxRecorded
        var (values, targets) = ranks(of: percentiles, total: histogram.totalCount, least: least, greatest: greatest)
        var next = 0
        for bucket in histogram.recordedValues() where next < targets.count {
            while next < targets.count, bucket.totalCountToThisValue >= targets[next].count {
                values[targets[next].position] = Swift.max(Swift.min(bucket.value, greatest), least)
                next += 1
            }
        }
        return values
    }

    /// `values(atPercentiles:of: folded())` when every value is pending, read from the pending
    /// counts up to the greatest value's: the HdrHistogram folding would make counts the same at
    /// every index, its least value 0 if 0 was recorded and the least non-zero value otherwise,
    /// and its greatest the greatest value; a bucket's highest equivalent value is its least plus
    /// its width (`1 << bucket`) less one. `LatencyHistogramTests` holds the two equal.
    private func pendingValues(atPercentiles percentiles: [Double]) -> [UInt64] {
        let least = pending[0] > 0 ? 0 : pendingLeast
        let greatest = pendingGreatest
        var (values, targets) = Self.ranks(of: percentiles, total: UInt64(count), least: least, greatest: greatest)
        var next = 0
        var reached: UInt64 = 0
        for index in 0...Self.countIndex(greatest) where pending[index] > 0 {
            guard next < targets.count else { break }
            reached &+= pending[index]
            guard reached >= targets[next].count else { continue }
            let bucket = Swift.max((index >> Self.subBucketHalfCountMagnitude) - 1, 0)
            let highest = Self.leastValue(at: index) &+ (1 << bucket) &- 1
            let value = Swift.max(Swift.min(highest, greatest), least)
            while next < targets.count, reached >= targets[next].count {
                values[targets[next].position] = value
                next += 1
            }
        }
        return values
    }

    /// `histogram` with the pending counts recorded in it: each at its bucket's least value, but
    /// the greatest value once at its own, and its bucket's others and the least non-zero
    /// value's bucket at the least non-zero value (HdrHistogram keeps those two exactly, and a
    /// bucket's least value may be below the least recorded).
    private func folded() -> Histogram<UInt64> {
        var histogram = histogram ?? Self.makeHistogram()
        guard !pending.isEmpty else { return histogram }
        let leastIndex = pendingLeast == .max ? -1 : Self.countIndex(pendingLeast)
        let greatestIndex = Self.countIndex(pendingGreatest)
        for index in pending.indices where pending[index] > 0 {
            var left = pending[index]
            if index == greatestIndex {
                histogram.record(pendingGreatest)
                left -= 1
            }
            guard left > 0 else { continue }
            histogram.record(index == leastIndex ? pendingLeast : Self.leastValue(at: index), count: left)
        }
        return histogram
    }
}
