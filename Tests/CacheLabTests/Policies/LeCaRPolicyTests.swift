import CacheEngine
import Testing

@testable import CacheLab

/// LeCaR's choices on hand-made traces, worked out from libCacheSim's rules and checked against
/// the Python model that reproduces its `LeCaR`. libCacheSim's generator from its seed draws
/// 97, 82, 21, 32 … (mod 100) first: the first disagreements go to LFU.
@Suite("LeCaR: LRU or LFU, weighted by ghost hits")
struct LeCaRPolicyTests {
    func makeCache(capacity: Int, sizeMode: SizeMode = .unit) -> Cache<UInt64, Void, LeCaRPolicy> {
        Fixtures.makeCache(LeCaRPolicy.self, .lecar, capacity: capacity, sizeMode: sizeMode)
    }

    /// The keys remembered as ghosts of LRU and of LFU, oldest first, and how many ghosts there
    /// are in all (the policy numbers them, the cache's index keeps their keys).
    func ghosts(_ cache: Cache<UInt64, Void, LeCaRPolicy>) -> (lru: [UInt64], lfu: [UInt64], all: Int) {
        let records = cache.policy.ghostRecords
        return (cache.ghostKeys(records.lru), cache.ghostKeys(records.lfu), records.all)
    }

    @Test func whenBothExpertsNameTheSameEntryItGoesWithoutADrawAndIsNotRemembered() {
        // Given 1 and 2 used once each: 1 is both the least recent and the oldest of frequency 1
        let cache = makeCache(capacity: 2)
        cache.replay([1, 2, 3])
        #expect(Set(cache.storedKeys) == [2, 3])
        // Then 1 is not remembered at all (libCacheSim keeps it as a ghost of neither expert,
        // which changes nothing when 1 comes again), and no weight moved
        #expect(ghosts(cache).lru.isEmpty && ghosts(cache).lfu.isEmpty)
        #expect(ghosts(cache).all == 0)
        #expect(cache.policy.weightLRU == 0.5 && cache.policy.weightLFU == 0.5)
        // When 2 is hit and 4 comes, then 3 is both candidates again; and when 5 comes, LRU's
        // candidate 2 and LFU's 4 differ: the first draw (0.97, nothing drawn before) picks 4
        cache.replay([2, 4, 5])
        #expect(Set(cache.storedKeys) == [2, 5])
        #expect(ghosts(cache).lfu == [4])
    }

    @Test func aDisagreementIsSettledByADrawAgainstLRUsWeight() throws {
        // Given 1 used twice (least recent) and 2 once (lowest frequency)
        let cache = makeCache(capacity: 2)
        let hits = cache.replay([1, 1, 2, 3])
        #expect(hits == [false, true, false, false])
        // Then the draw, 0.97, is not under LRU's weight 0.5: LFU's candidate 2 goes
        #expect(Set(cache.storedKeys) == [1, 3])
        #expect(ghosts(cache).lfu == [2])
        let one = try #require(cache.slot(forKey: 1))
        #expect(cache.policy.frequency(of: one) == 2)
    }

    @Test func aMissOnAGhostLowersTheWeightOfTheExpertThatEvictedIt() {
        // Given 2 evicted by LFU at request 4, then requested at request 5
        let cache = makeCache(capacity: 2)
        cache.replay([1, 1, 2, 3, 2])
        // Then LFU's weight fell: 0.5 × exp(−0.45 × 0.005^(1/2)) + 1e-10, both normalized
        #expect(cache.policy.weightLRU == 0.507954280104066)
        #expect(cache.policy.weightLFU == 0.49204571979434314)
        // And 2's return evicted again by LFU (draw 0.82): 3, whose key is now LFU's ghost
        #expect(Set(cache.storedKeys) == [1, 2])
        #expect(ghosts(cache).lfu == [3])
        #expect(ghosts(cache).all == 1)
    }

    @Test func aGhostLivesInTheCachesIndexButIsNoEntry() {
        // Given 2 evicted by LFU: its key stays in the cache's index as LFU's ghost
        let cache = makeCache(capacity: 2)
        cache.replay([1, 1, 2, 3])
        #expect(ghosts(cache).lfu == [2])
        // Then no lookup takes it for an entry, and none forgets it
        #expect(cache.count == 2 && !cache.contains(2) && cache.cost(forKey: 2) == nil)
        #expect(cache.value(forKey: 2, at: 0) == nil && cache.removeValue(forKey: 2) == nil)
        #expect(ghosts(cache).lfu == [2])
        // When the client stores 2 again, the ghost returns as on the replayed miss above
        cache.insert((), forKey: 2, size: 1, at: 0)
        #expect(cache.policy.weightLFU == 0.49204571979434314)
        #expect(Set(cache.storedKeys) == [1, 2] && ghosts(cache).lfu == [3])
        cache.checkInvariants()
        // And removeAll forgets the ghosts with the entries
        cache.removeAll()
        #expect(cache.count == 0 && ghosts(cache).all == 0 && !cache.contains(3))
        cache.checkInvariants()
    }

    @Test func aLongerTraceEndsWithLibCacheSimsEntriesWeightsAndGhosts() {
        let cache = makeCache(capacity: 3)
        let hits = cache.replay([1, 1, 2, 3, 2, 4, 1, 5, 3, 3, 6, 2, 1, 7])
        #expect(
            hits == [
                false, true, false, false, true, false, true, false, false, true, false, false, false, false,
            ])
        #expect(Set(cache.storedKeys) == [1, 3, 7])
        #expect(cache.policy.weightLRU == 0.4967105274552907)
        #expect(cache.policy.weightLFU == 0.5032894724440513)
        #expect(ghosts(cache).lru.isEmpty && ghosts(cache).lfu == [2])
        #expect(ghosts(cache).all == 1)  // 5, which both experts chose, is not remembered
    }

    @Test func theGhostFIFOsHoldHalfTheCapacityInCost() {
        // Given 100 bytes and entries of 30 (two ghosts of 30 would pass 50)
        let cache = makeCache(capacity: 100, sizeMode: .bytes)
        cache.replay([1, 1, 2, 2, 2, 3, 4, 5, 6, 7, 8], sizes: Array(repeating: 30, count: 11))
        // Then each ghost FIFO keeps only its newest key (the invariant check after every
        // request bounds them too); the victim both experts chose is not remembered
        #expect(Set(cache.storedKeys) == [6, 7, 8])
        #expect(ghosts(cache).lru == [2] && ghosts(cache).lfu == [4])
        #expect(ghosts(cache).all == 2)
    }
}
