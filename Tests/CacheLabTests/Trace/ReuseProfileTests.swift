import CacheLabTestSupport
import ClientModel
import Testing

@testable import CacheLab

/// Reuse distances by hand on small traces, against a brute-force count on random ones, and
/// against the LRU simulator: the profile's hit ratio for every capacity must be the replay's.
@Suite("reuse profile")
struct ReuseProfileTests {
    /// A trace of one request per letter; each letter is an object whose size is `sizes[letter]`,
    /// or 1.
    static func makeTrace(_ letters: String, sizes: [Character: Int] = [:]) -> Trace {
        var trace = Trace(name: letters)
        for (position, letter) in letters.enumerated() {
            trace.append(
                time: Int64(position), key: UInt64(letter.asciiValue!), size: sizes[letter] ?? 1)
        }
        return trace
    }

    /// Every re-reference's object distance, counted the slow way: distinct keys since the
    /// previous request for the same key.
    static func bruteForceDistances(_ trace: Trace) -> [Int] {
        var distances: [Int] = []
        for position in 0..<trace.count {
            guard let previous = trace.keys[..<position].lastIndex(of: trace.keys[position]) else { continue }
            distances.append(Set(trace.keys[(previous + 1)..<position]).count)
        }
        return distances
    }

    // MARK: Distances by hand

    @Test func theSameObjectTwiceInARowHasDistanceZero() {
        // Given a a
        let profile = ReuseProfile(Self.makeTrace("aa"))

        // Then one cold request and one re-reference at distance 0
        #expect(profile.coldRequests == 1 && profile.reReferences == 1)
        #expect(profile.reReferences(atDistance: 0) == 1)
        #expect(profile.totalObjectDistance == 0)
    }

    @Test func distanceCountsTheDistinctObjectsInBetween() {
        // Given a b c a
        let profile = ReuseProfile(Self.makeTrace("abca"))

        // Then the second a has distance 2
        #expect(profile.coldRequests == 3 && profile.reReferences == 1)
        #expect(profile.reReferences(atDistance: 2) == 1)
        #expect(profile.totalObjectDistance == 2)
    }

    @Test func alternatingObjectsHaveDistanceOne() {
        // Given a b a b
        let profile = ReuseProfile(Self.makeTrace("abab"))

        // Then both re-references have distance 1
        #expect(profile.reReferences == 2)
        #expect(profile.reReferences(atDistance: 1) == 2)
        #expect(profile.meanObjectDistance == 1)
    }

    @Test func anObjectRequestedSeveralTimesInBetweenCountsOnce() {
        // Given a b c b a d a with sizes a 10, b 20, c 30, d 40
        let trace = Self.makeTrace("abcbada", sizes: ["a": 10, "b": 20, "c": 30, "d": 40])

        // When it is profiled
        let profile = ReuseProfile(trace)

        // Then the distances are b: 1 (c), a: 2 (b twice, c), a: 1 (d)
        #expect(profile.reReferences == 3)
        #expect(profile.reReferences(atDistance: 1) == 2)
        #expect(profile.reReferences(atDistance: 2) == 1)
        #expect(profile.totalObjectDistance == 4)
        // And in bytes: 30, 20 + 30, 40; each plus its own size: 50, 60, 50
        #expect(profile.totalByteDistance == 120)
        #expect(profile.byteDemands == [50, 60, 50])
        #expect(profile.lruHitRatio(capacityBytes: 49) == 0)
        #expect(profile.lruHitRatio(capacityBytes: 50) == 2.0 / 7)
        #expect(profile.lruHitRatio(capacityBytes: 60) == 3.0 / 7)
    }

    @Test func byteDistanceUsesTheSizeOfEachObjectsLatestRequest() {
        // Given a b b a where b's second request is larger
        var trace = Trace(name: "resized")
        for (key, size) in [(1, 10), (2, 20), (2, 25), (1, 10)] {
            trace.append(time: 0, key: UInt64(key), size: size)
        }

        // When it is profiled
        let profile = ReuseProfile(trace)

        // Then a's byte distance counts b once, at 25 bytes
        #expect(profile.totalByteDistance == 25)
        #expect(profile.byteDemands == [25, 35])
    }

