import CacheEngine
import Testing

@testable import CacheLab

/// SLRU's four segments, on the traces of the specification (notes/policies-deterministic.md §1),
/// whose hit/miss strings libCacheSim 0.3.5's `SLRU` gave.
@Suite("SLRU: four LRU segments, promotion up and cooling down")
struct SLRUPolicyTests {
    func makeCache(capacity: Int, sizeMode: SizeMode = .unit) -> Cache<UInt64, Void, SLRUPolicy> {
        Fixtures.makeCache(SLRUPolicy.self, .slru, capacity: capacity, sizeMode: sizeMode)
    }

    /// The keys of each segment, 0 to 3, least recent first.
    func segmentKeys(_ cache: Cache<UInt64, Void, SLRUPolicy>) -> [[UInt64]] {
        cache.policy.segmentSlots.map { cache.keys(ofSlots: $0) }
    }

    @Test func eachSegmentGetsATruncatedQuarter() {
        #expect(SLRUPolicy(configuration: CacheConfiguration(capacity: 489)).segmentLimit == 122)
        #expect(SLRUPolicy(configuration: CacheConfiguration(capacity: 20_297_697)).segmentLimit == 5_074_424)
    }

    @Test func givesLibCacheSimsOutcomesInUnitMode() {
        let cache = makeCache(capacity: 8)
        #expect(
            cache.outcomes("1 2 3 4 5 6 7 8 1 2 1 9 10 3 1 2 11 12 4 5 9 1 3 13 2") == "mmmmmmmmHHHmmmHHmmmHmHmmH")
    }

    @Test func newEntriesGoToTheLowestSegmentWithRoom() {
        // Given segments of 2 entries
        let cache = makeCache(capacity: 8)
        // When 8 entries arrive, then they fill segment 0, then 1, 2 and 3, least recent first
        cache.requests(1...8)
        #expect(segmentKeys(cache) == [[1, 2], [3, 4], [5, 6], [7, 8]])
        // When 1 is hit, it moves to segment 1, whose least recent entry, 3, cools to segment 0
        cache.request(1)
        #expect(segmentKeys(cache) == [[2, 3], [4, 1], [5, 6], [7, 8]])
        // When 2 and then 1 are hit, each moves up a segment and one entry cools down each time
        cache.requests([2, 1])
        #expect(segmentKeys(cache) == [[3, 4], [2, 5], [6, 1], [7, 8]])
        // When 9 arrives, segment 0's least recent entry, 3, makes room
        cache.request(9)
        #expect(segmentKeys(cache) == [[4, 9], [2, 5], [6, 1], [7, 8]])
        #expect(cache.evictions == 1)
    }

    @Test func aHitCanEvictThroughTheCoolingCascade() {
        // Given a capacity of 9: segments of 2 total 8, so the ninth entry overfills segment 0
        let cache = makeCache(capacity: 9)
        cache.requests(1...9)
        #expect(segmentKeys(cache) == [[1, 2, 9], [3, 4], [5, 6], [7, 8]])
        // When 1 is hit, segment 1's least recent, 3, cools into segment 0, which evicts 2
        #expect(cache.request(1))
        #expect(segmentKeys(cache) == [[9, 3], [4, 1], [5, 6], [7, 8]])
        #expect(cache.evictions == 1)
        #expect(cache.count == 8)
    }

    @Test func givesLibCacheSimsOutcomesInByteMode() {
        let cache = makeCache(capacity: 24, sizeMode: .bytes)
        let trace = "1:6 1:6 5:2 6:5 3:6 7:6 4:4 3:6 2:6 3:6 1:6 1:6 1:6 1:6 1:6 8:1 2:6 1:6 1:6 1:6 7:6 1:6 5:2 7:6"
        #expect(cache.outcomes(trace) == "mHmmmmmHmHHHHHHmHHHHmHmm")
    }

    @Test func anEntryOverAQuarterOfTheCapacityIsNotStored() {
        let cache = makeCache(capacity: 24, sizeMode: .bytes)
        cache.requests([1, 2], size: 6)
        #expect(cache.outcomes("3:7 3:7") == "mm")
        #expect(cache.count == 2 && cache.evictions == 0)
    }

    @Test func belowFourEntriesNothingIsStored() {
        let cache = makeCache(capacity: 3)
        #expect(cache.outcomes("1 1 2 2") == "mmmm")
        #expect(cache.count == 0)
    }
}
