import CacheEngine
import CacheLabLocking
import Foundation
import Testing

@testable import CacheLab

@Suite struct MissRatioCurveTests {
    /// A Zipf trace of 2,000 objects of 1–100 KB: every object keeps its size.
    static let zipf = SyntheticTrace.zipf(requests: 20_000, objects: 2_000, alpha: 0.8, seed: 3)

    /// Capacities from below the smallest object to above the working set, log spaced, plus each
    /// side of some object sizes (where the refused objects change).
    static func capacities(for trace: Trace, _ sizeMode: SizeMode) -> [Int] {
        let workingSet = TraceStatistics(trace).workingSet(in: sizeMode)
        var capacities = MRCCommandRange.logSpaced(from: 1, to: workingSet + 10, points: 40)
        if sizeMode == .bytes {
            for size in trace.sizes.prefix(5) { capacities += [size - 1, size, size + 1] }
        }
        return Array(Set(capacities.filter { $0 >= 1 })).sorted()
    }

    static func replayed(
        _ trace: Trace, _ policy: PolicyKind, _ capacity: Int, _ sizeMode: SizeMode, _ tier: TierKind
    )
        -> CurvePoint
    {
        CurvePoint(
            Replay.simulate(
                trace, RunConfiguration(policy: policy, capacity: capacity, sizeMode: sizeMode, tier: tier),
                latency: false))
    }

    @Test(arguments: [SizeMode.bytes, .unit])
    func lruStackCurveEqualsReplayAtEveryCapacity(_ sizeMode: SizeMode) {
        // Given a trace whose objects keep one size each
        let trace = Self.zipf
        let capacities = Self.capacities(for: trace, sizeMode)

        // When LRU's curve is read off one stack pass
        let points = MissRatioCurve.compute(
            trace, .init(policies: [.lru], capacities: capacities, sizeMode: sizeMode))

        // Then every point is the replay's, hit for hit and byte for byte
        #expect(points.map(\.capacity) == capacities)
        for point in points {
            let replay = Self.replayed(trace, .lru, point.capacity, sizeMode, .disk)
            #expect(point.method == .stackDistance)
            #expect(point.hits == replay.hits, "hits at \(point.capacity)")
            #expect(point.bytesHit == replay.bytesHit, "bytes hit at \(point.capacity)")
            #expect(point.requests == replay.requests && point.bytesRequested == replay.bytesRequested)
        }
        // And the curve covers the interesting range: from no room (in bytes, every object is
        // bigger than 1 byte) to every re-reference a hit
        if sizeMode == .bytes { #expect(points.first!.hits == 0) }
        #expect(points.last!.hits == trace.count - TraceStatistics(trace).uniqueObjects)
    }

    @Test(arguments: [TierKind.memory, .disk])
    func lruStackCurveFollowsRelaunchesOfAMemoryTier(_ tier: TierKind) {
        // Given a scroll trace with relaunch events
        let trace = ScrollScenario.named("daily-reader", seed: 7)!.makeTrace()
        #expect(trace.events.contains { $0.kind == .relaunch })
        let capacities = Self.capacities(for: trace, .bytes)

        // When its curve is computed for a memory tier (emptied by relaunches) or a disk tier
        let points = MissRatioCurve.compute(
            trace, .init(policies: [.lru], capacities: capacities, sizeMode: .bytes, tier: tier))

        // Then it equals the replays of that tier
        for point in points {
            let replay = Self.replayed(trace, .lru, point.capacity, .bytes, tier)
            #expect(point.hits == replay.hits, "\(tier) hits at \(point.capacity)")
            #expect(point.bytesHit == replay.bytesHit, "\(tier) bytes hit at \(point.capacity)")
        }
    }

    @Test func lruIsReplayedWhenAnObjectChangesSize() {
        // Given a trace where object 1 is requested at two sizes
        var trace = Trace(name: "resized")
        for (key, size) in [(1, 10), (2, 10), (1, 30), (3, 10), (1, 30), (2, 10)] as [(UInt64, Int)] {
            trace.append(time: 0, key: key, size: size)
        }

        // When its curve is computed in bytes mode
        let points = MissRatioCurve.compute(trace, .init(policies: [.lru], capacities: [20, 40, 60]))

        // Then each point is a replay, and equal to one
        #expect(points.map(\.capacity) == [20, 40, 60])
        for point in points {
            #expect(point.method == .simulated)
            #expect(point.hits == Self.replayed(trace, .lru, point.capacity, .bytes, .disk).hits)
        }
        // And in unit mode, where sizes do not count, the stack pass applies and agrees
        let unit = MissRatioCurve.compute(trace, .init(policies: [.lru], capacities: [1, 2, 3], sizeMode: .unit))
        for point in unit {
            #expect(point.method == .stackDistance)
            #expect(point.hits == Self.replayed(trace, .lru, point.capacity, .unit, .disk).hits)
        }
    }

    @Test func everyPolicyPointIsItsReplayWhateverTheWorkers() {
        // Given a sweep of three policies at five capacities
        let trace = SyntheticTrace.zipf(requests: 5_000, objects: 500, alpha: 0.9, seed: 9)
        let request = MissRatioCurve.Request(
            policies: [.arc, .lru, .sieve], capacities: [50, 100, 200, 300, 400], sizeMode: .unit)

        // When it runs on one worker and on four
        let serial = MissRatioCurve.compute(trace, request, workers: 1)
        let parallel = MissRatioCurve.compute(trace, request, workers: 4)

        // Then the results are the same, in policy order then capacity order, and each is the replay's
        #expect(serial == parallel)
        #expect(
            serial.map(\.policy) == Array(repeating: PolicyKind.arc, count: 5) + Array(repeating: .lru, count: 5)
                + Array(repeating: .sieve, count: 5))
        for point in serial where point.policy != .lru {
            #expect(point.hits == Self.replayed(trace, point.policy, point.capacity, .unit, .disk).hits)
        }
    }

