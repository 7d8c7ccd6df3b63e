import CacheEngine
import Testing

@testable import CacheLab

/// LIRS's stack S, queue Q and non-resident list, on the traces of the specification
/// (notes/policies-deterministic.md §5), whose hit/miss strings libCacheSim 0.3.5's `LIRS` gave.
@Suite("LIRS: LIR set, resident HIR queue, non-resident records in the stack")
struct LIRSPolicyTests {
    static let trace = "1 2 3 1 4 5 1 2 6 7 3 1 8 2 9 1 4 10 2 3 1 5 6 2 1 7 8 9 3 1"

    func makeCache(capacity: Int, sizeMode: SizeMode = .unit) -> Cache<UInt64, Void, LIRSPolicy> {
        Fixtures.makeCache(LIRSPolicy.self, .lirs, capacity: capacity, sizeMode: sizeMode)
    }

    @Test func sharesAreOnePercentForHIRAtLeastOneAndTheRestForLIR() {
        let shares = [5, 489, 2_448, 4_897, 20_297_697].map {
            LIRSPolicy(configuration: CacheConfiguration(capacity: $0))
        }
        #expect(shares.map(\.hirLimit) == [1, 4, 24, 48, 202_976])
        #expect(shares.map(\.lirLimit) == [4, 485, 2_424, 4_849, 20_094_721])
    }

    @Test(arguments: [
        (1, "mmmmmmmmmmmmmmmmmmmmmmmmmmmmmm"), (3, "mmmHmmHHmmmHmHmHmmHmHmmHHmmmmH"),
        (4, "mmmHmmHHmmHHmHmHmmHHHmmHHmmmHH"), (5, "mmmHmmHHmmHHmHmHHmHHHmmHHmmmHH"),
    ])
    func givesLibCacheSimsOutcomesInUnitMode(capacity: Int, expected: String) {
        #expect(makeCache(capacity: capacity).outcomes(Self.trace) == expected)
    }

    @Test func followsTheStackAndQueueOfTheSpecification() {
        let cache = makeCache(capacity: 5)
        // The LIR set (4) fills, then 5 is HIR, in S and Q
        #expect(cache.outcomes("1 2 3 1 4 5") == "mmmHmm")
        #expect(cache.policy.stacks.stack == "5h 4L 1L 3L 2L" && cache.policy.stacks.queue == [5])
        // When 6 arrives, the HIR set is full: 5 leaves Q and stays in S as non-resident
        #expect(cache.outcomes("1 2 6") == "HHm")
        #expect(cache.policy.stacks.stack == "6h 2L 1L 5n 4L 3L" && cache.policy.stacks.queue == [6])
        #expect(cache.evictions == 1)
        // When 4, the LIR entry at the bottom, is hit, S is pruned down to the next LIR entry
        #expect(cache.outcomes("7 3 1 8 2 9 1 4") == "mHHmHmHH")
        #expect(cache.policy.stacks.stack == "4L 1L 9h 2L 8n 3L" && cache.policy.stacks.queue == [9])
    }

    @Test func aNonResidentKeyComingBackBecomesLIRAndDemotesTheBottom() {
        let cache = makeCache(capacity: 5)
        cache.requests([1, 2, 3, 1, 4, 5, 1, 2, 6])  // S: 6h 2L 1L 5n 4L 3L
        // When 5 comes back, it becomes LIR; 3 at the bottom is demoted into Q, pushing 6 out
        #expect(cache.request(5) == false)
        #expect(cache.policy.stacks.stack == "5L 6n 2L 1L 4L" && cache.policy.stacks.queue == [3])
        #expect(Set(cache.storedKeys) == [1, 2, 3, 4, 5])
    }

    @Test(arguments: [
        // Tiny caches, where libCacheSim demotes a HIR entry from S's bottom, evicts the entry being
        // hit from Q in the middle of the hit, and promotes an entry Q no longer holds. Pinned with
        // the specification's model, which gave libCacheSim's sequence on every trace compared.
        (2, "3 2 3 3 1 2 1 3 4 1", "mmHHmmmHmH"), (2, "5 4 3 5 5 4 1 5 1 1", "mmmHHmmHHH"),
        (2, "1 2 2 2 1 3 1 2 1 1", "mmHHHmHmHH"), (3, "3 2 1 3 3 1 3 3 1 2", "mmmHHHHHHH"),
        (4, "7 5 3 1 9 6 1 7 4 5", "mmmmmmmHmH"), (5, "8 7 4 2 10 2 1 9 9 8", "mmmmmHmmHH"),
    ])
    func reproducesLibCacheSimsQuirksOnTinyCaches(capacity: Int, trace: String, expected: String) {
        #expect(makeCache(capacity: capacity).outcomes(trace) == expected)
    }

    @Test func givesLibCacheSimsOutcomesInByteMode() {
        // Entries over 1 % of the capacity (sizes 3 and 200 here) are never stored
        #expect(
            makeCache(capacity: 200, sizeMode: .bytes).outcomes("1:2 2:3 1:2 2:3 3:1 3:1 4:2 5:200 5:200 1:2 4:2")
                == "mmHmmHmmmHH")
        let trace = "1:3 2:3 3:1 1:3 4:2 2:3 5:1 3:1 6:1 1:3 4:2 5:1 2:3 6:1"
        #expect(makeCache(capacity: 10, sizeMode: .bytes).outcomes(trace) == "mmmmmmmHmmmHmH")
    }

    @Test func aTrimEvictsQueuedHIREntriesFirstThenLIREntries() {
        let cache = makeCache(capacity: 5)
        cache.requests([1, 2, 3, 1, 4, 5])  // LIR 1 2 3 4, HIR 5
        cache.trim(toCost: 3)
        #expect(Set(cache.storedKeys) == [1, 3, 4])
        cache.checkInvariants()
    }
}
