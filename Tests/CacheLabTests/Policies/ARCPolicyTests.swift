import CacheEngine
import Testing

@testable import CacheLab

/// ARC's four lists and its target `p`, on one sequence worked out by hand from libCacheSim's
/// `ARC`, capacity 4 entries (unit mode).
@Suite("ARC: T1, T2, their ghosts and the adaptive target")
struct ARCPolicyTests {
    func makeCache() -> Cache<UInt64, Void, ARCPolicy> {
        Fixtures.makeCache(ARCPolicy.self, .arc, capacity: 4)
    }

    @Test func aHitMovesAnEntryFromT1ToT2() {
        let cache = makeCache()
        cache.requests([1, 2, 1])
        #expect(cache.policy.listKeys.t1 == [2])
        #expect(cache.policy.listKeys.t2 == [1])
    }

    @Test func withB1EmptyAFullT1EvictsWithoutAGhost() {
        let cache = makeCache()
        cache.requests(1...5)
        #expect(cache.policy.listKeys.t1 == [2, 3, 4, 5])
        #expect(cache.policy.listKeys.b1 == [])
        #expect(cache.evictions == 1)
    }

    @Test func ghostHitsMoveTheTargetAndComeBackIntoT2() {
        let cache = makeCache()
        // 1 leaves with no ghost; 2 is hit into T2; 6 makes REPLACE send T1's 3 to B1 (T1 over p = 0)
        cache.requests([1, 2, 3, 4, 5, 2, 6])
        #expect(cache.policy.listKeys.t1 == [4, 5, 6])
        #expect(cache.policy.listKeys.b1 == [3])
        // When 3 comes back from B1, then p grows by max(|B2| / |B1|, 1) = 1, REPLACE sends T1's 4
        // to B1, and 3 enters T2
        cache.request(3)
        #expect(cache.policy.target == 1)
        #expect(cache.policy.listKeys.t1 == [5, 6])
        #expect(cache.policy.listKeys.t2 == [2, 3])
        #expect(cache.policy.listKeys.b1 == [4])
        // 7: REPLACE sends 5 to B1. 8: T1 + B1 + 1 is over the capacity, so B1's oldest ghost (4)
        // goes first, then REPLACE sends 6 to B1. A hit moves 7 to T2.
        cache.requests([7, 8, 7])
        #expect(cache.policy.listKeys.t1 == [8])
        #expect(cache.policy.listKeys.t2 == [2, 3, 7])
        #expect(cache.policy.listKeys.b1 == [5, 6])
        // 9: T1 (1) is not over p (1), so REPLACE evicts T2's least recent, 2, into B2
        cache.request(9)
        #expect(cache.policy.listKeys.b2 == [2])
        #expect(cache.policy.listKeys.t2 == [3, 7])
        // When 2 comes back from B2, then p shrinks by max(|B1| / |B2|, 1) = 2, to its floor 0;
        // REPLACE sends T1's 8 to B1; 2 enters T2
        cache.request(2)
        #expect(cache.policy.target == 0)
        #expect(cache.policy.listKeys.t1 == [9])
        #expect(cache.policy.listKeys.t2 == [3, 7, 2])
        #expect(cache.policy.listKeys.b1 == [5, 6, 8])
        #expect(cache.policy.listKeys.b2 == [])
    }

    @Test func theVictimHintsAreTheHeadOfTheListReplaceReadsAndTheNextInIt() {
        // Given a cache of 8 whose T1 holds 4, 5, 6 and T2 1, 2, 3
        let cache = Fixtures.makeCache(ARCPolicy.self, .arc, capacity: 8)
        cache.requests([1, 2, 3, 4, 5, 6, 1, 2, 3])
        var ghostHits = 0
        for key in UInt64(10)..<40 {
            let policy = cache.policy
            let lists = policy.listKeys
            let list = policy.replacesFromT1 ? lists.t1 : lists.t2
            let hint = policy.victimHint().map { policy.keys[$0] }
            let after = policy.victimHint().flatMap { policy.victimHint(after: $0) }.map { policy.keys[$0] }
            // When a key comes: a new one, or every third the key asked for ten requests before
            let requested = key % 3 == 0 ? key - 10 : key
            if lists.b1.contains(requested) || lists.b2.contains(requested) { ghostHits += 1 }
            cache.request(requested)
            // Then the hint was the head of the list REPLACE reads, and the one after it the next
            // in that list
            #expect(hint == list.first)
            #expect(after == list.dropFirst().first)
        }
        #expect(ghostHits > 0, "the sequence brings ghosts back, which move the split")
    }

    @Test func emptyingTheCacheForgetsGhostsAndTheTarget() {
        let cache = makeCache()
        cache.requests([1, 2, 3, 4, 5, 2, 6, 3])
        cache.removeAll()
        #expect(cache.policy.target == 0)
        #expect(cache.policy.listKeys.b1 == [] && cache.policy.listKeys.b2 == [])
        #expect(cache.request(3) == false)
        #expect(cache.policy.listKeys.t1 == [3], "a forgotten ghost comes back into T1")
    }
}
