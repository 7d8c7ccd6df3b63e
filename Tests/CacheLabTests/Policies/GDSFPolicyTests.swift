import CacheEngine
import Testing

@testable import CacheLab

/// GDSF's priorities, on sequences worked out by hand from libCacheSim's `GDSF`: priority
/// `L + frequency × 10⁶ / size`, `L` the priority of the last entry evicted, ties oldest first,
/// and the newcomer ranked with the stored entries.
@Suite("GDSF: inflation plus frequency over size")
struct GDSFPolicyTests {
    func makeCache(capacity: Int, sizeMode: SizeMode = .unit) -> Cache<UInt64, Void, GDSFPolicy> {
        Fixtures.makeCache(GDSFPolicy.self, .gdsf, capacity: capacity, sizeMode: sizeMode)
    }

    @Test func equalPrioritiesGoOldestRequestFirstAndLRisesToTheVictims() {
        // Given two entries of one unit, both at priority 0 + 1 × 10⁶ / 1
        let cache = makeCache(capacity: 2)
        cache.requests([1, 2])
        // When 3 arrives at the same priority, then the oldest, 1, goes and L becomes 10⁶
        cache.request(3)
        #expect(Set(cache.storedKeys) == [2, 3])
        #expect(cache.policy.inflationValue == 1_000_000)
        // When 4 arrives at L + 10⁶, then 2 (priority 10⁶) is the lowest and goes
        cache.request(4)
        #expect(Set(cache.storedKeys) == [3, 4])
        #expect(cache.evictions == 2)
    }

    @Test func aHitAddsOneToTheFrequencyOverTheCurrentL() throws {
        let cache = makeCache(capacity: 2)
        cache.requests([1, 2, 3])  // 1 evicted: L = 10⁶
        // When 2 is hit twice, then its priority is L + 3 × 10⁶
        cache.requests([2, 2])
        let two = try #require(cache.slot(forKey: 2))
        #expect(cache.policy.priority(of: two) == 4_000_000)
        // So when 4 arrives (priority 2 × 10⁶), 3 (priority 2 × 10⁶ too, but older) goes, not 2
        cache.request(4)
        #expect(Set(cache.storedKeys) == [2, 4])
    }

    @Test func smallEntriesOutliveBigOnes() {
        // Given 100 bytes holding 50 bytes (priority 20,000) and 10 bytes (priority 100,000)
        let cache = makeCache(capacity: 100, sizeMode: .bytes)
        cache.request(1, size: 50)
        cache.request(2, size: 10)
        // When 45 bytes arrive (priority 22,222), then the big one goes, though it is the newest
        // but one
        cache.request(3, size: 45)
        #expect(Set(cache.storedKeys) == [2, 3])
        #expect(cache.policy.inflationValue == 20_000)
    }

    @Test func aNewcomerRankingLowestIsEvictedFirstAndNotStored() {
        // Given two entries of 40 bytes (priority 25,000 each)
        let cache = makeCache(capacity: 100, sizeMode: .bytes)
        cache.requests([1, 2], size: 40)
        // When an object the whole capacity arrives (priority 10,000), then it ranks lowest: it
        // is not stored, nothing else leaves, and L rises to its priority as libCacheSim's does
        #expect(!cache.insert((), forKey: 3, size: 100, at: 0))
        #expect(Set(cache.storedKeys) == [1, 2])
        #expect(cache.evictions == 0)
        #expect(cache.policy.inflationValue == 10_000)
        cache.checkInvariants()
        // And the next object fitting without an eviction is stored at L + 10⁶ / size
        cache.request(4, size: 20)
        #expect(Set(cache.storedKeys) == [1, 2, 4])
    }

    @Test func aNewcomerRankedAboveTheLowestEntryEvictsIt() {
        // Given entries ranking below and above a newcomer
        let cache = makeCache(capacity: 100, sizeMode: .bytes)
        cache.request(1, size: 60)  // priority 16,667
        cache.request(2, size: 20)  // 50,000
        // When 50 bytes arrive (priority 20,000), then 1 goes first (lower), after which it fits
        cache.request(3, size: 50)
        #expect(Set(cache.storedKeys) == [2, 3])
        #expect(cache.evictions == 1)
    }
}
