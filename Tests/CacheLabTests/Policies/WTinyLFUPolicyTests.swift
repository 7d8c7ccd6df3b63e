import CacheEngine
import ClientModel
import Testing

@testable import CacheLab

/// W-TinyLFU's window, segmented main and sketch, on sequences worked out by hand from
/// libCacheSim's `WTinyLFU` (window 1 %, main split 1:4 into probation and protected).
@Suite("W-TinyLFU: window, segmented main and frequency sketch")
struct WTinyLFUPolicyTests {
    func makeCache(capacity: Int, sizeMode: SizeMode = .unit) -> Cache<UInt64, Void, WTinyLFUPolicy> {
        Fixtures.makeCache(WTinyLFUPolicy.self, .wtinylfu, capacity: capacity, sizeMode: sizeMode)
    }

    @Test func sharesAreTruncatedFractionsOfTheCapacity() {
        let policy = WTinyLFUPolicy(configuration: CacheConfiguration(capacity: 1_000))
        #expect(policy.windowLimit == 10 && policy.mainLimit == 990)
        #expect(policy.probationLimit == 198 && policy.protectedLimit == 792)
        #expect(policy.decayPeriod == 32 * 990)
        let small = WTinyLFUPolicy(configuration: CacheConfiguration(capacity: 99))
        #expect(small.windowLimit == 0)
    }

    @Test func onlyEntriesThatFitTheWindowAreStored() {
        let cache = makeCache(capacity: 1_000, sizeMode: .bytes)
        #expect(!cache.insert((), forKey: 1, size: 11, at: 0))
        #expect(cache.insert((), forKey: 2, size: 10, at: 0))
        #expect(cache.storedKeys == [2])
        // Below 100 the window rounds to nothing and nothing is stored, as in libCacheSim
        let tiny = makeCache(capacity: 99)
        tiny.requests(1...5)
        #expect(tiny.count == 0)
    }

    @Test func theWindowTakesWhatMainLeavesAndSpillsIntoMainWithoutADuelWhileMainHasRoom() {
        // Given 100 entries of room: window 1, probation 19, protected 79
        let cache = makeCache(capacity: 100)
        cache.requests(1...100)
        #expect(cache.policy.segmentKeys.window == Array(1...100))
        // When 101 needs room, then the window's oldest move into main while it has room:
        // probation first, then protected, then (neither segment fitting, main still having
        // room) probation again; 100 (inserted once) then meets probation's oldest, 1 (inserted
        // and moved: two uses), and loses
        cache.request(101)
        #expect(!cache.storedKeys.contains(100))
        #expect(cache.policy.estimatedUses(of: 1) == 2)
        #expect(cache.policy.segmentKeys.window == [101])
        #expect(cache.policy.segmentKeys.probation == Array(1...19) + [99])
        #expect(cache.policy.segmentKeys.protected == Array(20...98))
        #expect(cache.evictions == 1 && cache.count == 100)
    }

    @Test func aWindowVictimUsedMoreThanMainsVictimTakesItsPlace() {
        let cache = makeCache(capacity: 100)
        cache.requests(1...101)  // window 101; probation 1...19, 99; protected 20...98
        // When 200 keeps coming back through the window, each insertion and each time it leaves
        // the window counting one use, until it outcounts probation's oldest (1: inserted once,
        // moved once)
        cache.requests([200, 300, 200, 301])
        #expect(cache.policy.estimatedUses(of: 200) > cache.policy.estimatedUses(of: 1))
        #expect(cache.policy.segmentKeys.window == [301])
        #expect(cache.policy.segmentKeys.probation.contains(200))
        #expect(!cache.storedKeys.contains(1))
    }

    @Test func aHitInProbationPromotesAndProtectedCoolsItsOldestBackToProbation() {
        let cache = makeCache(capacity: 100)
        cache.requests(1...101)  // protected is full (79)
        // When 5, in probation, is hit, then it moves to protected, whose oldest (20) goes back
        // to probation's newest end; probation, one over its share since 99 fell back into it,
        // then drops its oldest (1): an eviction on a hit, as in libCacheSim's SLRU
        #expect(cache.request(5))
        #expect(cache.policy.segmentKeys.protected == Array(21...98) + [5])
        #expect(cache.policy.segmentKeys.probation == [2, 3, 4] + Array(6...19) + [99, 20])
        #expect(cache.evictions == 2 && cache.count == 99)
        // And a hit in the window only refreshes it there
        #expect(cache.request(101))
        #expect(cache.policy.segmentKeys.window == [101])
    }

