import CacheLab

/// The memory tier of the image pipeline: image bytes in a CacheLab engine
/// `Cache<String, [UInt8], Policy>`, so any policy orders it, under a cost limit in bytes.
///
/// - **Pins.** Pinned entries (favourites) are kept beside the engine, so they are never evicted
///   or expired and do not count against the capacity.
/// - **Lifetime.** Nothing persists: a relaunch starts with an empty memory tier.
///
/// - Complexity: O(1) expected per call.
/// - Invariant: `totalBytes` is the sum of the engine's costs and the pinned images' sizes.
///
/// Not `Sendable`: one owner, the pipeline's actor.
public final class MemoryTier<Policy: EvictionPolicy>: ImageTier {
    private let engine: Cache<String, [UInt8], Policy>
    private var pinned: [String: [UInt8]] = [:]
    private var pinnedBytes = 0

    /// Creates an empty tier. `Policy` must not need the future (Belady): a client has none
    /// (`PolicyKind.makeMemoryTier` and `ImagePipeline` check it and throw).
    public init(configuration: CacheConfiguration, expectedCount: Int = 1_024) {
        precondition(
            !Policy.needsFuture,
            "MemoryTier: \(Policy.self) needs each request's next use, which a client does not have")
        engine = Cache(configuration: configuration, expectedCount: expectedCount)
    }

    public var configuration: CacheConfiguration { engine.configuration }
    public var count: Int { engine.count + pinned.count }
    public var totalBytes: Int { engine.totalCost + pinnedBytes }
    /// Entries evicted to make room (trims included).
    public var evictions: Int { engine.evictions }
    /// Entries dropped because their lifetime was over.
    public var expirations: Int { engine.expirations }

    public func contains(_ url: String, at now: Int64) -> Bool {
        pinned[url] != nil || engine.isLive(url, at: now)
    }

    public func value(forKey url: String, at now: Int64) -> [UInt8]? {
        pinned[url] ?? engine.value(forKey: url, at: now)
    }

    @discardableResult
    public func insert(_ bytes: [UInt8], forKey url: String, at now: Int64) -> Bool {
        if let old = pinned[url] {
            pinned[url] = bytes
            pinnedBytes += bytes.count - old.count
            return true
        }
        guard engine.insert(bytes, forKey: url, size: bytes.count, at: now) else {
            _ = engine.removeValue(forKey: url)
            return false
        }
        return true
    }

    public func remove(_ url: String) {
        if let old = pinned.removeValue(forKey: url) {
            pinnedBytes -= old.count
        } else {
            _ = engine.removeValue(forKey: url)
        }
    }

    @discardableResult
    public func pin(_ url: String) -> Bool {
        if pinned[url] != nil { return true }
        guard let bytes = engine.removeValue(forKey: url) else { return false }
        pinned[url] = bytes
        pinnedBytes += bytes.count
        return true
    }

    public func unpin(_ url: String, at now: Int64) {
        guard let bytes = pinned.removeValue(forKey: url) else { return }
        pinnedBytes -= bytes.count
        engine.insert(bytes, forKey: url, size: bytes.count, at: now)
    }

    public func sweep(limit: Int, trimRatio: Double, at now: Int64) {
        engine.sweep(limit: limit, trimRatio: trimRatio, at: now)
    }

    /// Evicts in the policy's order until the unpinned entries cost at most `target` (the app went
    /// to the background, or the system warned of low memory).
    public func trim(toCost target: Int) {
        engine.trim(toCost: target)
    }

    public func checkInvariants() {
        engine.checkInvariants()
        precondition(
            Set(engine.storedKeys).isDisjoint(with: pinned.keys), "MemoryTier: a pinned URL is in the eviction engine")
        precondition(pinnedBytes == pinned.values.reduce(0) { $0 + $1.count }, "MemoryTier: pinned bytes disagree")
    }
}

extension PolicyKind {
    /// A memory tier ordered by this policy, as an existential: the policy is chosen at run time.
    ///
    /// - Throws: `PolicyError.needsFuture` for a policy that needs the future (Belady).
    public func makeMemoryTier(
        configuration: CacheConfiguration, expectedCount: Int = 1_024
    ) throws(PolicyError) -> any ImageTier {
        try requireOnline(for: "a client's memory tier")
        return withOrder(MemoryTierMaker(configuration: configuration, expectedCount: expectedCount))
    }
}

private struct MemoryTierMaker: PolicyBody {
    let configuration: CacheConfiguration
    let expectedCount: Int

    func run<Policy: EvictionPolicy>(_ policy: Policy.Type) -> any ImageTier {
        MemoryTier<Policy>(configuration: configuration, expectedCount: expectedCount)
    }
}
