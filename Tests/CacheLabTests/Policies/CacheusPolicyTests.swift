import CacheEngine
import Testing

@testable import CacheLab

/// Cacheus's queues, history, ghosts and learning on hand-made traces, worked out from
/// libCacheSim's rules and checked against the Python model that reproduces its `Cacheus`. With
/// 4 places in unit mode, SR and R get 2 each and the history H 4.
@Suite("Cacheus: SR-LRU and CR-LFU, weighted by ghost hits")
struct CacheusPolicyTests {
    func makeCache(capacity: Int, sizeMode: SizeMode = .unit) -> Cache<UInt64, Void, CacheusPolicy> {
        Fixtures.makeCache(CacheusPolicy.self, .cacheus, capacity: capacity, sizeMode: sizeMode)
    }

    @Test func theFirstLearningRateIsDrawnWhenTheCacheIsMade() {
        // libCacheSim's first draw from its seed is 3,189,820,697: 0.001 + 697 / 1000
        #expect(makeCache(capacity: 4).policy.learningRate == 0.698)
    }

    @Test func newEntriesFillSRAndTheOldestMovesToTheHistory() {
        // Given three new entries and SR's two places
        let cache = makeCache(capacity: 4)
        cache.replay([1, 2, 3])
        // Then 1 left SR for H as 3 came: the cache dropped it, though half of it is free
        #expect(cache.policy.queueKeys.sr == [2, 3] && cache.policy.queueKeys.r.isEmpty)
        #expect(cache.policy.rememberedKeys.history == [1])
        #expect(cache.count == 2 && cache.evictions == 1)
    }

    @Test func aHitInSRMovesTheEntryToR() throws {
        let cache = makeCache(capacity: 4)
        let hits = cache.replay([1, 2, 3, 2])
        #expect(hits == [false, false, false, true])
        #expect(cache.policy.queueKeys.sr == [3] && cache.policy.queueKeys.r == [2])
        let two = try #require(cache.slot(forKey: 2))
        #expect(cache.policy.frequency(of: two) == 2)
    }

    @Test func aKeyBackFromTheHistoryEntersRAndResumesItsCount() throws {
        // Given 1 dropped to H with count 1
        let cache = makeCache(capacity: 4)
        cache.replay([1, 2, 3, 2, 1])
        // Then it returns to R with count 2, and H forgets it; SR's share stays 2 (the stored
        // entries less one)
        #expect(cache.policy.queueKeys.r == [2, 1] && cache.policy.queueKeys.sr == [3])
        #expect(cache.policy.rememberedKeys.history.isEmpty)
        let one = try #require(cache.slot(forKey: 1))
        #expect(cache.policy.frequency(of: one) == 2)
        #expect(cache.policy.srCapacity == 2 && cache.policy.rCapacity == 2)
        // And the rate moved after request 4 (every 4 requests): 0.698 − 0.698² (no hit rate
        // gained, as libCacheSim divides the hits by 4 in integers)
        #expect(cache.policy.learningRate == 0.21079600000000004)
    }

    @Test func aLongerTraceEndsWithLibCacheSimsQueuesGhostsAndWeights() {
        let cache = makeCache(capacity: 4)
        let hits = cache.replay([1, 2, 3, 2, 1, 4, 5, 6, 1, 7, 2, 8, 3])
        #expect(
            hits == [false, false, false, true, false, false, false, false, true, false, true, false, false])
        #expect(cache.policy.queueKeys.sr == [6, 3] && cache.policy.queueKeys.r == [1, 2])
        let remembered = cache.policy.rememberedKeys
        #expect(remembered.history == [5, 7, 8])
        #expect(remembered.lruGhosts == [5] && remembered.lfuGhosts == [7, 8])
        #expect(cache.policy.weightLRU == 0.47577052183482926)
        #expect(cache.policy.weightLFU == 0.5242294781651707)
        #expect(cache.policy.learningRate == 0.0969938828853722)
        #expect(cache.policy.newCount == 6 && cache.policy.demotedCount == 0)
    }

    @Test func aNewEntryBiggerThanSRsShareMakesRoomAndIsNotStored() {
        // Given 100 bytes holding 2 (40 bytes; 1 went to H as 2 came)
        let cache = makeCache(capacity: 100, sizeMode: .bytes)
        cache.replay([1, 2], sizes: [40, 40])
        #expect(cache.storedKeys == [2])
        // When 70 bytes arrive: SR's share is 50, checked after the eviction made for them
        cache.replay([3], sizes: [70])
        // Then 2 was evicted and 3 is not stored, as libCacheSim does
        #expect(cache.storedKeys.isEmpty && cache.evictions == 2)
        #expect(cache.policy.rememberedKeys.history == [1, 2])
        #expect(CacheusPolicy.mayDeclineNewEntries)
        // And 1, back from H, enters R; SR's share becomes what is stored less one
        cache.replay([1], sizes: [40])
        #expect(cache.policy.queueKeys.r == [1])
        #expect(cache.policy.srCapacity == 39 && cache.policy.rCapacity == 61)
    }
}
