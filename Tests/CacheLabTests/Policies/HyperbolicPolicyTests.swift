import CacheEngine
import Testing

@testable import CacheLab

/// Hyperbolic's victims on hand-made traces, worked out from libCacheSim's rule (priority
/// `1e8 × count / requests since stored`, 64 samples) and checked against the Python model that
/// reproduces its `Hyperbolic`.
@Suite("Hyperbolic: fewest hits per request since stored")
struct HyperbolicPolicyTests {
    func makeCache(capacity: Int) -> Cache<UInt64, Void, HyperbolicPolicy> {
        Fixtures.makeCache(HyperbolicPolicy.self, .hyperbolic, capacity: capacity)
    }

    @Test func anOldEntryHitOftenCanRankBelowANewOne() throws {
        // Given 1 stored at request 1 and hit 3 times (4 uses in 7 requests), 2 stored at request
        // 5 and hit once (2 in 3), 3 stored at request 7 (1 in 1)
        let cache = makeCache(capacity: 3)
        let hits = cache.replay([1, 1, 1, 1, 2, 2, 3])
        #expect(hits == [false, true, true, true, false, true, false])
        let one = try #require(cache.slot(forKey: 1))
        #expect(cache.policy.count(of: one) == 4)
        // When 4 arrives (request 8): 1's priority is 4/7, 2's 2/3, 3's 1/1, times 10⁸
        cache.request(4)
        // Then 1 goes, though it was used most
        #expect(Set(cache.storedKeys) == [2, 3, 4])
    }

    @Test func aKeyStoredAgainCountsFromOne() throws {
        // Given 2 hit once (count 2), then pushed out by 4 and 5 while 1 is hit
        let cache = makeCache(capacity: 3)
        let hits = cache.replay([1, 2, 2, 3, 1, 1, 4, 5, 2, 6])
        #expect(hits == [false, false, true, false, true, true, false, false, false, false])
        // Then 2 came back as new: count 1, like 5 and 6
        #expect(Set(cache.storedKeys) == [2, 5, 6])
        for key: UInt64 in [2, 5, 6] {
            let slot = try #require(cache.slot(forKey: key))
            #expect(cache.policy.count(of: slot) == 1)
        }
    }

    @Test func aPriorityIsHitsPerRequestSinceStoredTimesAHundredMillion() throws {
        // Given 1 stored at request 1 and used 4 times in 7 requests
        let cache = makeCache(capacity: 3)
        cache.replay([1, 1, 1, 1, 2, 2, 3])
        // Then its priority is 10⁸ × 4 / 6 (six requests since it was stored)
        let one = try #require(cache.slot(forKey: 1))
        let two = try #require(cache.slot(forKey: 2))
        #expect(cache.policy.priority(one) == 1.0e8 * 4 / 6)
        #expect(cache.policy.priority(two) == 1.0e8 * 2 / 2)
    }
}
