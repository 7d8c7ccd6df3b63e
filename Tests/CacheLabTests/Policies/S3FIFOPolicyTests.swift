import CacheEngine
import Testing

@testable import CacheLab

/// S3-FIFO's three queues, on sequences worked out by hand from libCacheSim's `S3FIFO`: the small
/// FIFO (10 % of the capacity), main (the rest) and the ghost FIFO (90 %).
@Suite("S3-FIFO: small, main and ghost queues")
struct S3FIFOPolicyTests {
    func makeCache(capacity: Int, sizeMode: SizeMode = .unit) -> Cache<UInt64, Void, S3FIFOPolicy> {
        Fixtures.makeCache(S3FIFOPolicy.self, .s3fifo, capacity: capacity, sizeMode: sizeMode)
    }

    @Test func sharesAreTruncatedFractionsOfTheCapacity() {
        let policy = S3FIFOPolicy(configuration: CacheConfiguration(capacity: 25))
        #expect(policy.queues.smallLimit == 2 && policy.queues.mainLimit == 23)
    }

    @Test func beforeTheFirstEvictionAFullSmallQueueSendsNewEntriesToMain() {
        // Given 20 entries of room: small 2, main 18
        let cache = makeCache(capacity: 20)
        cache.requests(1...20)
        #expect(cache.policy.queues.queueKeys.small == [1, 2])
        #expect(cache.policy.queues.queueKeys.main == Array(3...20))
        // When 21 needs room, then small's oldest, hit less than twice, leaves and becomes a ghost,
        // and from now on new entries go to small
        cache.request(21)
        #expect(cache.policy.queues.queueKeys.small == [2, 21])
        #expect(cache.policy.queues.ghostKeys == [1])
        #expect(cache.evictions == 1)
    }

    @Test func aGhostReturnsIntoMainAndMainEvictsOnceOverItsShare() {
        let cache = makeCache(capacity: 20)
        cache.requests(1...21)  // small 2 21, main 3...20, ghost 1
        // When 1 comes back, then small's oldest (2) makes room and 1 enters main, past its share
        cache.request(1)
        #expect(cache.policy.queues.queueKeys.small == [21])
        #expect(cache.policy.queues.queueKeys.main == Array(3...20) + [1])
        #expect(cache.policy.queues.ghostKeys == [2])
        // When 22 arrives, main is over its share: its oldest unhit entry, 3, leaves (no ghost)
        cache.request(22)
        #expect(cache.policy.queues.queueKeys.small == [21, 22])
        #expect(cache.policy.queues.queueKeys.main == Array(4...20) + [1])
        #expect(cache.policy.queues.ghostKeys == [2])
    }

    @Test func anEntryHitTwiceInSmallMovesToMain() {
        let cache = makeCache(capacity: 20)
        cache.requests(1...21)  // small 2 21, main 3...20, ghost 1
        cache.requests([21, 21])
        #expect(cache.policy.queues.hitCount(of: 21) == 2)
        cache.request(22)  // small's oldest, 2, leaves: small 21 22
        // When 23 needs room, then 21 moves to main with its count reset, and 22 leaves
        cache.request(23)
        #expect(cache.policy.queues.queueKeys.small == [23])
        #expect(cache.policy.queues.queueKeys.main == Array(3...20) + [21])
        #expect(cache.policy.queues.hitCount(of: 21) == 0)
        #expect(cache.policy.queues.ghostKeys == [1, 2, 22])
    }

    @Test func mainGivesHitEntriesAnotherRoundWithOneHitFewer() {
        let cache = makeCache(capacity: 20)
        cache.requests(1...21)  // small 2 21, main 3...20 (18, its share), ghost 1
        cache.requests([3, 3, 3, 3, 4])  // 3 counts 4 hits, 4 one
        cache.request(1)  // a ghost: small's 2 makes room, 1 enters main, now over its share
        // When 22 needs room, then main evicts: 3 goes round with min(4, 3) - 1 = 2 hits, 4 with
        // 0, and 5, never hit, leaves
        cache.request(22)
        #expect(cache.policy.queues.queueKeys.main == Array(6...20) + [1, 3, 4])
        #expect(cache.policy.queues.queueKeys.small == [21, 22])
        #expect(cache.policy.queues.hitCount(of: 3) == 2)
        #expect(cache.policy.queues.hitCount(of: 4) == 0)
        #expect(!cache.contains(5))
    }

    @Test func anEntryAsBigAsTheSmallQueueEvictsButIsNotStoredAndABiggerOneDoesNothing() {
        // Given 100 bytes: the small queue's share is 10; eleven entries of 9 bytes fill 99
        let cache = makeCache(capacity: 100, sizeMode: .bytes)
        cache.requests(1...11, size: 9)
        #expect(cache.count == 11)
        // When an entry of 10 bytes arrives, then room is made for it (small's oldest leaves) but
        // it is not stored: libCacheSim's S3FIFO_insert declines it after its evictions
        cache.request(50, size: 10)
        #expect(!cache.contains(50))
        #expect(cache.evictions == 1)
        #expect(cache.policy.queues.ghostKeys == [1])
        // When an entry of 11 bytes arrives, then nothing happens at all
        cache.request(51, size: 11)
        #expect(!cache.contains(51))
        #expect(cache.evictions == 1)
        // But a ghost as big as the small queue is stored, in main
        cache.request(1, size: 10)
        #expect(cache.contains(1))
        #expect(cache.policy.queues.queueKeys.main.contains(1))
    }
}