    @Test(arguments: [1, 2])
    func progressFollowsTheOnePassThroughTheTrace(workers: Int) throws {
        // Given a 2,000-request trace and FIFO at three capacities beside LRU's stack pass
        let trace = SyntheticTrace.zipf(requests: 2_000, objects: 200, alpha: 0.9, seed: 1)
        let seen = ProgressLog()
        var request = MissRatioCurve.Request(policies: [.fifo, .lru], capacities: [10, 20, 30], sizeMode: .unit)
        request.sampleRate = nil

        // When the curves are computed in batches of 300 requests
        let cells = try request.sweep(TraceSource(trace)).cells.map { try $0.make(nil) }
        var plan = RunPlan(source: TraceSource(trace), cells: cells)
        plan.chunkCapacity = 300
        _ = try plan.execute(workers: workers, progress: { seen.record($0.requests, $0.total ?? -1) })

        // Then progress is every cell's requests so far over the cells, out of the whole trace,
        // rising to the whole trace: batch by batch on one worker; on two, as the first worker
        // sees it (which worker replays which cell is not fixed), and the whole at the end
        let done = seen.values.map(\.0)
        let batches = Array(stride(from: 300, to: 2_000, by: 300)) + [2_000]
        let replayed = (0..<cells.count).flatMap { cell in batches.map { cell * 2_000 + $0 } }
        if workers == 1 {
            #expect(done == replayed.map { $0 / cells.count } + [2_000])
        }
        #expect(zip(done, done.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(done.last == 2_000)
        #expect(seen.values.allSatisfy { $0.1 == 2_000 })
    }

    @Test func aFullSampleIsTheExactCurve() {
        let trace = Self.zipf
        let capacities = [10_000, 100_000, 1_000_000]
        let exact = MissRatioCurve.compute(trace, .init(policies: [.lru], capacities: capacities))
        let sampled = MissRatioCurve.compute(trace, .init(policies: [.lru], capacities: capacities, sampleRate: 1))
        #expect(exact == sampled)
    }

    @Test(arguments: [PolicyKind.lru, .s3fifo])
    func aTenPercentSampleStaysCloseToTheExactCurve(_ policy: PolicyKind) {
        // Given a 400,000-request Zipf trace over 100,000 objects
        let trace = SyntheticTrace.zipf(requests: 400_000, objects: 100_000, alpha: 0.9, seed: 5)
        let workingSet = TraceStatistics(trace).workingSetBytes
        let capacities = [1, 2, 5, 10, 20, 50].map { workingSet * $0 / 100 }

        // When the curve is computed exactly and from a sample of 10 % of the objects
        let exact = MissRatioCurve.compute(trace, .init(policies: [policy], capacities: capacities))
        let sampled = MissRatioCurve.compute(
            trace, .init(policies: [policy], capacities: capacities, sampleRate: 0.1))

        // Then the sampled miss ratios are within 0.05 of the exact ones (measured: at most 0.038, at the smallest capacity)
        for (exact, sampled) in zip(exact, sampled) {
            #expect(sampled.requests == exact.requests)
            #expect(abs(sampled.missRatio - exact.missRatio) < 0.05, "\(policy) at \(exact.capacity)")
        }
        #expect(sampled.allSatisfy { $0.method != .simulated && $0.method != .stackDistance })
    }

    @Test func aSampleKeepsAboutItsRateOfTheObjects() {
        let trace = Self.zipf
        let threshold = SpatialSample.threshold(rate: 0.2)
        let objects = Set(trace.keys)
        let kept = objects.filter { SpatialSample.contains($0, threshold: threshold) }
        // About a fifth of the objects, and a sample at a higher rate keeps them all
        let share = Double(kept.count) / Double(objects.count)
        #expect(share > 0.15 && share < 0.25)
        let wider = SpatialSample.threshold(rate: 0.5)
        #expect(kept.allSatisfy { SpatialSample.contains($0, threshold: wider) })
    }
}

/// Log-spaced capacities for the tests.
enum MRCCommandRange {
    static func logSpaced(from low: Int, to high: Int, points: Int) -> [Int] {
        (0..<points).map { index in
            Int(Double(low) * pow(Double(high) / Double(low), Double(index) / Double(points - 1)))
        }
    }
}

/// Progress calls, collected from whichever worker made them.
final class ProgressLog: Sendable {
    private let log = Locked<[(Int, Int)]>([])
    func record(_ finished: Int, _ total: Int) { log.withLock { $0.append((finished, total)) } }
    var values: [(Int, Int)] { log.withLock { $0 } }
}
