import CacheEngine
import ClientModel
import Testing

@testable import CacheLab

/// Adaptive W-TinyLFU's regions, duels, hill climber and sketch, on sequences worked out by hand
/// from Caffeine's rules (window 1 %, protected 80 % of the rest, 4-bit sketch behind a
/// doorkeeper, sample of 10 × the sketch's entries).
@Suite("Adaptive W-TinyLFU: weighted regions, duels, hill climber, doorkeeper")
struct AdaptiveWTinyLFUPolicyTests {
    typealias AdaptiveCache = Cache<UInt64, Void, AdaptiveWTinyLFUPolicy>

    func makeCache(capacity: Int, sizeMode: SizeMode = .unit) -> AdaptiveCache {
        Fixtures.makeCache(AdaptiveWTinyLFUPolicy.self, .wtinylfuAdaptive, capacity: capacity, sizeMode: sizeMode)
    }

    @Test func sharesAreCaffeinesTruncatedFractions() {
        let policy = AdaptiveWTinyLFUPolicy(configuration: CacheConfiguration(capacity: 1_000))
        #expect(policy.windowLimit == 10 && policy.protectedLimit == 792)
        #expect(policy.adaptiveLimit == 802)
        #expect(policy.stepSize == -62.5 && policy.adjustment == 0)
        let small = AdaptiveWTinyLFUPolicy(configuration: CacheConfiguration(capacity: 99))
        #expect(small.windowLimit == 1 && small.protectedLimit == 78)
        // A window of one byte in a 50-byte cache, and Caffeine's ceiling on huge capacities
        #expect(AdaptiveWTinyLFUPolicy(configuration: CacheConfiguration(capacity: 50)).windowLimit == 1)
        #expect(
            AdaptiveWTinyLFUPolicy(configuration: CacheConfiguration(capacity: .max)).capacity
                == Int.max - Int(Int32.max))
    }

    @Test func aOneHitWonderDoesNotDisplaceAFrequentEntry() {
        // Given 100 entries of room (window 1, protected 79): keys 1...99 used three times each,
        // 100 inserted once and left in the window
        let cache = makeCache(capacity: 100)
        cache.requests(1...100)
        for _ in 0..<3 { cache.requests(1...99) }
        #expect(cache.policy.regionKeys.window == [100])
        #expect(cache.policy.frequency(of: 5) >= 3)
        // When 500 keys come once each
        cache.requests(1_001...1_500)
        // Then each pushed the one before it out of the window into a duel it lost against a
        // frequent victim: the frequent keys all stayed
        #expect(Set(1...99).isSubset(of: Set(cache.storedKeys)))
        #expect(cache.policy.regionKeys.window == [1_500])
        #expect(cache.evictions == 500)
        #expect(cache.policy.frequency(of: 1_400) <= 2)
    }

    /// 875 bytes of a 1,000-byte cache (window 10, protected 792) in seven 125-byte entries: 1...3
    /// used again (protected), 4...7 in probation. The sketch was sized at the fourth (for 4
    /// entries: 8 words) and keeps its counts while 8 entries or fewer are held: 1...7 counted
    /// once each.
    func makeCacheOfLightEntries() -> AdaptiveCache {
        let cache = makeCache(capacity: 1_000, sizeMode: .bytes)
        cache.requests(1...7, size: 125)
        cache.requests(1...3, size: 125)
        #expect(cache.policy.regionKeys.window.isEmpty)
        #expect(cache.policy.regionKeys.probation == Array(4...7))
        #expect(cache.policy.regionKeys.protected == Array(1...3))
        #expect(cache.policy.frequencySketch.tableLength == 8 && cache.policy.frequencySketch.sampleSize == 40)
        return cache
    }

    @Test func anEntryHeavierThanTheWindowIsAdmittedOnlyWhenItOutcountsTheVictim() {
        let cache = makeCacheOfLightEntries()
        // When a 500-byte image (50 windows) is asked for the first time, it is probation's
        // first candidate and only ties with the victim (4): it loses, and evicts nothing
        #expect(!cache.request(900, size: 500))
        #expect(cache.policy.frequency(of: 900) == 1 && cache.policy.frequency(of: 4) == 1)
        #expect(!cache.storedKeys.contains(900) && cache.evictions == 0)
        // When it is asked for again, it outcounts the victim: in, at the cost of three light
        // victims, 4 in the duel and 5 and 6 without one (no candidate left)
        #expect(!cache.request(900, size: 500))
        #expect(cache.policy.frequency(of: 900) == 2)
        #expect(Set(cache.storedKeys) == [1, 2, 3, 7, 900])
        #expect(cache.evictions == 3 && cache.totalCost == 1_000)
        #expect(cache.policy.regionKeys.probation == [7, 900])
        // And it hits from there
        #expect(cache.request(900, size: 500))
    }

    @Test func aNewcomerThatLosesItsDuelIsNotStoredAndNothingMoreIsEvicted() {
        let cache = makeCacheOfLightEntries()
        let regions = cache.policy.regionKeys
        // When the heavy newcomer loses its duel, the engine's `evict()` got nil
        #expect(!cache.insertAfterMiss((), forKey: 900, size: 500, at: 0))
        cache.checkInvariants()
        // Then nothing was evicted and every entry kept its place
        #expect(cache.evictions == 0 && cache.totalCost == 875 && cache.count == 7)
        #expect(cache.policy.regionKeys == regions)
        // But the request was counted: it was seen once
        #expect(cache.policy.frequency(of: 900) == 1)
    }

    @Test func aWinningHeavyNewcomerMayCostSeveralLightVictims() {
        // Given eight 125-byte entries never used again: 1...3 came before the sketch was sized
        let cache = makeCache(capacity: 1_000, sizeMode: .bytes)
        cache.requests(1...8, size: 125)
        #expect(cache.policy.frequency(of: 1) == 0 && cache.policy.frequency(of: 4) == 1)
        // When a 500-byte image comes, it outcounts probation's oldest (1) at once
        cache.request(900, size: 500)
        // Then it is stored and the four oldest light ones made room, three without a duel
        #expect(Set(cache.storedKeys) == [5, 6, 7, 8, 900])
        #expect(cache.evictions == 4)
    }

    @Test func aWinnerTheVictimsReachAreEvictedAfterAllAsInCaffeine() {
        // Given a full cache with three entries left in probation: 10, never used again, and 1
        // and 2, which protected cooled back when 8 and 9 were promoted (the sketch started
        // over for 16 entries at the ninth: 1...8 count once, from their hits)
        let cache = makeCache(capacity: 1_000, sizeMode: .bytes)
        cache.requests(1...10, size: 100)
        cache.requests([1, 2, 3, 4, 5, 6, 7, 8, 9], size: 100)
        #expect(cache.policy.regionKeys.probation == [10, 1, 2])
        // When a 500-byte image outcounts the first victim (10), the second goes without a duel,
        // and then the victim cursor reaches the image itself, which is evicted (Caffeine evicts
        // the admitted candidate the same way): 3 evicted, the newcomer not stored
        cache.request(900, size: 500)
        #expect(!cache.request(900, size: 500))
        #expect(cache.evictions == 3)
        #expect(!cache.storedKeys.contains(900))
        #expect(cache.totalCost == 700)
    }

    @Test func anEntryLargerThanTheCapacityIsCountedButNotStored() {
        let cache = makeCache(capacity: 1_000, sizeMode: .bytes)
        cache.requests(1...3, size: 125)
        #expect(!cache.policy.frequencySketch.isInitialized)
        #expect(!cache.insertAfterMiss((), forKey: 77, size: 1_001, at: 0))
        cache.checkInvariants()
        // Half full with it: the sketch is sized and counts it (a first sighting: the doorkeeper)
        #expect(cache.policy.frequencySketch.isInitialized)
        #expect(cache.policy.frequency(of: 77) == 1)
        #expect(cache.evictions == 0 && cache.count == 3)
    }

    @Test func aHitInProbationPromotesUnlessHeavierThanProtected() {
        let cache = makeCache(capacity: 100)
        cache.requests(1...10)
        #expect(cache.policy.regionKeys.window == [10])
        #expect(cache.policy.regionKeys.probation == Array(1...9))
        #expect(cache.request(4))
        #expect(cache.policy.regionKeys.protected == [4])
        #expect(cache.request(10))
        #expect(cache.policy.regionKeys.window == [10])
        // In bytes: an entry heavier than protected's 792 only moves to probation's newest end
        let bytes = makeCache(capacity: 1_000, sizeMode: .bytes)
        bytes.requests([1, 2], size: 100)
        bytes.requests([3], size: 795)
        #expect(bytes.policy.regionKeys.probation == [1, 2, 3])
        #expect(bytes.request(3, size: 795) && bytes.request(1, size: 100))
        #expect(bytes.policy.regionKeys.probation == [2, 3] && bytes.policy.regionKeys.protected == [1])
    }

    @Test func theWindowGrowsOnARecencyTraceAndShrinksOnAFrequencyTrace() {
        // Given 200 entries of room: window 2, protected 158, steps of 12.5, samples of 2,000
        let cache = makeCache(capacity: 200)
        var random = SplitMix64(seed: 11)
        var limits: [Int] = []
        func replay(_ keys: [UInt64]) {
            for (index, key) in keys.enumerated() {
                if cache.value(forKey: key, at: 0) == nil { cache.insertAfterMiss((), forKey: key, size: 1, at: 0) }
                let policy = cache.policy
                // Then the climber only trades the window's share for protected's
                #expect(policy.windowLimit + policy.protectedLimit == policy.adaptiveLimit)
                if index % 2_000 == 0 {
                    cache.checkInvariants()
                    limits.append(policy.windowLimit)
                }
            }
            cache.checkInvariants()
        }
        // When every key comes twice, 1 to 24 requests apart (a loop a little larger than the
        // window): only a larger window catches the second use
        var recency: [UInt64] = []
        var next: UInt64 = 1
        var waiting: [(at: Int, key: UInt64)] = []
        while recency.count < 60_000 {
            if let due = waiting.firstIndex(where: { $0.at <= recency.count }) {
                recency.append(waiting.remove(at: due).key)
            } else {
                recency.append(next)
                waiting.append((recency.count + Int(random.next() % 24), next))
                next += 1
            }
        }
        replay(recency)
        let grown = cache.policy.windowLimit
        #expect(grown >= 24, "window \(grown); limits \(limits)")
        // When half the requests go to 150 hot keys and half to keys seen once: only a small
        // window leaves main room for the hot keys
        var frequency: [UInt64] = []
        while frequency.count < 80_000 {
            if random.next() % 2 == 0 {
                frequency.append(1_000_000 + random.next() % 150)
            } else {
                frequency.append(next)
                next += 1
            }
        }
        limits = []
        replay(frequency)
        let shrunk = cache.policy.windowLimit
        #expect(shrunk < grown / 2, "window \(shrunk) after \(grown); limits \(limits)")
    }

    @Test func theClimberMovesWholeEntriesAndCarriesTheRest() {
        // Given 1,000 bytes of 300-byte entries in a recency trace (steps of 62.5 bytes, smaller
        // than any entry): no step can move an entry, so the window keeps its share
        let cache = makeCache(capacity: 1_000, sizeMode: .bytes)
        for round in 0..<200 {
            for key in UInt64(1)...5 { cache.request(key + UInt64(round % 3) * 10, size: 300) }
        }
        #expect(cache.policy.windowLimit == 10)
        #expect(cache.policy.adjustment != 0, "the step is kept to be tried again")
        #expect(cache.policy.windowLimit + cache.policy.protectedLimit == cache.policy.adaptiveLimit)
    }

    @Test func theSameTraceGivesTheSameCountsTwice() {
        // Given a skewed trace where warm candidates (counted 6 or more) lose duels to warmer
        // victims and sometimes win by the 1/128 chance
        let trace = SyntheticTrace.zipf(requests: 60_000, objects: 3_000, alpha: 1.1, seed: 5)
        func run() -> (hits: Int, evictions: Int, jitter: Int, window: Int) {
            let cache = AdaptiveCache(configuration: CacheConfiguration(capacity: 150, sizeMode: .unit))
            var hits = 0
            for index in 0..<trace.count {
                if cache.value(forKey: trace.keys[index], at: 0) != nil {
                    hits += 1
                } else {
                    cache.insertAfterMiss((), forKey: trace.keys[index], size: trace.sizes[index], at: 0)
                }
            }
            cache.checkInvariants()
            return (hits, cache.evictions, cache.policy.jitterAdmissions, cache.policy.windowLimit)
        }
        let first = run()
        let second = run()
        // Then the chance was drawn from the cache's seeded stream: the same run twice
        #expect(first.jitter > 0)
        #expect(first == second)
        // And the registry's replay agrees with itself too
        let configuration = RunConfiguration(policy: .wtinylfuAdaptive, capacity: 150, sizeMode: .unit)
        #expect(Replay.simulate(trace, configuration) == Replay.simulate(trace, configuration))
    }

    @Test func theSketchIsSizedByTheEntriesHeldInBytesMode() {
        // Given 1 MB of 10 KB images: the sketch waits for half the bytes
        let cache = makeCache(capacity: 1_000_000, sizeMode: .bytes)
        cache.requests(1...49, size: 10_000)
        #expect(!cache.policy.frequencySketch.isInitialized)
        // Then it is sized for the 50 entries held, ten uses each per sample
        cache.request(50, size: 10_000)
        #expect(cache.policy.frequencySketch.tableLength == 64 && cache.policy.frequencySketch.sampleSize == 500)
        // And grows (starting over) once the entries outnumber its words
        cache.requests(51...64, size: 10_000)
        #expect(cache.policy.frequencySketch.tableLength == 64)
        cache.request(65, size: 10_000)
        #expect(cache.policy.frequencySketch.tableLength == 128 && cache.policy.frequencySketch.sampleSize == 650)
        // In unit mode it is sized by the capacity
        let unit = makeCache(capacity: 1_000)
        unit.requests(1...500)
        #expect(unit.policy.frequencySketch.tableLength == 1_024 && unit.policy.frequencySketch.sampleSize == 10_000)
    }

    @Test func tenKilobyteAndTwoMegabyteImagesShareOneCache() {
        // Given a 50 MB tier (window 500 KB) and a mix of thumbnails and 2 MB photos, some of
        // each asked for again and again
        let cache = makeCache(capacity: 50_000_000, sizeMode: .bytes)
        var random = SplitMix64(seed: 3)
        var photoHits = 0
        for _ in 0..<20_000 {
            let photo = random.next() % 4 == 0
            let key = photo ? 1_000_000 + random.next() % 40 : random.next() % 6_000
            let hit = cache.value(forKey: key, at: 0) != nil
            if !hit { cache.insertAfterMiss((), forKey: key, size: photo ? 2_000_000 : 10_000, at: 0) }
            if hit && photo { photoHits += 1 }
        }
        cache.checkInvariants()
        // Then 2 MB photos (4 windows each) are stored and hit, where libCacheSim's W-TinyLFU
        // stores nothing over its window
        #expect(photoHits > 1_000)
        #expect(cache.storedKeys.contains { $0 >= 1_000_000 })
        #expect(cache.totalCost <= 50_000_000)
    }

    @Test func trimsRunTheSameDuelsWithoutANewcomer() {
        let cache = makeCache(capacity: 100)
        cache.requests(1...100)
        for _ in 0..<2 { cache.requests(1...50) }
        cache.trim(toCost: 60)
        cache.checkInvariants()
        // The never-used ones went first: probation's victims (and the window's one-hit wonder,
        // which lost its duel), while those used again stayed
        #expect(cache.totalCost == 60)
        #expect(Set(1...50).isSubset(of: Set(cache.storedKeys)))
    }
}

