@testable import CacheLab

/// Factories shared by the engine and policy tests.
enum Fixtures {
    /// A cache of `kind`'s order with `kind`'s defaults, checked after every operation.
    static func makeCache(
        _ kind: PolicyKind,
        capacity: Int = 100,
        sizeMode: SizeMode = .bytes,
        ttl: Int64? = nil,
        ttlMode: TTLMode = .fixed,
        trimRatio: Double? = nil
    ) -> any CheckedCache {
        kind.withOrder(
            MakeChecked(
                configuration: kind.configuration(
                    capacity: capacity, sizeMode: sizeMode, ttl: ttl, ttlMode: ttlMode, trimRatio: trimRatio)))
    }

    struct MakeChecked: PolicyBody {
        let configuration: CacheConfiguration
        func run<Policy: EvictionPolicy>(_ policy: Policy.Type) -> any CheckedCache {
            Checked<Policy>(cache: Cache(configuration: configuration, expectedCount: 4))
        }
    }
}

/// A simulated cache that checks every invariant after every operation. A class, so that
/// `#expect(cache.request(...))` can call it.
protocol CheckedCache: AnyObject {
    var configuration: CacheConfiguration { get }
    var count: Int { get }
    var totalCost: Int { get }
    var evictions: Int { get }
    var expirations: Int { get }
    var storedKeys: [UInt64] { get }
    /// A simulator request: lookup, and insert on a miss. Returns whether it hit.
    func request(_ key: UInt64, size: Int, at now: Int64) -> Bool
    func lookup(_ key: UInt64, at now: Int64) -> Bool
    func insert(_ key: UInt64, size: Int, at now: Int64) -> Bool
    func remove(_ key: UInt64) -> Bool
    func removeAll()
}

final class Checked<Policy: EvictionPolicy>: CheckedCache {
    var cache: Cache<UInt64, Void, Policy>

    init(cache: Cache<UInt64, Void, Policy>) { self.cache = cache }

    var configuration: CacheConfiguration { cache.configuration }
    var count: Int { cache.count }
    var totalCost: Int { cache.totalCost }
    var evictions: Int { cache.evictions }
    var expirations: Int { cache.expirations }
    var storedKeys: [UInt64] { cache.storedKeys }

    func request(_ key: UInt64, size: Int, at now: Int64) -> Bool {
        if lookup(key, at: now) { return true }
        _ = insert(key, size: size, at: now)
        return false
    }

    func lookup(_ key: UInt64, at now: Int64) -> Bool {
        defer { cache.checkInvariants() }
        return cache.value(forKey: key, at: now) != nil
    }

    func insert(_ key: UInt64, size: Int, at now: Int64) -> Bool {
        defer { cache.checkInvariants() }
        return cache.insert((), forKey: key, size: size, at: now)
    }

    func remove(_ key: UInt64) -> Bool {
        defer { cache.checkInvariants() }
        return cache.removeValue(forKey: key) != nil
    }

    func removeAll() {
        cache.removeAll()
        cache.checkInvariants()
    }
}

extension CheckedCache {
    /// Requests every key in turn and returns the hit flags.
    @discardableResult
    func requests(_ keys: [UInt64], size: Int = 1, at now: Int64 = 0) -> [Bool] {
        keys.map { request($0, size: size, at: now) }
    }

    func request(_ key: UInt64, size: Int) -> Bool {
        request(key, size: size, at: 0)
    }
}
