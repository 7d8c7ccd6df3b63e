import CacheEngine
import Testing

@testable import CacheLab

/// LRU-2's FIFO of entries used once and queue of entries used twice, on the traces of the
/// specification (notes/policies-deterministic.md §3), whose hit/miss strings libCacheSim 0.3.5's
/// `LRUK` gave.
@Suite("LRU-K (K = 2): entries used once first, then the oldest second-to-last use")
struct LRUKPolicyTests {
    static let trace = "1 2 3 1 4 5 1 2 6 7 3 1 8 2 9 1 4 10 2 3 1 5 6 2 1 7 8 9 3 1"

    func makeCache(capacity: Int, sizeMode: SizeMode = .unit) -> Cache<UInt64, Void, LRUKPolicy> {
        Fixtures.makeCache(LRUKPolicy.self, .lruk, capacity: capacity, sizeMode: sizeMode)
    }

    @Test(arguments: [
        (3, "mmmHmmHmmmmHmmmHmmmmHmmmHmmmmH"), (4, "mmmHmmHmmmmHmmmHmmmmHmmmHmmmmH"),
        (5, "mmmHmmHHmmmHmHmHmmHmHmmHHmmmmH"),
    ])
    func givesLibCacheSimsOutcomesInUnitMode(capacity: Int, expected: String) {
        #expect(makeCache(capacity: capacity).outcomes(Self.trace) == expected)
    }

    @Test func theFirstHitRanksAnEntryByItsInsertionAndLaterHitsByThePreviousUse() {
        let cache = makeCache(capacity: 4)
        cache.requests([1, 2, 3, 1])
        // 1 was stored at request 1 and hit at request 4: ranked 1
        #expect(cache.policy.queueKeys.once == [2, 3])
        #expect(cache.policy.queueKeys.twice.map(\.key) == [1] && cache.policy.queueKeys.twice.map(\.use) == [1])
        // When 4 and 5 arrive, the FIFO's oldest, 2, goes, though 1 is older
        cache.requests([4, 5])
        #expect(cache.policy.queueKeys.once == [3, 4, 5])
        // When 1 is hit again (request 7), it is ranked by its previous use, request 4
        cache.request(1)
        #expect(cache.policy.queueKeys.twice.map(\.use) == [4])
    }

    @Test func whenEveryEntryWasUsedTwiceTheOldestSecondToLastUseGoes() {
        let cache = makeCache(capacity: 2)
        // 1 is ranked by request 1, 2 by request 3
        #expect(cache.outcomes("1 1 2 2") == "mHmH")
        #expect(cache.policy.queueKeys.twice.map(\.use) == [1, 3])
        cache.request(3)
        #expect(Set(cache.storedKeys) == [2, 3])
        #expect(cache.policy.clock == 5)
    }

    @Test func missesTooBigToStoreStillTickTheClock() {
        let cache = makeCache(capacity: 10, sizeMode: .bytes)
        #expect(cache.outcomes("1:5 9:11 1:5") == "mmH")
        #expect(cache.policy.queueKeys.twice.map(\.use) == [1])
        #expect(cache.policy.clock == 3)
    }

    @Test func givesLibCacheSimsOutcomesInByteMode() {
        let cache = makeCache(capacity: 12, sizeMode: .bytes)
        let trace = "2:4 2:4 7:3 8:5 1:4 1:4 8:5 1:4 1:4 2:4 1:4 8:5 2:4 2:4 8:5 2:4 2:4 1:4 1:4 5:1 3:1 8:5 1:4 3:1"
        #expect(cache.outcomes(trace) == "mHmmmHmHHmHmmHmHHmHmmmHm")
    }
}