@Suite("Caffeine's frequency sketch and the doorkeeper in front of it")
struct BlockFrequencySketchTests {
    @Test func isSizedAsCaffeineSizesIt() {
        var sketch = BlockFrequencySketch(doorkeeper: false)
        #expect(!sketch.isInitialized && sketch.frequency(1) == 0)
        sketch.increment(1)
        #expect(sketch.frequency(1) == 0, "nothing is counted before sizing")
        sketch.ensureCapacity(100)
        #expect(sketch.tableLength == 128 && sketch.sampleSize == 1_000)
        sketch.increment(1)
        sketch.ensureCapacity(50)
        #expect(sketch.tableLength == 128 && sketch.frequency(1) == 1, "a long enough table is kept")
        sketch.ensureCapacity(129)
        #expect(sketch.tableLength == 256 && sketch.sampleSize == 1_290 && sketch.frequency(1) == 0)
        var tiny = BlockFrequencySketch(doorkeeper: false)
        tiny.ensureCapacity(0)
        #expect(tiny.tableLength == 8 && tiny.sampleSize == 10)
    }

    @Test func hashesAsCaffeineDoes() {
        // Java's Long.hashCode, then the spread and rehash rounds (values from the formulas in
        // Java's 32-bit arithmetic)
        #expect(BlockFrequencySketch.javaHashCode(0x1_0000_0002) == 3)
        #expect(BlockFrequencySketch.spread(0) == 0)
        #expect(BlockFrequencySketch.spread(1) == 0xc0e9_b0e1)
        #expect(BlockFrequencySketch.rehash(1) == 0x3184_4db9)
    }

