import CacheEngine

/// One tier of a simulated client: a `Cache` whose policy type is erased behind closures made
/// where that type is known (`PolicyKind.withOrder`), so every call runs code specialized for
/// the tier's policy. A client holds two tiers of any two policies; erasing each on its own
/// costs one specialization per policy and tier, where specializing the pair would cost one per
/// pair of policies (27 × 27), and opening the types at run time would run unspecialized
/// generic code. A class: a request reaches its closures through one reference, where copying
/// a struct of fourteen closures out of its owner retained and released each of them.
final class ClientTierCache {
    let configuration: CacheConfiguration
    let value: (_ key: UInt64, _ now: Int64) -> Int?
    let insertAfterMiss: (_ size: Int, _ key: UInt64, _ now: Int64) -> Bool
    let restore: (_ size: Int, _ key: UInt64, _ now: Int64) -> Bool
    let removeValue: (_ key: UInt64) -> Int?
    let isLive: (_ key: UInt64, _ now: Int64) -> Bool
    let cost: (_ key: UInt64) -> Int?
    let totalCost: () -> Int
    let removeAll: () -> Void
    let restartAdmission: () -> Void
    let trim: (_ target: Int) -> Void
    let sweep: (_ limit: Int, _ trimRatio: Double, _ now: Int64) -> Void
    /// Evictions, expirations and misses not admitted so far.
    let counts: () -> (evictions: Int, expirations: Int, notAdmitted: Int)
    /// Sets the cache's `onRemoval`.
    let observeRemovals: (_ observer: @escaping (UInt64) -> Void) -> Void

    /// A tier of `configuration` run by `policy`: specialized, through `PolicyKind.withOrder`.
    static func make(policy: PolicyKind, configuration: CacheConfiguration) -> ClientTierCache {
        policy.withOrder(Factory(configuration: configuration))
    }

    /// The tier around `cache`. Called where `Policy` is a concrete type, so the closures are
    /// made, and run, specialized for it.
    @inline(__always)
    private init<Policy: EvictionPolicy>(_ cache: Cache<UInt64, Int, Policy>) {
        configuration = cache.configuration
        value = { key, now in cache.value(forKey: key, at: now) }
        insertAfterMiss = { size, key, now in cache.insertAfterMiss(size, forKey: key, size: size, at: now) }
        restore = { size, key, now in cache.restore(size, forKey: key, size: size, at: now) }
        removeValue = { key in cache.removeValue(forKey: key) }
        isLive = { key, now in cache.isLive(key, at: now) }
        cost = { key in cache.cost(forKey: key) }
        totalCost = { cache.totalCost }
        removeAll = { cache.removeAll() }
        restartAdmission = { cache.restartAdmission() }
        trim = { target in cache.trim(toCost: target) }
        sweep = { limit, trimRatio, now in _ = cache.sweep(limit: limit, trimRatio: trimRatio, at: now) }
        counts = { (cache.evictions, cache.expirations, cache.notAdmitted) }
        observeRemovals = { observer in cache.onRemoval = { key, _, _ in observer(key) } }
    }

    private struct Factory: PolicyBody {
        let configuration: CacheConfiguration

        func run<Policy: EvictionPolicy>(_ policy: Policy.Type) -> ClientTierCache {
            ClientTierCache(
                Cache<UInt64, Int, Policy>(
                    configuration: configuration, expectedCount: Self.expectedCount(configuration)))
        }

        // Room made up front: the configuration's guess (`initialEntries`: in bytes, a 4 KiB
        // entry per 4 KiB of capacity), but at most 1,024 entries; a tier that holds more grows
        // (the order slots are handed out in, and so every replay, is the same). A client's
        // traces hold hundreds to thousands of photos, where the guess for a memory tier of
        // 161 MB is 39,321 entries, written for each of `tune`'s cells; no client figure
        // reports the bookkeeping's bytes.
        static func expectedCount(_ configuration: CacheConfiguration) -> Int {
            min(configuration.initialEntries, 1_024)
        }
    }
}
