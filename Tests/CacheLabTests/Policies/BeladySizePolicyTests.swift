import CacheEngine
import Testing

@testable import CacheLab

/// BeladySize's choices on hand-made traces, worked out from libCacheSim's rule (the largest
/// `log(size) + log(next use − now)` of 128 samples; nothing stored that is never used again) and
/// checked against the Python model that reproduces its `BeladySize`.
@Suite("BeladySize: largest size × distance to the next use, sampled")
struct BeladySizePolicyTests {
    func makeCache(capacity: Int, sizeMode: SizeMode = .unit) -> Cache<UInt64, Void, BeladySizePolicy> {
        Fixtures.makeCache(BeladySizePolicy.self, .beladysize, capacity: capacity, sizeMode: sizeMode)
    }

    /// A simulator request told its next use (1-based trace position, `Int64.max` for never).
    func request(
        _ cache: Cache<UInt64, Void, BeladySizePolicy>, _ key: UInt64, size: Int = 1, nextUse: Int64
    ) -> Bool {
        cache.upcoming(nextUse: nextUse)
        return cache.request(key, size: size)
    }

    @Test func evictsTheLargestSizeTimesDistance() throws {
        // Given 100 bytes holding 1 (10 bytes, next used at request 7), 2 (50 bytes, at 6) and
        // 3 (30 bytes, at 5)
        let cache = makeCache(capacity: 100, sizeMode: .bytes)
        #expect(!request(cache, 1, size: 10, nextUse: 7))
        #expect(!request(cache, 2, size: 50, nextUse: 6))
        #expect(!request(cache, 3, size: 30, nextUse: 5))
        // When 4 (20 bytes) arrives at request 4: 1 scores 10 × 3, 2 scores 50 × 2, 3 scores 30 × 1
        #expect(!request(cache, 4, size: 20, nextUse: 8))
        // Then 2 goes, and only 2
        #expect(Set(cache.storedKeys) == [1, 3, 4])
        #expect(cache.totalCost == 60)
        let four = try #require(cache.slot(forKey: 4))
        #expect(cache.policy.nextUse(of: four) == 8)
    }

    @Test func aHitByARequestNeverMadeAgainRemovesTheEntry() {
        // The same trace to its end: each later request is the last for its key
        let cache = makeCache(capacity: 100, sizeMode: .bytes)
        let hits = cache.replay([1, 2, 3, 4, 3, 2, 1, 4], sizes: [10, 50, 30, 20, 30, 50, 10, 20])
        // Then 3, 1 and 4 hit and leave; 2 misses and is not stored
        #expect(hits == [false, false, false, false, true, false, true, true])
        #expect(cache.storedKeys.isEmpty && cache.totalCost == 0)
    }

    @Test func aMissNeverRequestedAgainMakesRoomButIsNotStored() {
        // Given two places, 1 and 2, then 3 (2 goes: the farther)
        let cache = makeCache(capacity: 2)
        let hits = cache.replay([1, 2, 3, 9, 1, 2, 3])
        // Then 9, never requested again, still evicts (3: farther than 1) but is not stored, as
        // libCacheSim evicts before its insert declines; 1 hits and leaves
        #expect(hits == [false, false, false, false, true, false, false])
        #expect(cache.storedKeys.isEmpty)
        #expect(cache.evictions == 3)  // 2, 3, and 1 taken out on its last hit
        #expect(BeladySizePolicy.mayDeclineNewEntries && BeladySizePolicy.needsFuture)
    }

    @Test func theFirstEvictionsHalveTheSparseTable() {
        // Given libCacheSim's 2^24 buckets for a handful of entries
        let cache = makeCache(capacity: 4)
        #expect(cache.policy.hashPowerNow == 24)
        // When 5 makes one go (4, the farthest), then sampling halves the table until it finds
        // entries
        let hits = cache.replay([1, 2, 3, 4, 5, 1, 2, 3, 4])
        #expect(hits == [false, false, false, false, false, true, true, true, false])
        #expect(cache.policy.hashPowerNow < 12)
    }
}