    @Test func countsSaturateAtFifteenAndHalveWithTheirOddHalvesLost() {
        var sketch = BlockFrequencySketch(doorkeeper: false)
        sketch.ensureCapacity(1_000)
        for _ in 0..<20 { sketch.increment(7) }
        #expect(sketch.frequency(7) == 15)
        #expect(sketch.size == 15, "a use that changes no counter is not sampled")
        sketch.halve()
        #expect(sketch.frequency(7) == 7)
        #expect(sketch.size == (15 - 1) / 2)
    }

    @Test func halvesAfterTenUsesPerEntry() {
        var sketch = BlockFrequencySketch(doorkeeper: false)
        sketch.ensureCapacity(64)
        var key: UInt64 = 0
        while sketch.halvings == 0, key < 10_000 {
            sketch.increment(key)
            key += 1
        }
        #expect(sketch.halvings == 1)
        #expect(key == 640)
    }

    @Test func theDoorkeeperKeepsFirstSightingsOutOfTheSketch() {
        var sketch = BlockFrequencySketch(doorkeeper: true)
        sketch.ensureCapacity(1_000)
        // Sized for 3,000 insertions at 1 %: 28,755 bits, 450 words, rounded up to 512
        #expect(sketch.doorkeeper?.wordCount == 512)
        // A first sighting reaches only the doorkeeper, and counts as one use
        sketch.increment(42)
        #expect(sketch.counted(42) == 0 && sketch.frequency(42) == 1 && sketch.size == 0)
        // A second reaches the counters
        sketch.increment(42)
        #expect(sketch.counted(42) == 1 && sketch.frequency(42) == 2 && sketch.size == 1)
        #expect(sketch.frequency(43) == 0)
        // The doorkeeper's one is added up to the counters' ceiling of 15
        for _ in 0..<20 { sketch.increment(42) }
        #expect(sketch.counted(42) == 15 && sketch.frequency(42) == 15)
    }

