import CacheEngine
import Testing

@testable import CacheLab

/// CLOCK's second chance, on sequences worked out by hand from libCacheSim's `Clock` (one
/// reference bit, entries enter with it clear, the hand at the oldest end).
@Suite("CLOCK: one reference bit, second chance")
struct CLOCKPolicyTests {
    func makeCache(capacity: Int = 3, sizeMode: SizeMode = .unit) -> Cache<UInt64, Void, CLOCKPolicy> {
        Fixtures.makeCache(CLOCKPolicy.self, .clock, capacity: capacity, sizeMode: sizeMode)
    }

    @Test func aHitEntryIsPassedOverOnceAndMovesToTheNewEnd() {
        // Given 1, 2, 3 inserted and 1 hit
        let cache = makeCache()
        cache.requests([1, 2, 3, 1])
        // When 4 arrives, then 1 loses its bit and goes round; 2 is the victim
        cache.request(4)
        #expect(cache.storedKeys == [3, 1, 4])
        // When 5 and 6 arrive, then 3 goes, and then 1, whose second chance is spent
        cache.request(5)
        #expect(cache.storedKeys == [1, 4, 5])
        cache.request(6)
        #expect(cache.storedKeys == [4, 5, 6])
    }

    @Test func whenEveryEntryWasHitTheHandGoesRoundAndTakesTheOldest() {
        let cache = makeCache()
        cache.requests([1, 2, 3, 1, 2, 3])
        cache.request(4)
        #expect(cache.storedKeys == [2, 3, 4])
        #expect(cache.evictions == 1)
    }

    @Test func aNewEntryStartsWithItsBitClear() {
        let cache = makeCache()
        cache.requests([1, 2, 3])
        #expect(cache.policy.checkedSlots().allSatisfy { !cache.policy.isReferenced($0) })
        // Two hits set the one bit once: 1 survives one pass only
        cache.requests([1, 1, 4, 5, 6])
        #expect(cache.storedKeys == [4, 5, 6])
    }

    @Test func inBytesTheHandKeepsGoingUntilTheNewEntryFits() {
        // Given 40 + 40 bytes in 100, the first hit
        let cache = makeCache(capacity: 100, sizeMode: .bytes)
        cache.request(1, size: 40)
        cache.request(2, size: 40)
        cache.request(1, size: 40)
        // When 50 bytes arrive, then 1 goes round and 2 alone is evicted
        cache.request(3, size: 50)
        #expect(cache.storedKeys == [1, 3])
        #expect(cache.totalCost == 90)
    }
}
