import CacheEngine
import Testing

@testable import CacheLab

/// Clock2Q+'s small FIFO, main clock and ghost FIFO, on the traces of the specification
/// (notes/policies-deterministic.md §7), whose hit/miss strings libCacheSim 0.3.5's `Clock2QPlus`
/// gave.
@Suite("Clock2Q+: small FIFO with a correlation window, main clock, ghost FIFO")
struct Clock2QPlusPolicyTests {
    static let trace =
        "1 1 2 3 2 1 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 3 23 24 3 25 1 26 27 28 2 29 21 30 22"

    func makeCache(capacity: Int, sizeMode: SizeMode = .unit) -> Cache<UInt64, Void, Clock2QPlusPolicy> {
        Fixtures.makeCache(Clock2QPlusPolicy.self, .clock2qplus, capacity: capacity, sizeMode: sizeMode)
    }

    @Test func sharesAreTruncatedFractionsOfTheCapacity() {
        let policy = Clock2QPlusPolicy(configuration: CacheConfiguration(capacity: 489))
        #expect(policy.queues.smallLimit == 48 && policy.queues.mainLimit == 441 && policy.correlationWindow == 24)
    }

    @Test func givesLibCacheSimsOutcomesInUnitMode() {
        #expect(makeCache(capacity: 20).outcomes(Self.trace) == "mHmmHHmmmmmmmmmmmmmmmmmmmmmmmmHmmmmmmmm")
    }

    @Test func followsTheQueuesOfTheSpecification() {
        // Given 20 entries: small queue 2, main 18, ghost 18, correlation window 1.0
        let cache = makeCache(capacity: 20)
        // A hit on 1 right after it came in is inside the window; after 2 came in, it counts
        #expect(cache.outcomes("1 1 2 3 2 1") == "mHmmHH")
        #expect(cache.policy.queues.hitCount(of: 1) == 1 && cache.policy.queues.hitCount(of: 2) == 0)
        // Until the first eviction a full small queue sends newcomers to main
        #expect(cache.policy.queues.queueKeys.small == [1, 2] && cache.policy.queues.queueKeys.main == [3])
        cache.requests(4...20)
        // When 21 arrives, 1 (hit) moves to main and 2 (not hit) leaves for the ghost FIFO
        cache.request(21)
        #expect(cache.policy.queues.queueKeys.small == [21])
        #expect(cache.policy.queues.queueKeys.main == Array(3...20) + [1])
        #expect(cache.policy.queues.ghostKeys == [2])
        // When 22 arrives, main is over its share: its oldest, 3, leaves without a ghost
        cache.request(22)
        #expect(cache.policy.queues.queueKeys.main.first == 4 && cache.policy.queues.ghostKeys == [2])
        // When 3 comes back after leaving the small queue, it goes to main
        cache.requests([3, 23, 24, 3])
        #expect(cache.policy.queues.queueKeys.main.last == 3)
    }

    @Test(arguments: [3, 4, 5, 10, 19])
    func withoutRoomInTheSmallQueueNothingIsStored(capacity: Int) {
        // Below 10 the small queue rounds to 0; up to 19 it holds 1, and an entry as big as the small
        // queue is stored only when it comes back from the ghost FIFO, which never happens
        let cache = makeCache(capacity: capacity)
        #expect(cache.outcomes(Self.trace) == String(repeating: "m", count: 39))
    }

    @Test func givesLibCacheSimsOutcomesInByteMode() {
        let cache = makeCache(capacity: 60, sizeMode: .bytes)
        let trace = "1:5 2:1 7:2 1:5 5:3 3:3 1:5 1:5 1:5 1:5 3:3 1:5 4:3 1:5 3:3 8:2 1:5 1:5 1:5 1:5 3:3 1:5 6:5 1:5"
        #expect(cache.outcomes(trace) == "mmmHmmHHHHHHmHHmHHHHHHmH")
    }
}
