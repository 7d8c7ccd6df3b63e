import CacheEngine
import Testing

@testable import CacheLab

/// SIEVE's hand, on sequences worked out by hand from libCacheSim's `Sieve`: the hand sweeps from
/// the oldest entry towards the newest, clears visited bits, evicts the first unvisited entry and
/// rests on the next newer one; entries never move.
@Suite("SIEVE: a hand sweeping from old to new")
struct SIEVEPolicyTests {
    func makeCache(capacity: Int = 3) -> Cache<UInt64, Void, SIEVEPolicy> {
        Fixtures.makeCache(SIEVEPolicy.self, .sieve, capacity: capacity)
    }

    /// The key the hand rests on, or nil when it will start again at the oldest.
    func handKey(_ cache: Cache<UInt64, Void, SIEVEPolicy>) -> UInt64? {
        guard let hand = cache.policy.handSlot, let position = cache.policy.checkedSlots().firstIndex(of: hand) else {
            return nil
        }
        return cache.storedKeys[position]
    }

    @Test func survivorsKeepTheirPlaceAndTheHandRestsAfterTheVictim() {
        // Given 1, 2, 3 and a hit on 1
        let cache = makeCache()
        cache.requests([1, 2, 3, 1])
        // When 4 arrives, then the hand clears 1, evicts 2 and rests on 3; 1 stays oldest
        cache.request(4)
        #expect(cache.storedKeys == [1, 3, 4])
        #expect(handKey(cache) == 3)
        #expect(!cache.policy.isVisited(cache.policy.checkedSlots()[0]))
    }

    @Test func theHandDoesNotGoBackForAnEntryHitBehindIt() {
        let cache = makeCache()
        cache.requests([1, 2, 3, 1, 4])  // 2 evicted, hand on 3
        // When 1 is hit again and 5, 6 arrive, then 3 and 4 go: the hand is past 1
        cache.requests([1, 5])
        #expect(cache.storedKeys == [1, 4, 5])
        #expect(handKey(cache) == 4)
        cache.request(6)
        #expect(cache.storedKeys == [1, 5, 6])
    }

    @Test func aNewUnvisitedEntryGoesBeforeOldVisitedOnesAndTheHandWraps() {
        // Given 1, 2, 3 with 2 and 3 hit
        let cache = makeCache()
        cache.requests([1, 2, 3, 2, 3])
        // When 4 arrives, then 1 (unvisited, oldest) goes and the hand rests on 2
        cache.request(4)
        #expect(cache.storedKeys == [2, 3, 4])
        #expect(handKey(cache) == 2)
        // When 5 arrives, then 2 and 3 are cleared and the newest, 4, goes; the hand falls off the end
        cache.request(5)
        #expect(cache.storedKeys == [2, 3, 5])
        #expect(handKey(cache) == nil)
        // When 6 arrives, then the hand starts again at the oldest, 2, now unvisited
        cache.request(6)
        #expect(cache.storedKeys == [3, 5, 6])
        #expect(handKey(cache) == 3)
    }

    @Test func whenEveryEntryWasVisitedTheHandWrapsToTheOldest() {
        let cache = makeCache()
        cache.requests([1, 2, 3, 1, 2, 3, 4])
        #expect(cache.storedKeys == [2, 3, 4])
        #expect(handKey(cache) == 2)
    }

    @Test func removingTheEntryUnderTheHandMovesTheHandToTheNextNewer() {
        let cache = makeCache()
        cache.requests([1, 2, 3, 1, 4])  // hand on 3
        cache.removeValue(forKey: 3)
        cache.checkInvariants()
        #expect(handKey(cache) == 4)
        // 5 fits; 6 then evicts 4, under the hand (1 was cleared on the first pass)
        cache.requests([5, 6])
        #expect(cache.storedKeys == [1, 5, 6])
    }
}
