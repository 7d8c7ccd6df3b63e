import CacheEngine
import ClientModel

/// Trimming (memory pressure, the background) between insertions: the trim reaches its target
/// and the policy's bookkeeping stays right, whatever it last saw. Here, in the module compiled
/// with the core's settings, so that the engine's inlinable code it runs is optimized (in a test
/// module it would be specialized but not optimized, and take eight times the CPU).
public enum TrimContract {
    /// Runs 4,000 requests through a cache of `kind`, trimming to 0, 2,000 or 10,000 bytes now
    /// and then (sometimes just after an image too big to keep was refused), and checking every
    /// invariant after each step; returns whether every trim reached its target.
    public static func check(_ kind: PolicyKind) -> Bool {
        kind.withOrder(Workload(kind: kind))
    }

    private struct Workload: PolicyBody {
        let kind: PolicyKind

        func run<Policy: EvictionPolicy>(_ policy: Policy.Type) -> Bool {
            let cache = Cache<UInt64, Void, Policy>(
                configuration: kind.configuration(capacity: 20_000, sizeMode: .bytes), expectedCount: 64)
            var random = SplitMix64(seed: 7)
            for step in 0..<4_000 {
                let key = UInt64.random(in: 0..<300, using: &random)
                let now = Int64(step)
                if Policy.needsFuture { cache.upcoming(nextUse: now + Int64(random.next() % 500)) }
                if cache.value(forKey: key, at: now) == nil {
                    cache.insertAfterMiss((), forKey: key, size: Int(key % 7) * 40 + 10, at: now)
                }
                if random.next() % 50 == 0 {
                    // Now and then an image too big to keep was refused just before (ARC once
                    // trimmed by the refused one's size).
                    if random.next() % 2 == 0 { cache.insert((), forKey: 1_000_000, size: 30_000, at: now) }
                    let target = [0, 2_000, 10_000][Int(random.next() % 3)]
                    cache.trim(toCost: target)
                    guard cache.totalCost <= target else { return false }
                }
                cache.checkInvariants()
            }
            return true
        }
    }
}
