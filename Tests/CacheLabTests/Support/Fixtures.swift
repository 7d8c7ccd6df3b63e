import CacheEngine
import CacheLabContracts
import ClientModel

@testable import CacheLab

/// Factories shared by the engine and policy tests.
enum Fixtures {
    /// A cache of `kind`'s order with `kind`'s defaults, checked after every operation
    /// (`CheckedCache`, made in the contract module, which is compiled with the core's settings).
    static func makeCache(
        _ kind: PolicyKind,
        capacity: Int = 100,
        sizeMode: SizeMode = .bytes,
        ttl: Int64? = nil,
        ttlMode: TTLMode = .fixed,
        trimRatio: Double? = nil,
        admission: AdmissionFilter? = nil
    ) -> CheckedCache {
        var configuration = kind.configuration(
            capacity: capacity, sizeMode: sizeMode, ttl: ttl, ttlMode: ttlMode, trimRatio: trimRatio)
        configuration.admission = admission
        return CheckedCache.make(kind, configuration: configuration)
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

    /// Requests every request of `trace` in turn, telling a policy that needs the future each
    /// one's true next use, and returns the hit flags (events are ignored).
    @discardableResult
    func replay(_ trace: Trace) -> [Bool] {
        script(nextUses: trace.nextUses())
        return (0..<trace.count).map { request(trace.keys[$0], size: trace.sizes[$0], at: trace.times[$0]) }
    }

    /// Replays `keys` as a trace of objects of `size` at time 0 (see `replay(_:)`).
    @discardableResult
    func replay(_ keys: [UInt64], size: Int = 1) -> [Bool] {
        var trace = Trace(name: "keys")
        for key in keys { trace.append(time: 0, key: key, size: size) }
        return replay(trace)
    }
}

extension Fixtures {
    /// A simulator cache of one policy type, for suites that look into that policy's queues
    /// (`cache.policy`); `kind` supplies the limits, as the registry would.
    static func makeCache<Policy: EvictionPolicy>(
        _ policy: Policy.Type, _ kind: PolicyKind, capacity: Int, sizeMode: SizeMode = .unit
    ) -> Cache<UInt64, Void, Policy> {
        Cache(configuration: kind.configuration(capacity: capacity, sizeMode: sizeMode), expectedCount: 4)
    }
}

extension Cache where Key == UInt64, Value == Void {
    /// A simulator request, invariants checked after it: lookup, insert on a miss. Returns
    /// whether it hit.
    @discardableResult
    func request(_ key: UInt64, size: Int = 1) -> Bool {
        defer { checkInvariants() }
        if value(forKey: key, size: size, at: 0) != nil { return true }
        insertAfterMiss((), forKey: key, size: size, at: 0)
        return false
    }

    /// Requests every key in turn and returns the hit flags.
    @discardableResult
    func requests(_ keys: some Sequence<UInt64>, size: Int = 1) -> [Bool] {
        keys.map { request($0, size: size) }
    }
}

extension Cache where Key == UInt64, Value == Void {
    /// Replays `keys` (with `sizes`, else 1 each) as the simulator does: a policy that needs the
    /// future is told each request's true next use, every lookup carries the request's size, and
    /// the invariants are checked after every request. Returns the hit flags.
    @discardableResult
    func replay(_ keys: [UInt64], sizes: [Int]? = nil) -> [Bool] {
        var trace = Trace(name: "keys")
        for (index, key) in keys.enumerated() { trace.append(time: 0, key: key, size: sizes?[index] ?? 1) }
        let nextUses = trace.nextUses()
        return (0..<trace.count).map { position in
            defer { checkInvariants() }
            if Policy.needsFuture { upcoming(nextUse: nextUses[position]) }
            if value(forKey: trace.keys[position], size: trace.sizes[position], at: 0) != nil { return true }
            insertAfterMiss((), forKey: trace.keys[position], size: trace.sizes[position], at: 0)
            return false
        }
    }
}