    @Test func matchesABruteForceCountOnRandomTraces() {
        var random = SplitMix64(seed: 42)
        for _ in 0..<20 {
            // Given a random trace over a few objects
            var trace = Trace(name: "random")
            let objects = 1 + Int(random.next() % 12)
            for _ in 0..<(Int(random.next() % 200)) {
                trace.append(time: 0, key: random.next() % UInt64(objects), size: 1)
            }

            // When it is profiled
            let profile = ReuseProfile(trace)

            // Then every distance's count is the slow count's
            let expected = Self.bruteForceDistances(trace)
            #expect(profile.reReferences == expected.count)
            #expect(profile.totalObjectDistance == expected.reduce(0, +))
            for distance in 0..<objects {
                #expect(profile.reReferences(atDistance: distance) == expected.count { $0 == distance })
            }
            // And with every size 1 a byte distance is the object distance
            #expect(profile.byteDemands == expected.map { $0 + 1 })
        }
    }

    // MARK: Percentiles, mean and histogram

    @Test func percentilesAreNearestRank() {
        // Given nine re-references at distance 0 and one at distance 5
        let profile = ReuseProfile(Self.makeTrace("aaaaaaaaaa" + "bcdefgb"))
        #expect(profile.reReferences == 10)

        // Then p50 and p90 are 0, p99 and p100 are 5, and the mean is 0.5
        #expect(profile.objectDistance(atPercentile: 0) == 0)
        #expect(profile.objectDistance(atPercentile: 50) == 0)
        #expect(profile.objectDistance(atPercentile: 90) == 0)
        #expect(profile.objectDistance(atPercentile: 99) == 5)
        #expect(profile.objectDistance(atPercentile: 100) == 5)
        #expect(profile.meanObjectDistance == 0.5)
    }

