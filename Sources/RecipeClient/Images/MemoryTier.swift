import CacheEngine
import ClientModel

/// The memory tier of the image pipeline: image bytes in a CacheLab engine
/// `Cache<String, [UInt8], Policy>`, so any policy orders it, under a cost limit in bytes.
///
/// - **Pins.** Pinned entries (favourites) are kept beside the engine (`PinnedEntries`), so they
///   are never evicted or expired and count against their own budget, not the capacity.
/// - **Lifetime.** Nothing persists: a relaunch starts with an empty memory tier.
/// - **Cost.** An image costs its decoded bitmap (`MemoryCost.decoded`: width × height × 4, when
///   the caller gives its pixels) or its encoded bytes; `totalBytes` counts what it costs.
///
/// - Complexity: O(1) expected per call.
/// - Invariant: `totalBytes` is the sum of the engine's costs and the pinned images' sizes (in
///   bytes mode).
///
/// Not `Sendable`: one owner, the pipeline's actor.
public final class MemoryTier<Policy: EvictionPolicy>: ImageTier {
    /// An image and what it costs in memory (its decoded or encoded bytes).
    private struct Stored {
        var bytes: [UInt8]
        var size: Int
    }

    private let engine: Cache<String, Stored, Policy>
    private var pins: PinnedEntries<String, [UInt8]>
    /// What an image costs here.
    public let memoryCost: MemoryCost
    /// The most the tier held at once (engine and pins), in its unit.
    public private(set) var peakCost = 0
    /// The most one image may cost to be stored (Nuke's: under 10 % of the limit).
    public let largestEntry: Int

    /// Creates an empty tier. `Policy` must not need the future (Belady): a client has none
    /// (`PolicyKind.makeMemoryTier` and `ImagePipeline` check it and throw).
    ///
    /// - Parameters:
    ///   - configuration: the engine's capacity, unit and policy parameters.
    ///   - expectedCount: entries the tier is sized for up front.
    ///   - pinBudget: what pinned images may cost together, in the capacity's unit.
    ///   - cost: what an image costs: its decoded bitmap when its pixels are given, or its bytes.
    ///   - largestEntry: the most one image may cost to be stored.
    public init(
        configuration: CacheConfiguration, expectedCount: Int = 1_024, pinBudget: Int = .max,
        cost: MemoryCost = .decoded, largestEntry: Int = .max
    ) {
        precondition(
            !Policy.needsFuture,
            "MemoryTier: \(Policy.self) needs each request's next use, which a client does not have")
        engine = Cache(configuration: configuration, expectedCount: expectedCount)
        pins = PinnedEntries(budget: pinBudget)
        memoryCost = cost
        self.largestEntry = largestEntry
    }

    public var configuration: CacheConfiguration { engine.configuration }
    public var count: Int { engine.count + pins.count }
    public var totalBytes: Int { engine.totalCost + pins.bytes }
    public var pinnedBytes: Int { pins.bytes }
    public var peakPinnedBytes: Int { pins.peakBytes }
    public var pinRefusals: Int { pins.refusals }
    /// Entries evicted to make room (trims included).
    public var evictions: Int { engine.evictions }
    public var notAdmitted: Int { engine.notAdmitted }
    /// Entries dropped because their lifetime was over.
    public var expirations: Int { engine.expirations }

    public func isPinned(_ url: String) -> Bool { pins.contains(url) }

    public func contains(_ url: String, at now: Int64) -> Bool {
        pins.contains(url) || engine.isLive(url, at: now)
    }

    public func value(forKey url: String, at now: Int64) -> [UInt8]? {
        pins[url]?.value ?? engine.value(forKey: url, at: now)?.bytes
    }

    @discardableResult
    public func insert(_ bytes: [UInt8], forKey url: String, at now: Int64, pixels: UInt32 = 0) -> Bool {
        let size = memoryCost.bytes(size: bytes.count, pixels: pixels)
        if pins.contains(url) {
            pins.set(url, bytes, cost: configuration.cost(ofSize: size), size: size)
            return true
        }
        guard size <= largestEntry, engine.insert(Stored(bytes: bytes, size: size), forKey: url, size: size, at: now)
        else {
            _ = engine.removeValue(forKey: url)
            return false
        }
        peakCost = max(peakCost, engine.totalCost + pins.cost)
        return true
    }

    public func remove(_ url: String) {
        if pins.remove(url) == nil {
            _ = engine.removeValue(forKey: url)
        }
    }

    @discardableResult
    public func pin(_ url: String, at now: Int64) -> Bool {
        if pins.contains(url) { return true }
        guard engine.isLive(url, at: now), let cost = engine.cost(forKey: url), pins.admits(cost: cost),
            let stored = engine.removeValue(forKey: url)
        else { return false }
        pins.set(url, stored.bytes, cost: cost, size: stored.size)
        return true
    }

    public func unpin(_ url: String, at now: Int64) {
        guard let entry = pins.remove(url) else { return }
        engine.restore(Stored(bytes: entry.value, size: entry.size), forKey: url, size: entry.size, at: now)
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
            Set(engine.storedKeys).isDisjoint(with: pins.keys), "MemoryTier: a pinned URL is in the eviction engine")
        pins.checkInvariants("MemoryTier")
    }
}
