import CacheEngine
import ClientModel
import Testing

@testable import CacheLab

@Suite("Admission filters in front of any policy")
struct AdmissionFilterTests {
    @Test(arguments: [
        ("bloom", AdmissionFilter.bloom), ("size:1MB", .size(below: 1_000_000)), ("size:4096", .size(below: 4_096)),
        ("prob:0.5", .probability(0.5)), ("sizeprob:1e-6", .sizeProbability(exponent: 1e-6)),
        ("adaptsize", .adaptSize(interval: 30_000)), ("adaptsize:500", .adaptSize(interval: 500)),
    ])
    func namesAreParsedAndWrittenBack(text: String, filter: AdmissionFilter) throws {
        #expect(try AdmissionFilter(parsing: text) == filter)
        #expect(try AdmissionFilter(parsing: filter.description) == filter)
    }

    @Test(arguments: [
        ("bloom:2", "admission \"bloom:2\" is not bloom, with no parameter"),
        ("size", "admission \"size\" is not size:N with N a size above 0, e.g. size:1MB"),
        ("size:0", "admission \"size:0\" is not size:N with N a size above 0, e.g. size:1MB"),
        ("prob:1.5", "admission \"prob:1.5\" is not prob:P with 0 < P ≤ 1, e.g. prob:0.5"),
        ("prob:0", "admission \"prob:0\" is not prob:P with 0 < P ≤ 1, e.g. prob:0.5"),
        ("sizeprob:x", "admission \"sizeprob:x\" is not sizeprob:E with 0 < E ≤ 1, e.g. sizeprob:1e-6"),
        ("adaptsize:-3", "admission \"adaptsize:-3\" is not adaptsize or adaptsize:N with N requests above 0"),
        ("lfu", "admission \"lfu\" is not one of bloom, size:N, prob:P, sizeprob:E, adaptsize"),
    ])
    func aBadFilterIsRefusedInWords(text: String, message: String) {
        #expect(throws: AdmissionFilterError.self) { try AdmissionFilter(parsing: text) }
        do { _ = try AdmissionFilter(parsing: text) } catch { #expect(error.description == message) }
    }

    @Test func bloomAdmitsAnObjectOnItsSecondMissAndARefusedMissEvictsNothing() {
        // Given a full LRU cache behind the Bloom filter
        let cache = Fixtures.makeCache(.lru, capacity: 2, sizeMode: .unit, admission: .bloom)
        #expect(cache.requests([1, 1, 2, 2]) == [false, false, false, false])
        #expect(Set(cache.storedKeys) == [1, 2] && cache.notAdmitted == 2)
        // When a new object misses for the first time
        #expect(cache.request(3, size: 1) == false)
        // Then nothing was evicted for it
        #expect(Set(cache.storedKeys) == [1, 2] && cache.evictions == 0 && cache.notAdmitted == 3)
        // And on its second miss it is stored, evicting the least recently used
        #expect(cache.request(3, size: 1) == false)
        #expect(Set(cache.storedKeys) == [2, 3] && cache.evictions == 1)
    }

    @Test func sizeAdmitsOnlyWhatIsStrictlySmaller() {
        let cache = Fixtures.makeCache(.fifo, capacity: 1_000, admission: .size(below: 100))
        #expect(cache.insert(1, size: 99, at: 0))
        #expect(!cache.insert(2, size: 100, at: 0))
        #expect(cache.storedKeys == [1] && cache.notAdmitted == 1)
    }

    /// An LRU cache behind `filter`, without the per-operation invariant checks of
    /// `Fixtures.makeCache` (thousands of misses into a cache of thousands would check a table of
    /// thousands each time: minutes in a debug build); the tests check them once at the end.
    static func unchecked(capacity: Int, sizeMode: SizeMode, filter: AdmissionFilter) -> Cache<UInt64, Void, LRUPolicy>
    {
        var configuration = PolicyKind.lru.configuration(capacity: capacity, sizeMode: sizeMode)
        configuration.admission = filter
        return Cache(configuration: configuration)
    }

    @Test func probabilityAdmitsAboutItsShareFromLibCacheSimsStream() {
        // Given prob:0.3 and 10,000 distinct misses
        let cache = Self.unchecked(capacity: 100_000, sizeMode: .unit, filter: .probability(0.3))
        for key in 0..<10_000 { _ = cache.insert((), forKey: UInt64(key), size: 1, at: 0) }
        cache.checkInvariants()
        // Then about 30 % are stored, and the same stream gives the same count every time
        let stored = cache.count
        #expect(abs(Double(stored) / 10_000 - 0.3) < 0.02)
        let again = Self.unchecked(capacity: 100_000, sizeMode: .unit, filter: .probability(0.3))
        for key in 0..<10_000 { _ = again.insert((), forKey: UInt64(key), size: 1, at: 0) }
        #expect(again.count == stored && again.notAdmitted == 10_000 - stored)
    }

    @Test func sizeProbabilityFavoursSmallObjects() {
        let cache = Self.unchecked(capacity: 1 << 40, sizeMode: .bytes, filter: .sizeProbability(exponent: 1e-5))
        for key in 0..<2_000 { _ = cache.insert((), forKey: UInt64(key), size: key % 2 == 0 ? 1_000 : 200_000, at: 0) }
        cache.checkInvariants()
        let small = cache.storedKeys.filter { $0 % 2 == 0 }.count
        let large = cache.storedKeys.count - small
        // e^(−0.01) ≈ 0.99 against e^(−2) ≈ 0.14
        #expect(small > 950 && large < 200, "\(small) small, \(large) large")
    }

    @Test func aRestoredEntryPassesTheFilterThatAdmittedItOnce() {
        let cache = Cache<UInt64, Void, LRUPolicy>(
            configuration: { () -> CacheConfiguration in
                var limits = CacheConfiguration(capacity: 10, sizeMode: .unit)
                limits.admission = .bloom
                return limits
            }())
        #expect(!cache.insert((), forKey: 1, size: 1, at: 0))
        #expect(cache.restore((), forKey: 2, size: 1, at: 0))
        #expect(cache.storedKeys == [2] && cache.notAdmitted == 1)
    }

    @Test func aRelaunchStartsTheFilterAfresh() {
        let cache = Cache<UInt64, Void, LRUPolicy>(
            configuration: { () -> CacheConfiguration in
                var limits = CacheConfiguration(capacity: 10, sizeMode: .unit)
                limits.admission = .bloom
                return limits
            }())
        #expect(!cache.insert((), forKey: 1, size: 1, at: 0))
        cache.restartAdmission()
        // The filter forgot key 1: its next miss is a first one again
        #expect(!cache.insert((), forKey: 1, size: 1, at: 0))
        #expect(cache.insert((), forKey: 1, size: 1, at: 0))
    }

    @Test(arguments: PolicyKind.allCases, [AdmissionFilter.bloom, .probability(0.5), .adaptSize(interval: 200)])
    func everyPolicyKeepsItsInvariantsBehindEveryFilter(kind: PolicyKind, filter: AdmissionFilter) {
        let cache = Fixtures.makeCache(kind, capacity: 20_000, admission: filter)
        var random = SplitMix64(seed: 7)
        var misses = 0
        for step in 0..<600 {
            let key = UInt64.random(in: 0..<150, using: &random)
            if !cache.request(key, size: 50 + Int(key % 7) * 40, at: Int64(step)) { misses += 1 }
        }
        // Every refusal was a miss that stored nothing
        #expect(cache.notAdmitted > 0 && cache.notAdmitted <= misses)
    }
}