    @Test func histogramBucketsArePowersOfTwo() {
        // Given distances 0 (nine times) and 5
        let profile = ReuseProfile(Self.makeTrace("aaaaaaaaaa" + "bcdefgb"))

        // Then the buckets are 0, 1, 2-3, 4-7, ending at the largest distance's
        #expect(
            profile.histogram == [
                .init(lowerBound: 0, upperBound: 0, count: 9),
                .init(lowerBound: 1, upperBound: 1, count: 0),
                .init(lowerBound: 2, upperBound: 3, count: 0),
                .init(lowerBound: 4, upperBound: 7, count: 1),
            ])
    }

    // MARK: One-hit wonders

    @Test func oneHitWondersAreObjectsRequestedExactlyOnce() {
        // Given a b a c d a b: a three times, b twice, c and d once
        let profile = ReuseProfile(Self.makeTrace("abacdab"))

        // Then two of four objects are one-hit wonders, and they have two of seven requests
        #expect(profile.oneHitWonders == 2)
        #expect(profile.oneHitWonderRatio == 0.5)
        #expect(profile.oneHitWonderRequestShare == 2.0 / 7)
    }

    // MARK: Edge cases

    @Test func anEmptyTraceHasNoDistances() {
        // Given a trace with no request
        let profile = ReuseProfile(Trace(name: "empty"))

        // Then everything is zero or absent
        #expect(profile.requests == 0 && profile.uniqueObjects == 0 && profile.reReferences == 0)
        #expect(profile.oneHitWonders == 0 && profile.oneHitWonderRatio == 0 && profile.oneHitWonderRequestShare == 0)
        #expect(profile.objectDistance(atPercentile: 50) == nil)
        #expect(profile.meanObjectDistance == nil && profile.meanByteDistance == nil)
        #expect(profile.histogram.isEmpty)
        #expect(profile.lruHitRatio(capacityObjects: 10) == 0)
        #expect(profile.lruHitRatio(capacityBytes: 10) == 0)
    }

    @Test func aTraceWithoutReReferencesIsAllOneHitWonders() {
        let profile = ReuseProfile(Self.makeTrace("abcd"))
        #expect(profile.reReferences == 0 && profile.oneHitWonderRatio == 1)
        #expect(profile.objectDistance(atPercentile: 99) == nil && profile.histogram.isEmpty)
        #expect(profile.lruHitRatio(capacityObjects: 4) == 0)
    }

    // MARK: LRU equivalence

    static let equivalenceTraces: [@Sendable () -> Trace] = [
        { SyntheticTrace.zipf(requests: 20_000, objects: 1_000, alpha: 0.9, seed: 1) },
        { SyntheticTrace.zipf(requests: 20_000, objects: 5_000, alpha: 0.6, seed: 2) },
        { SyntheticTrace.zipf(requests: 5_000, objects: 50, alpha: 1.2, seed: 3) },
        { ScrollScenario.named("daily-reader", seed: 1)!.makeTrace() },
        { ScrollScenario.named("daily-reader", seed: 7)!.makeTrace() },
    ]

    @Test(arguments: 0..<equivalenceTraces.count)
    func unitModeLRUHitRatioIsTheReplays(traceNumber: Int) {
        // Given a trace and its profile
        let trace = Self.equivalenceTraces[traceNumber]()
        let profile = ReuseProfile(trace)
        let unique = profile.uniqueObjects

        // Then at every capacity the profile's LRU hit ratio is the simulator's, exactly
        let capacities = [
            1, 2, 3, 5, 10, unique / 100, unique / 10, unique / 4, unique / 2, unique - 1, unique, unique + 1,
        ]
        for capacity in Set(capacities.filter { $0 >= 1 }).sorted() {
            let replayed = Replay.simulate(
                trace, RunConfiguration(policy: .lru, capacity: capacity, sizeMode: .unit), latency: false)
            #expect(
                profile.lruHitRatio(capacityObjects: capacity) == replayed.hitRatio,
                "\(trace.name) at \(capacity) objects")
        }
    }

    @Test(arguments: 0..<equivalenceTraces.count)
    func byteModeLRUHitRatioIsTheReplaysWhenEveryObjectFits(traceNumber: Int) throws {
        // Given a trace whose objects keep one size each, and its profile
        let trace = Self.equivalenceTraces[traceNumber]()
        var sizes: [UInt64: Int] = [:]
        for position in 0..<trace.count {
            let size = trace.sizes[position]
            let first = sizes[trace.keys[position]] ?? size
            sizes[trace.keys[position]] = first
            try #require(first == size, "\(trace.name): object \(trace.keys[position]) changes size")
        }
        let profile = ReuseProfile(trace)
        let largest = trace.sizes.max()!
        let workingSet = TraceStatistics(trace).workingSetBytes

        // Then at every capacity that fits the largest object the hit ratios agree exactly
        let capacities = [
            largest, largest + 1, 2 * largest, workingSet / 20, workingSet / 10, workingSet / 4, workingSet / 2,
            workingSet,
        ]
        for capacity in Set(capacities.filter { $0 >= largest }).sorted() {
            let replayed = Replay.simulate(
                trace, RunConfiguration(policy: .lru, capacity: capacity, sizeMode: .bytes), latency: false)
            #expect(
                profile.lruHitRatio(capacityBytes: capacity) == replayed.hitRatio, "\(trace.name) at \(capacity) bytes")
        }
    }

    @Test(.enabled(if: SharedFixtures.tracesAvailable))
    func unitModeLRUMissCountsAreLibCacheSimsOnCloudPhysicsIO() throws {
        // Given libCacheSim's LRU miss counts in unit mode at 1%, 5% and 10% of the unique objects
        // (the golden counts)
        let path = try #require(SharedFixtures.trace("cloudPhysicsIO.oracleGeneral.bin"))
        let profile = ReuseProfile(try TraceReader.read(path: path))
        #expect(profile.requests == 113_872)

        // Then the profile's hit ratio at each capacity gives the same misses
        for (capacity, misses) in [(489, 95_420), (2_448, 93_897), (4_897, 91_657)] {
            #expect(profile.lruHitRatio(capacityObjects: capacity) == Double(113_872 - misses) / 113_872)
        }
    }
}
