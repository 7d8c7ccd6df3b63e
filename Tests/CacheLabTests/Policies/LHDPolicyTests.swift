import CacheEngine
import Testing

@testable import CacheLab

/// LHD's choices on hand-made traces, worked out from libCacheSim's rules and checked against the
/// Python model that reproduces its `LHD` (8 samples by tag index, the last newcomers below the
/// average victim, single-precision densities).
@Suite("LHD: lowest hit density")
struct LHDPolicyTests {
    func makeCache(capacity: Int, sizeMode: SizeMode = .unit) -> Cache<UInt64, Void, LHDPolicy> {
        Fixtures.makeCache(LHDPolicy.self, .lhd, capacity: capacity, sizeMode: sizeMode)
    }

    @Test func anEvictedTagsPlaceGoesToTheLastTag() {
        // Given ten entries in ten places, in arrival order
        let cache = makeCache(capacity: 10)
        cache.replay(Array(1...10))
        #expect(cache.policy.tagKeys == Array(1...10))
        // When 11 comes, then the draws pick 4, whose place the last tag (10) takes, and 11 is
        // added at the end; the average victim density starts from 4's
        cache.request(11)
        #expect(cache.policy.tagKeys == [1, 2, 3, 10, 5, 6, 7, 8, 9, 11])
        #expect(cache.policy.averageVictimDensity == 1.7000004)
    }

    @Test func aNewcomerBelowTheAverageVictimIsWeighedAtTheNextEviction() {
        // Given twelve entries of one byte through ten bytes, then 20 of five bytes: its density
        // (17 / 5, new) is below the average victim's, so it is remembered
        let cache = makeCache(capacity: 10, sizeMode: .bytes)
        cache.replay(Array(1...12) + [20], sizes: Array(repeating: 1, count: 12) + [5])
        #expect(cache.policy.tagKeys == [11, 9, 12, 10, 5, 20])
        #expect(cache.policy.newcomerKeys == [20])
        // When 13 needs a byte, then 20 goes, the lowest of the samples and the newcomers
        cache.replay([13])
        #expect(cache.policy.tagKeys == [11, 9, 12, 10, 5, 13])
        #expect(cache.totalCost == 6)
    }

    @Test func aHitTakesTheRequestsSizeAndTheNextMissMakesRoomForIt() {
        // Given 1 and 2 of 30 bytes in 100
        let cache = makeCache(capacity: 100, sizeMode: .bytes)
        cache.replay([1, 2], sizes: [30, 30])
        // When 1 is hit by a request of 60 bytes, then it costs 60 from now on, as libCacheSim's
        // LHD takes the request's size
        #expect(cache.value(forKey: 1, size: 60, at: 0) != nil)
        #expect(cache.totalCost == 90 && cache.cost(forKey: 1) == 60)
        // When 3 (20 bytes) comes, then room is made for it at the new size: 1 goes
        cache.replay([3], sizes: [20])
        #expect(Set(cache.storedKeys) == [2, 3])
        #expect(cache.totalCost == 50)
        #expect(LHDPolicy.resizesOnHit && PolicyKind.lhd.resizesOnHit)
    }

    @Test func aHitThatGrowsAnEntryMayLeaveTheCacheOverCapacityUntilTheNextMiss() {
        let cache = makeCache(capacity: 100, sizeMode: .bytes)
        cache.replay([1, 2], sizes: [50, 50])
        #expect(cache.value(forKey: 2, size: 80, at: 0) != nil)
        #expect(cache.totalCost == 130)
        cache.checkInvariants()
        cache.replay([3], sizes: [10])
        #expect(cache.totalCost == 90 && Set(cache.storedKeys) == [2, 3])
    }

    @Test func aLookupWithoutASizeKeepsTheStoredOne() {
        // A client's tier does not know the size before the bytes come: the cost stays
        let cache = makeCache(capacity: 100, sizeMode: .bytes)
        cache.replay([1], sizes: [30])
        #expect(cache.value(forKey: 1, at: 0) != nil)
        #expect(cache.totalCost == 30)
    }

    @Test func theExplorerBudgetIsOnePercentOfTheCapacity() {
        #expect(makeCache(capacity: 100, sizeMode: .bytes).policy.explorerBudget == 1)
        #expect(makeCache(capacity: 2_029_769_728, sizeMode: .bytes).policy.explorerBudget == 20_297_696)
    }
}
