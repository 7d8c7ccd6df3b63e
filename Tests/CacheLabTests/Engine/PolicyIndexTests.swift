import CacheEngine
import ClientModel
import Testing

@testable import CacheLab

/// Random and Hyperbolic sample libCacheSim's hash table, which they keep anyway; with the
/// simulator's `UInt64` keys it is the cache's index too (`EvictionPolicy.indexesKeys`), and with
/// the client's `String` keys the cache keeps its own.
@Suite("A policy's table as the cache's index")
struct PolicyIndexTests {
    /// Requests of a skewed random workload: keys 1...60, the low ones more often.
    static func workload(count: Int, seed: UInt64) -> [UInt64] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            1 + UInt64.random(in: 0..<60, using: &generator) / UInt64.random(in: 1...3, using: &generator)
        }
    }

    @Test func withNumericKeysRandomsTableIsTheOnlyIndex() { checkTheOnlyIndex(RandomPolicy.self, .random) }

    @Test func withNumericKeysHyperbolicsTableIsTheOnlyIndex() {
        checkTheOnlyIndex(HyperbolicPolicy.self, .hyperbolic)
    }

    func checkTheOnlyIndex<Policy: EvictionPolicy>(_ policy: Policy.Type, _ kind: PolicyKind) {
        // Given a cache of 20 units under a workload of 60 keys, invariants checked throughout
        let cache = Fixtures.makeCache(Policy.self, kind, capacity: 20)
        var hits = 0
        for key in Self.workload(count: 3_000, seed: 4) where cache.request(key) { hits += 1 }
        // Then lookups, hits and evictions all went through the policy's table
        #expect(Policy.indexesKeys)
        #expect(cache.ownIndexCount == 0)
        #expect(cache.count == 20 && hits > 0 && cache.evictions > 0)
        // And the client's calls find, remove and empty through it
        let stored = cache.storedKeys
        #expect(stored.count == 20 && stored.allSatisfy { cache.contains($0) })
        #expect(cache.removeValue(forKey: stored[0]) != nil)
        #expect(!cache.contains(stored[0]) && cache.count == 19)
        #expect(cache.removeValue(forKey: 1_000) == nil)
        cache.checkInvariants()
        cache.removeAll()
        #expect(cache.count == 0 && !cache.contains(stored[1]))
        cache.checkInvariants()
    }

    @Test func withStringKeysTheCacheKeepsItsOwnIndex() {
        // Given Random under the client's shape of keys and values
        let cache = Cache<String, [UInt8], RandomPolicy>(configuration: CacheConfiguration(capacity: 10))
        for (index, key) in Self.workload(count: 500, seed: 8).enumerated() {
            let url = "https://x/photos/\(key)/small.jpg"
            if cache.value(forKey: url, at: Int64(index)) == nil {
                cache.insert([UInt8(key % 256)], forKey: url, size: 1, at: Int64(index))
            }
            cache.checkInvariants()
        }
        // Then its own index holds exactly the entries, and each keeps its value
        #expect(cache.count == 10 && cache.ownIndexCount == 10)
        for url in cache.storedKeys {
            let key = UInt64(url.split(separator: "/")[3])!
            #expect(cache.value(forKey: url, at: 1_000) == [UInt8(key % 256)])
        }
    }
}
