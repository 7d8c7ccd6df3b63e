import CacheEngine
import CacheLab
import ClientModel

/// A simulated cache of one policy that checks every invariant after every operation, for the
/// engine's and the policies' tests. A class, so that `#expect(cache.request(...))` can call it.
///
/// It is not generic: `make` builds it inside the per-policy dispatch of this module, which is
/// compiled with the core's settings, so its operations are closures over an engine specialized
/// for its policy. A generic class reached through a protocol would run every check after every
/// operation unspecialized, looking up generic metadata at each step.
public final class CheckedCache {
    /// What the engine under the checks does, each call followed by its invariant check.
    private struct Engine {
        let needsFuture: Bool
        let count: () -> Int
        let totalCost: () -> Int
        let evictions: () -> Int
        let expirations: () -> Int
        let notAdmitted: () -> Int
        let storedKeys: () -> [UInt64]
        let upcoming: (Int64) -> Void
        /// The simulator's lookup, with the request's size (which a policy that resizes on a hit takes).
        let lookupSized: (UInt64, Int, Int64) -> Bool
        let lookup: (UInt64, Int64) -> Bool
        let insert: (UInt64, Int, Int64) -> Bool
        let remove: (UInt64) -> Bool
        let removeAll: () -> Void
    }

    public let configuration: CacheConfiguration
    private let engine: Engine
    private var nextUses: [Int64] = []
    private var served = 0
    private var random = SplitMix64(seed: 2_024)

    private init(configuration: CacheConfiguration, engine: Engine) {
        self.configuration = configuration
        self.engine = engine
    }

    /// A cache of `kind`'s order under `configuration`.
    public static func make(_ kind: PolicyKind, configuration: CacheConfiguration) -> CheckedCache {
        kind.withOrder(Maker(configuration: configuration))
    }

    private struct Maker: PolicyBody {
        let configuration: CacheConfiguration

        func run<Policy: EvictionPolicy>(_ policy: Policy.Type) -> CheckedCache {
            let cache = Cache<UInt64, Void, Policy>(configuration: configuration, expectedCount: 4)
            let engine = Engine(
                needsFuture: Policy.needsFuture,
                count: { cache.count },
                totalCost: { cache.totalCost },
                evictions: { cache.evictions },
                expirations: { cache.expirations },
                notAdmitted: { cache.notAdmitted },
                storedKeys: { cache.storedKeys },
                upcoming: { cache.upcoming(nextUse: $0) },
                lookupSized: { key, size, now in
                    defer { cache.checkInvariants() }
                    return cache.value(forKey: key, size: size, at: now) != nil
                },
                lookup: { key, now in
                    defer { cache.checkInvariants() }
                    return cache.value(forKey: key, at: now) != nil
                },
                insert: { key, size, now in
                    defer { cache.checkInvariants() }
                    return cache.insert((), forKey: key, size: size, at: now)
                },
                remove: { key in
                    defer { cache.checkInvariants() }
                    return cache.removeValue(forKey: key) != nil
                },
                removeAll: {
                    cache.removeAll()
                    cache.checkInvariants()
                })
            return CheckedCache(configuration: configuration, engine: engine)
        }
    }

    public var count: Int { engine.count() }
    public var totalCost: Int { engine.totalCost() }
    public var evictions: Int { engine.evictions() }
    public var expirations: Int { engine.expirations() }
    public var notAdmitted: Int { engine.notAdmitted() }
    public var storedKeys: [UInt64] { engine.storedKeys() }

    /// For a policy that needs the future: the next uses to tell it, one per `request` from now
    /// on. Without them (or past their end) each request is told a pseudo-random next use, which
    /// keeps every contract rule checkable; a replay of a trace gives the true ones.
    public func script(nextUses: [Int64]) {
        self.nextUses = nextUses
        served = 0
    }

    /// A simulator request: lookup with the request's size, and insert on a miss. Returns whether
    /// it hit.
    public func request(_ key: UInt64, size: Int, at now: Int64) -> Bool {
        if engine.needsFuture {
            let use = served < nextUses.count ? nextUses[served] : Int64(random.next() % 1_000) + Int64(served) + 1
            engine.upcoming(use)
            served += 1
        }
        if engine.lookupSized(key, size, now) { return true }
        _ = engine.insert(key, size, now)
        return false
    }

    public func lookup(_ key: UInt64, at now: Int64) -> Bool { engine.lookup(key, now) }
    public func insert(_ key: UInt64, size: Int, at now: Int64) -> Bool { engine.insert(key, size, now) }
    public func remove(_ key: UInt64) -> Bool { engine.remove(key) }
    public func removeAll() { engine.removeAll() }
}
