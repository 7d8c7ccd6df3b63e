import CacheEngine
import Testing

@testable import CacheLab

/// CLOCK-Pro with libCacheSim's Python defaults, on the traces of the specification
/// (notes/policies-deterministic.md §6), whose hit/miss strings libCacheSim 0.3.5's `ClockPro` gave.
@Suite("CLOCK-Pro with libCacheSim's defaults: cold pages fill half the cache, nothing is evicted")
struct ClockProPolicyTests {
    static let trace = "1 2 3 1 4 5 1 2 6 7 3 1 8 2 9 1 4 10 2 3 1 5 6 2 1 7 8 9 3 1"

    func makeCache(capacity: Int, sizeMode: SizeMode = .unit) -> Cache<UInt64, Void, ClockProPolicy> {
        Fixtures.makeCache(ClockProPolicy.self, .clockpro, capacity: capacity, sizeMode: sizeMode)
    }

    @Test(arguments: [(3, "mmmHmmHmmmmHmmmHmmmmHmmmHmmmmH"), (4, "mmmHmmHHmmmHmHmHmmHmHmmHHmmmmH")])
    func givesLibCacheSimsOutcomesInUnitMode(capacity: Int, expected: String) {
        let cache = makeCache(capacity: capacity)
        #expect(cache.outcomes(Self.trace) == expected)
        // Only the first entries that fit in half the cache were ever stored, and none evicted
        #expect(Set(cache.storedKeys) == Set(1...UInt64(capacity / 2)))
        #expect(cache.evictions == 0)
    }

    @Test func laterNewcomersFitOnlyIntoTheRoomLeft() {
        // Given 12 bytes, cold pages may fill 6: 1 and 2 fill them; 3:2 and 4:1 never fit
        let cache = makeCache(capacity: 12, sizeMode: .bytes)
        let trace = "1:4 2:2 1:4 8:5 3:2 3:2 4:1 1:4 3:2 8:5 3:2 1:4 1:4 1:4 1:4 7:3 6:3 1:4 6:3 1:4 8:5 5:3 8:5 1:4"
        #expect(cache.outcomes(trace) == "mmHmmmmHmmmHHHHmmHmHmmmH")
        #expect(cache.policy.cold == 6 && cache.evictions == 0)
        // When a trim frees the oldest, then newcomers fit again
        cache.trim(toCost: 2)
        #expect(cache.storedKeys == [2])
        #expect(cache.outcomes("6:3 6:3") == "mH")
    }
}
