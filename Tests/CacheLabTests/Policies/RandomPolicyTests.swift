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
}
