import CacheEngine
import ClientModel
import Testing

@testable import CacheLab

/// The simulated replay's hints (`PrefetchingPolicy.prefetch`, `prefetchHit`, `prefetchMiss`, the
/// victim hints and their lookahead) only load memory. A simulated run, which gives them on
/// every request, must count what the same requests count through the engine without them, for
/// every policy in both size modes. (The engine's own hints inside a burst of evictions,
/// `foreseeVictims` and the victims after it, run in both; the conformance runs check those.)
@Suite("Prefetch hints change nothing")
struct PrefetchHintTests {
    /// 20,000 requests over 3,000 keys, skewed towards the low ones so that some are hot, with
    /// sizes from 1 byte to 100 KB, so that one miss often evicts several entries back to back.
    static let trace: Trace = {
        var random = SplitMix64(seed: 23)
        var trace = Trace(name: "hints")
        for step in 0..<20_000 {
            let key = random.next() % (random.next() % 3_000 + 1)
            trace.append(time: Int64(step) * 1_000, key: key, size: 1 + Int((key &* 2_654_435_761) % 100_000))
        }
        return trace
    }()

    @Test(arguments: PolicyKind.allCases, [SizeMode.bytes, .unit])
    func aSimulatedRunCountsWhatRequestsWithoutHintsCount(kind: PolicyKind, mode: SizeMode) {
        let configuration = RunConfiguration(policy: kind, capacity: mode == .unit ? 300 : 15_000_000, sizeMode: mode)
        let simulated = Replay.simulate(Self.trace, configuration, latency: false)
        let plain = kind.withOrder(PlainReplay(trace: Self.trace, configuration: configuration.cacheConfiguration))
        // CLOCK-Pro stores only into half the cache and never evicts (ClockProPolicyTests); a
        // TTL cache's entries expire before it fills.
        #expect(plain.evictions + plain.expirations > 0 || kind == .clockpro, "nothing left: no victim was hinted")
        #expect(simulated.hits == plain.hits)
        #expect(simulated.evictions == plain.evictions)
        #expect(simulated.expirations == plain.expirations)
    }

    /// Each request through the engine as the simulator serves it, without a hint.
    private struct PlainReplay: PolicyBody {
        let trace: Trace
        let configuration: CacheConfiguration

        func run<Policy: EvictionPolicy>(_ policy: Policy.Type) -> (hits: Int, evictions: Int, expirations: Int) {
            let cache = Cache<UInt64, Void, Policy>(configuration: configuration, expectedCount: 16)
            let nextUses = trace.nextUses()
            var hits = 0
            for position in 0..<trace.count {
                let key = trace.keys[position]
                let size = trace.sizes[position]
                let now = trace.times[position]
                if Policy.needsFuture { cache.upcoming(nextUse: nextUses[position]) }
                if cache.value(forKey: key, size: size, at: now) != nil {
                    hits += 1
                } else {
                    cache.insertAfterMiss((), forKey: key, size: size, at: now)
                }
            }
            cache.checkInvariants()
            return (hits, cache.evictions, cache.expirations)
        }
    }
}