    @Test func theDoorkeeperIsClearedAtEveryHalving() {
        var sketch = BlockFrequencySketch(doorkeeper: true)
        sketch.ensureCapacity(100)
        for _ in 0..<6 { sketch.increment(7) }
        #expect(sketch.counted(7) == 5 && sketch.frequency(7) == 6)
        // When keys seen twice fill the sample (1,000 counted uses; first sightings mostly do not
        // count, the doorkeeper being sized for 300 keys)
        var uses = 0
        while sketch.halvings == 0 {
            sketch.increment(1_000 + UInt64(uses / 2))
            uses += 1
        }
        #expect(uses > 1_000 + 500)
        // Then the doorkeeper forgets everything, and key 7 counts only what its counters kept
        #expect(sketch.doorkeeper?.population == 0)
        let kept = sketch.counted(7)
        #expect(kept >= 2 && sketch.frequency(7) == kept)
        sketch.increment(7)
        #expect(sketch.counted(7) == kept && sketch.frequency(7) == kept + 1, "seen again: a first sighting")
    }

    @Test func theDoorkeeperHasNoFalseNegatives() {
        let doorkeeper = Doorkeeper(entries: 100)
        #expect(doorkeeper.wordCount == 64)
        for key in UInt64(0)..<300 { _ = doorkeeper.put(key * 7_919) }
        for key in UInt64(0)..<300 { #expect(doorkeeper.mightContain(key * 7_919)) }
        let strangers = (UInt64(1) << 40..<(UInt64(1) << 40) + 10_000).count { doorkeeper.mightContain($0) }
        // About 1 % nominal at 300 keys; with 4 probes, a few percent at most
        #expect(strangers < 500)
        doorkeeper.clear()
        #expect(doorkeeper.population == 0 && !doorkeeper.mightContain(0))
    }
}
