import CacheEngine
import Testing

@testable import CacheLab

/// Random's victims, pinned on a hand-made trace against the Python model that reproduces
/// libCacheSim's `Random` (its hash table and generator from the seed): the victim is one sample
/// of the table, so the same draws evict the same entries.
@Suite("Random: one sample of libCacheSim's hash table")
struct RandomPolicyTests {
    func makeCache(capacity: Int) -> Cache<UInt64, Void, RandomPolicy> {
        Fixtures.makeCache(RandomPolicy.self, .random, capacity: capacity)
    }

    @Test func evictsWhatLibCacheSimsDrawsEvict() {
        // Given three places and twelve requests
        let cache = makeCache(capacity: 3)
        let hits = cache.replay([1, 2, 3, 4, 5, 1, 2, 6, 7, 3, 8, 1])
        // Then the one hit and the survivors are libCacheSim's
        #expect(hits == [false, false, false, false, false, false, true, false, false, false, false, false])
        #expect(Set(cache.storedKeys) == [1, 3, 8])
        #expect(cache.evictions == 8)
    }

    @Test func hitsChangeNothing() {
        // Given the same requests with hits on 1 in between
        let plain = makeCache(capacity: 3)
        plain.replay([1, 2, 3, 4, 5, 6])
        let hit = makeCache(capacity: 3)
        hit.replay([1, 2, 3])
        // Then hits draw nothing and move nothing: the same entries survive
        if hit.request(2) { hit.replay([4, 5, 6]) }
        #expect(Set(hit.storedKeys) == Set(plain.storedKeys))
    }

    @Test func aSeedOtherThanLibCacheSimsEvictsOtherEntries() {
        var configuration = PolicyKind.random.configuration(capacity: 50, sizeMode: .unit)
        let keys = (0..<400).map { UInt64(($0 * 7_919) % 211) }
        let reference = Cache<UInt64, Void, RandomPolicy>(configuration: configuration)
        reference.replay(keys)
        configuration.randomSeed = 12_345
        let reseeded = Cache<UInt64, Void, RandomPolicy>(configuration: configuration)
        reseeded.replay(keys)
        #expect(Set(reseeded.storedKeys) != Set(reference.storedKeys))
    }

    @Test func inABurstTheForeseenVictimsAreTheOnesEvicted() {
        // Given Random's policy holding 100,000 entries (chains of 1.5 on average in its 2^16
        // buckets), with one victim taken as a burst begins
        let count: Int32 = 100_000
        var policy = RandomPolicy(configuration: PolicyKind.random.configuration(capacity: 1, sizeMode: .unit))
        policy.share(LehmerRandom())
        policy.grow(to: Int(count))
        for slot in Int32(0)..<count { policy.inserted(slot, key: UInt64(slot) &* 0x9E37_79B9, cost: 1) }
        policy.prefetch(0)
        var taken = [policy.evict()!]
        // When the burst goes on for 1,000 evictions, each working the next victims out first
        var foreseen: [[Int32]] = []
        for _ in 0..<1_000 {
            policy.foreseeVictims()
            var chain: [Int32] = []
            var hint = policy.victimHint()
            while let slot = hint, chain.count < 3 {
                chain.append(slot)
                hint = policy.victimHint(after: slot)
            }
            foreseen.append(chain)
            taken.append(policy.evict()!)
        }
        // Then three victims are always known ahead, and they are the ones the samples take (a
        // hint goes wrong only when an eviction before it shortened the chain it samples)
        #expect(foreseen.allSatisfy { $0.count == 3 })
        let wrong = foreseen.indices.dropLast(2).count { foreseen[$0] != Array(taken[($0 + 1)...($0 + 3)]) }
        #expect(wrong <= 10, "\(wrong) of \(foreseen.count - 2) foreseen victims wrong")
        #expect(Set(taken).count == taken.count)
    }
}
