import CacheEngine
import Testing

@testable import CacheLab

/// LFUDA's integer priorities, on the traces of the specification (notes/policies-deterministic.md
/// §2), whose hit/miss strings libCacheSim 0.3.5's `LFUDA` gave.
@Suite("LFUDA: buckets by priority, a hit adding the minimum")
struct LFUDAPolicyTests {
    static let trace = "1 2 3 1 4 5 1 2 6 7 3 1 8 2 9 1 4 10 2 3 1 5 6 2 1 7 8 9 3 1"

    func makeCache(capacity: Int, sizeMode: SizeMode = .unit) -> Cache<UInt64, Void, LFUDAPolicy> {
        Fixtures.makeCache(LFUDAPolicy.self, .lfuda, capacity: capacity, sizeMode: sizeMode)
    }

    @Test(arguments: [
        (3, "mmmHmmHmmmmmmmmmmmmmmmmmmmmmmm"), (4, "mmmHmmHmmmmmmmmHmmmmHmmmHmmmmH"),
        (5, "mmmHmmHHmmmHmmmHmmHmHmmHHmmmmH"),
    ])
    func givesLibCacheSimsOutcomesInUnitMode(capacity: Int, expected: String) {
        #expect(makeCache(capacity: capacity).outcomes(Self.trace) == expected)
    }

    @Test func aHitAddsTheMinimumPriority() {
        let cache = makeCache(capacity: 4)
        // Before the first eviction the minimum is 0: a hit only makes 1 its bucket's newest
        cache.requests([1, 2, 3, 1])
        #expect(cache.policy.bucketKeys.map(\.keys) == [[2, 3, 1]])
        #expect(cache.policy.minimumPriority == 0 && cache.policy.maximumPriority == 1)
        // When 4 and 5 arrive, 2 goes and the minimum becomes 1: 5 enters at priority 2
        cache.requests([4, 5])
        #expect(cache.policy.bucketKeys.map(\.priority) == [1, 2])
        #expect(cache.policy.bucketKeys.map(\.keys) == [[3, 1, 4], [5]])
        // Then, further on, a hit at minimum 4 takes 1 from priority 4 to 8
        cache.requests([1, 2, 6, 7, 3, 1, 8, 2, 9])
        #expect(cache.policy.minimumPriority == 4)
        cache.request(1)
        #expect(cache.policy.bucketKeys.map(\.priority) == [4, 5, 8])
        #expect(cache.policy.bucketKeys.map(\.keys) == [[8, 2], [9], [1]])
        #expect(cache.policy.maximumPriority == 8)
    }

    @Test func givesLibCacheSimsOutcomesInByteMode() {
        let cache = makeCache(capacity: 12, sizeMode: .bytes)
        let trace = "1:5 1:5 1:5 1:5 1:5 2:3 8:1 1:5 3:5 2:3 1:5 4:5 2:3 1:5 3:5 3:5 3:5 2:3 2:3 8:1 2:3 1:5 2:3 8:1"
        #expect(cache.outcomes(trace) == "mHHHHmmHmmmmmmmHHmHmHmHH")
    }

    @Test func anEntryTheMinimumPassesByStaysAndHits() {
        // Given 4 alone at the minimum priority 1 and 3 at priority 3
        let cache = makeCache(capacity: 2)
        #expect(cache.outcomes("2 4 3 3") == "mmmH")
        #expect(cache.policy.bucketKeys.map(\.priority) == [1, 3])
        // When 4 is hit, its bucket empties and the minimum moves to 3 before 4 joins priority 2
        #expect(cache.request(4))
        #expect(cache.policy.minimumPriority == 3)
        #expect(cache.policy.bucketKeys.map(\.priority) == [2, 3])
        #expect(cache.policy.bucketKeys.map(\.keys) == [[4], [3]])
        // Then 4, below the minimum, is never the victim, and its next hit lifts it by 3
        #expect(cache.request(4))
        #expect(cache.policy.bucketKeys.map(\.priority) == [3, 5])
    }

    @Test func goesOnWithTheLowestBucketWhereLibCacheSimCrashes() {
        // Given a cache of 1: 1 is evicted by 2, leaving bucket 1 empty with 2 at priority 2; a
        // hit keeps 2 there, so the next eviction finds the minimum's bucket empty (libCacheSim
        // crashes there)
        let cache = makeCache(capacity: 1)
        // Then 2, in the lowest non-empty bucket, is the victim and the run goes on
        #expect(cache.outcomes("1 2 2 3 3") == "mmHmH")
        #expect(cache.storedKeys == [3])
        cache.checkInvariants()
    }

    @Test func aTrimTakesTheLowestBucketWhereAnEvictionWouldCrash() {
        let cache = makeCache(capacity: 1)
        #expect(cache.outcomes("1 2 2") == "mmH")
        cache.trim(toCost: 0)
        #expect(cache.count == 0)
        cache.checkInvariants()
    }
}
