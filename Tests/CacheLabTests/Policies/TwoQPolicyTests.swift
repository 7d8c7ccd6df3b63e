import CacheEngine
import Testing

@testable import CacheLab

/// 2Q's three queues, on sequences worked out by hand from libCacheSim's `TwoQ`: Ain (FIFO, 25 %
/// of the capacity), Am (LRU, the rest) and the ghost FIFO Aout (50 %).
@Suite("2Q: Ain, Am and the ghost Aout")
struct TwoQPolicyTests {
    func makeCache(capacity: Int, sizeMode: SizeMode = .unit) -> Cache<UInt64, Void, TwoQPolicy> {
        Fixtures.makeCache(TwoQPolicy.self, .twoq, capacity: capacity, sizeMode: sizeMode)
    }

    @Test func sharesAreTruncatedFractionsOfTheCapacity() {
        let policy = TwoQPolicy(configuration: CacheConfiguration(capacity: 7))
        #expect(policy.ainLimit == 1 && policy.amLimit == 6)
    }

    @Test func ainOverflowsUntilAnEvictionThenItsOldestBecomeGhosts() {
        // Given a capacity of 4 entries: Ain's share 1, Am's 3, Aout's 2
        let cache = makeCache(capacity: 4)
        cache.requests(1...4)
        // Then every new entry went to Ain, past its share: nothing needed room yet
        #expect(cache.policy.queueKeys.ain == [1, 2, 3, 4])
        // When 5 arrives, then Ain's oldest leaves and becomes a ghost
        cache.request(5)
        #expect(cache.policy.queueKeys.ain == [2, 3, 4, 5])
        #expect(cache.policy.ghostKeys == [1])
    }

    @Test func aGhostComesBackIntoAmAndAmEvictsOnceAinIsWithinItsShare() {
        let cache = makeCache(capacity: 4)
        cache.requests(1...5)  // Ain 2 3 4 5, Aout 1
        // When 1, 2, 3 come back, then each enters Am while Ain's oldest makes room
        cache.requests([1, 2, 3])
        #expect(cache.policy.queueKeys.ain == [5])
        #expect(cache.policy.queueKeys.am == [1, 2, 3])
        #expect(cache.policy.ghostKeys == [4])
        // When 4 comes back, Ain holds its share only: Am's least recent entry, 1, makes room
        cache.request(4)
        #expect(cache.policy.queueKeys.am == [2, 3, 4])
        #expect(cache.policy.ghostKeys == [])
        // When 3 is hit it becomes Am's most recent; 6 then evicts Am's least recent, 2
        cache.requests([3, 6])
        #expect(cache.policy.queueKeys.ain == [5, 6])
        #expect(cache.policy.queueKeys.am == [4, 3])
        // When 7 arrives, Ain is over its share again: its oldest, 5, goes to Aout
        cache.request(7)
        #expect(cache.policy.queueKeys.ain == [6, 7])
        #expect(cache.policy.ghostKeys == [5])
    }

    @Test func aHitInAinChangesNothing() {
        let cache = makeCache(capacity: 4)
        cache.requests([1, 2, 3, 4, 1, 5])
        #expect(cache.policy.queueKeys.ain == [2, 3, 4, 5])
    }

    @Test func aoutForgetsItsOldestGhostsBeyondItsShare() {
        let cache = makeCache(capacity: 4)
        cache.requests(1...7)  // 1, 2, 3 leave Ain; Aout keeps 2
        #expect(cache.policy.ghostKeys == [2, 3])
        // When 1 comes back, it is no ghost any more: it enters Ain
        cache.request(1)
        #expect(cache.policy.queueKeys.am == [])
        #expect(cache.policy.queueKeys.ain == [5, 6, 7, 1])
    }

    @Test func amEvictsDownToItsOwnShareBeforeTakingAGhostBack() {
        // Given 100 bytes (Ain 25, Am 75, Aout 50) and entries of 20 bytes
        let cache = makeCache(capacity: 100, sizeMode: .bytes)
        cache.requests(1...6, size: 20)  // Ain 2 3 4 5 6, Aout 1
        cache.requests([1, 2, 3], size: 20)  // each back into Am, Ain's oldest out
        #expect(cache.policy.queueKeys.am == [1, 2, 3])
        #expect(cache.policy.queueKeys.ain == [5, 6])
        #expect(cache.evictions == 4)
        // When 4 comes back, Ain's 5 makes room in the cache (80 + 20 = 100), and then Am,
        // at 60 + 20 > 75, evicts its least recent entry as well
        cache.request(4, size: 20)
        #expect(cache.policy.queueKeys.ain == [6])
        #expect(cache.policy.queueKeys.am == [2, 3, 4])
        #expect(cache.totalCost == 80)
        #expect(cache.evictions == 6)
        // Am's victims leave no ghost
        #expect(cache.policy.ghostKeys == [5])
    }

    @Test func anEntryBiggerThanAinsShareIsNotStoredButItsGhostIsForgotten() {
        let cache = makeCache(capacity: 100, sizeMode: .bytes)
        cache.requests(1...6, size: 20)  // Aout 1
        // When 1 comes back at 26 bytes (more than Ain's 25), then nothing is stored or evicted
        cache.request(1, size: 26)
        #expect(cache.evictions == 1)
        #expect(cache.policy.ghostKeys == [])
        // When it comes back at 20 bytes, it is no ghost any more: it enters Ain
        cache.request(1, size: 20)
        #expect(cache.policy.queueKeys.am == [])
        #expect(cache.policy.queueKeys.ain == [3, 4, 5, 6, 1])
    }
}
