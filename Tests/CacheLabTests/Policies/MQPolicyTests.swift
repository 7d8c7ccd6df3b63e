import CacheEngine
import Testing

@testable import CacheLab

/// MQ's eight queues, its lifetime and its ghost FIFO Qout, on the traces of the specification
/// (notes/policies-deterministic.md §4), whose hit/miss strings libCacheSim 0.3.5's `MQ` gave.
@Suite("MQ: queues by log₂ of the use count, demotion after a lifetime, Qout")
struct MQPolicyTests {
    func makeCache(capacity: Int, sizeMode: SizeMode = .unit) -> Cache<UInt64, Void, MQPolicy> {
        Fixtures.makeCache(MQPolicy.self, .mq, capacity: capacity, sizeMode: sizeMode)
    }

    @Test(arguments: [
        ("1 2 3 1 4 5 1 2 6 7 3 1 8 2 9 1 4 10 2 3 1 5 6 2 1 7 8 9 3 1", "mmmHmmHmmmmHmHmHmmHmHmmHHmmmmH"),
        ("1 4 1 1 3 2 1 9 2 1 1 9 2 5 1 1 2 6 1 5 9 6 6 1 3 9 1 1 1 2", "mmHHmmHmHHHHHmHHHmHmHmHHmmHHHH"),
    ])
    func givesLibCacheSimsOutcomesInUnitMode(trace: String, expected: String) {
        #expect(makeCache(capacity: 4).outcomes(trace) == expected)
    }

    @Test func queuesFollowLogTwoOfTheCountUpToTheLast() {
        #expect([1, 2, 3, 4, 7, 8, 127, 128, Int32.max].map(MQPolicy.queue(forCount:)) == [0, 1, 1, 2, 2, 3, 6, 7, 7])
    }

    @Test func anEvictedKeyComesBackWithOneMoreThanItsRememberedCount() throws {
        let cache = makeCache(capacity: 4)
        cache.requests([1, 2, 3, 1, 4])
        #expect(cache.policy.queueKeys[0] == [2, 3, 4] && cache.policy.queueKeys[1] == [1])
        // When 5 arrives, Q0's least recent, 2, goes to Qout with its count 1
        cache.request(5)
        #expect(cache.policy.ghostCounts.map(\.key) == [2] && cache.policy.ghostCounts.map(\.count) == [1])
        // When 2 comes back, it leaves Qout and enters Q1 with count 2; 3 takes its place in Qout
        cache.requests([1, 2])
        #expect(cache.policy.queueKeys[0] == [4, 5] && cache.policy.queueKeys[1] == [1, 2])
        #expect(cache.policy.ghostCounts.map(\.key) == [3])
        let two = try #require(cache.slot(forKey: 2))
        #expect(cache.policy.entry(two).count == 2)
    }

    @Test func anEntryUnusedForALifetimeDropsOneQueueAndKeepsItsCount() throws {
        // Given 1 in Q1 (count 2), expiring at 1 + 10,000
        let cache = makeCache(capacity: 4)
        cache.requests([1, 1])
        let one = try #require(cache.slot(forKey: 1))
        #expect(cache.policy.entry(one) == (count: 2, expiry: 10_001))
        // When 2 is requested until MQ's clock reads 10,001, then 1 is still in Q1
        cache.requests(Array(repeating: 2, count: 9_999))
        #expect(cache.policy.time == 10_001)
        #expect(cache.policy.queueKeys[1] == [1])
        // When the clock reads 10,002, then 1 has expired: it drops to Q0, its count unchanged
        cache.request(2)
        #expect(cache.policy.queueKeys[0] == [1] && cache.policy.queueKeys[7] == [2])
        #expect(cache.slot(forKey: 1) == one)
        #expect(cache.policy.entry(one) == (count: 2, expiry: 20_002))
        // When 1 is hit, its count 3 sends it back to Q1
        cache.request(1)
        #expect(cache.policy.queueKeys[1] == [1])
    }

    @Test func qoutIsBoundedByFourTimesTheCapacity() {
        // Given a capacity of 1: Qout holds 4 keys
        let cache = makeCache(capacity: 1)
        cache.requests(1...7)
        #expect(cache.policy.ghostCounts.map(\.key) == [3, 4, 5, 6])
    }

    @Test func givesLibCacheSimsOutcomesInByteMode() {
        let cache = makeCache(capacity: 12, sizeMode: .bytes)
        let trace = "1:3 1:3 1:3 8:4 1:3 2:4 7:2 3:4 1:3 1:3 3:4 8:4 7:2 3:4 4:1 5:2 5:2 7:2 2:4 1:3 4:1 3:4 1:3 1:3"
        #expect(cache.outcomes(trace) == "mHHmHmmmHHHmmmmmHHmHmmHH")
    }
}