    @Test func hitsInMainAreCountedAndTheSketchIsHalvedAfter32TimesMainsCapacity() {
        let cache = makeCache(capacity: 100)
        cache.requests(1...101)
        let before = cache.policy.estimatedUses(of: 30)
        cache.requests([30, 30, 30])  // protected hits
        #expect(cache.policy.estimatedUses(of: 30) == before + 3)
        // 32 × 99 hits in main halve every counter
        let counted = cache.policy.estimatedUses(of: 30)
        cache.requests(Array(repeating: 31, count: 32 * 99 - 3))
        #expect(cache.policy.estimatedUses(of: 30) == counted / 2)
    }

    @Test func inByteModeAnOverflowingProbationEvictsOnAHitAndEveryVictimIsHandedOver() {
        // Given byte sizes that leave probation full when protected cools a bigger entry into it
        let cache = makeCache(capacity: 1_000, sizeMode: .bytes)
        var random = SplitMix64(seed: 9)
        var evictedOnHits = 0
        for _ in 0..<5_000 {
            let key = random.next() % 400
            let before = cache.evictions
            if cache.request(key, size: 1 + Int(key % 10)) { evictedOnHits += cache.evictions - before }
        }
        // Then some hits did evict, and the engine and the policy agree after every request
        #expect(evictedOnHits > 0)
        #expect(cache.totalCost <= 1_000)
    }

    @Test func theSketchHashesAsLibCacheSimDoes() {
        // XXH64 of the key's 8 little-endian bytes, from the Python xxhash package
        #expect(FrequencySketch.xxh64(0, seed: 0x1234_5678) == 7_474_699_180_120_069_235)
        #expect(FrequencySketch.xxh64(42, seed: 0x1234_4321) == 14_585_895_858_894_559_368)
        #expect(FrequencySketch.xxh64(123_456_789, seed: 0x1234_5678) == 1_125_892_363_747_162_918)
        #expect(FrequencySketch.xxh64(9_223_372_036_854_775_813, seed: 0x1234_4321) == 2_539_297_574_224_070_758)
        // Sized as libCacheSim sizes it: 14.4 counters per entry, 10 per key, at least 20
        let sketch = FrequencySketch(entries: 99)
        #expect(sketch.width == 1_424 && sketch.hashCount == 10)
        #expect(FrequencySketch(entries: 0).width == 20)
        #expect(FrequencySketch(entries: 10_000_000, maximumWidth: 1 << 20).width == 1 << 20)
        #expect(WTinyLFUPolicy.maximumSketchWidth == 1 << 20)
    }

    @Test func theSketchCountsHalvesAndResets() {
        let sketch = FrequencySketch(entries: 1_000)
        for _ in 0..<5 { sketch.add(77) }
        #expect(sketch.estimate(77) == 5)
        #expect(sketch.estimate(78) == 0)
        sketch.halve()
        #expect(sketch.estimate(77) == 2)
        sketch.reset()
        #expect(sketch.estimate(77) == 0)
    }

    @Test(arguments: [10, 400, 5_000])
    func aResetZeroesEveryCounterWhetherItNotedTheKeysOrNot(keys: Int) {
        // Given a sketch of about 14,400 counters, which notes up to a tenth of a counter per
        // counter's worth of keys (179) counted since a reset, counting `keys` keys (some of them
        // twice) and halved once in between
        let sketch = FrequencySketch(entries: 1_000)
        #expect(sketch.added.limit == sketch.width / 80 && sketch.added.limit > 10 && sketch.added.limit < 400)
        for round in 0..<3 {
            var random = SplitMix64(seed: UInt64(round))
            for step in 0..<keys {
                sketch.add(random.next() % UInt64(keys * 2))
                if step == keys / 2 { sketch.halve() }
            }
            #expect(sketch.added.overflowed == (keys > sketch.added.limit))
            #expect((0..<sketch.width).contains { sketch.counters[$0] != 0 })

            // When it is reset, noted or not, then every counter is zero
            sketch.reset()
            #expect((0..<sketch.width).allSatisfy { sketch.counters[$0] == 0 })
            #expect(!sketch.added.overflowed && sketch.added.count == 0)
        }
    }
}
