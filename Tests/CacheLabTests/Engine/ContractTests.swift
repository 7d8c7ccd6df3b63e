import CacheEngine
import CacheLabContracts
import ClientModel
import Testing

@testable import CacheLab

/// Rules every policy must keep, checked for each registered policy with invariants verified
/// after every operation.
@Suite("The ImageCaching contract, for every policy")
struct ContractTests {
    /// Every rule of the contract, through the protocol, for the engine under every policy
    /// (`RecordingCacheContractTests` puts `RecordingCache` through the same rules).
    @Test(arguments: ImageCachingContract.Rule.allCases, PolicyKind.allCases)
    func theEngineKeepsTheRule(_ rule: ImageCachingContract.Rule, kind: PolicyKind) {
        guard rule.applies(to: kind) else { return }
        let failures = ImageCachingContract.check(rule, kind, conformer: EngineConformer())
        #expect(failures.isEmpty, "\(rule) under \(kind): \(failures)")
    }

    @Test(arguments: PolicyKind.allCases, [SizeMode.bytes, .unit])
    func replayingATraceWithItsFutureKeepsEveryInvariant(kind: PolicyKind, mode: SizeMode) {
        // Given a random trace, replayed with each request's true next use (what Belady needs)
        let trace = TraceFixtures.makeNumericTrace(count: 2_000, seed: 3)
        let cache = Fixtures.makeCache(kind, capacity: mode == .unit ? 200 : 4_000_000, sizeMode: mode)
        // Then the invariants hold after every request and some requests hit
        let hits = cache.replay(trace).count { $0 }
        #expect(hits > 0)
        #expect(cache.totalCost <= cache.configuration.capacity)
    }

    // Cacheus keeps new entries in SR, half the capacity, and drops the oldest to its history
    // beyond that (CacheusPolicyTests); CLOCK-Pro stores only into half the cache and never
    // evicts (ClockProPolicyTests).
    @Test func theRealClientsShapeOfKeysAndValuesWorksToo() {
        // String keys and byte payloads, as the client's memory tier will hold them.
        let cache = Cache<String, [UInt8], LRUPolicy>(configuration: CacheConfiguration(capacity: 10))
        let a = "https://x/photos/a/small.jpg"
        let b = "https://x/photos/b/small.jpg"
        let c = "https://x/photos/c/small.jpg"
        let admittedA = cache.insert([1, 2, 3], forKey: a, size: 3, at: 0)
        let admittedB = cache.insert([4, 5, 6, 7], forKey: b, size: 4, at: 0)
        let readA = cache.value(forKey: a, at: 1)
        let admittedC = cache.insert([8, 8, 8, 8], forKey: c, size: 4, at: 2)
        let readB = cache.value(forKey: b, at: 3)
        let removedA = cache.removeValue(forKey: a)
        #expect(admittedA && admittedB && admittedC)
        #expect(readA == [1, 2, 3])
        #expect(readB == nil)  // b was least recently used when c needed room
        #expect(removedA == [1, 2, 3])
        cache.checkInvariants()
    }
}

@Suite("Removal notifications")
struct RemovalNotificationTests {
    @Test func evictionsAndExpirationsAreReportedWithTheirKeyAndValue() {
        let cache = Cache<String, [UInt8], LRUPolicy>(configuration: CacheConfiguration(capacity: 10, ttl: 100))
        nonisolated(unsafe) var removed: [(String, [UInt8]?, RemovalReason)] = []
        cache.onRemoval = { removed.append(($0, $1, $2)) }
        cache.insert([1], forKey: "a", size: 5, at: 0)
        cache.insert([2], forKey: "b", size: 5, at: 50)
        cache.insert([3], forKey: "c", size: 5, at: 60)  // evicts a
        _ = cache.value(forKey: "b", at: 150)  // b expired at 150
        cache.removeValue(forKey: "c")  // the caller's own removal: not reported
        #expect(removed.map(\.0) == ["a", "b"])
        #expect(removed.map(\.1) == [[1], [2]])
        #expect(removed.map(\.2) == [.evicted, .expired])
    }
}

/// Trimming (memory pressure, the background) between insertions, for every policy: the trim
/// reaches its target and the policy's bookkeeping stays right, whatever it last saw (the
/// workload is `TrimContract`'s, in the contract module).
@Suite("Trims between insertions, for every policy")
struct TrimContractTests {
    @Test(arguments: PolicyKind.allCases)
    func trimsReachTheirTargetAndKeepTheInvariants(kind: PolicyKind) {
        #expect(TrimContract.check(kind))
    }
}
