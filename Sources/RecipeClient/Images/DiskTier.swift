import CacheEngine

/// The disk tier of the image pipeline: image bytes in a `DiskStore` (SQLite), eviction order and
/// capacity in a CacheLab engine `Cache<String, Int, Policy>`, so any policy orders the disk.
///
/// The engine holds each unpinned URL with its size in bytes as the value and cost; the bytes
/// live only in SQLite. When the engine drops an entry on its own (evicted to make room, or
/// expired) its row is deleted, in the same transaction as the insert that caused it.
///
/// - **Relaunch.** Opening rebuilds the engine from `DiskStore.entries()`, inserting every
///   unpinned row in order of last use (gets and puts, counted by the store) at its last-access
///   time. The client simulation (`Replay.simulate(_:client:)`) models this rebuild. LRU order (and the `size` and
///   `ttl` presets' LRU order) therefore survives a relaunch exactly. Other policies lose what
///   only they remember: FIFO's insertion order becomes last-access order, LFU's frequencies all
///   restart at 1 (ties broken by last access), and a fixed TTL counts from the last access, not
///   the first insertion. Rows that no longer fit a smaller capacity are evicted, and expired
///   rows swept, at open.
/// - **Pins.** Pinned entries are kept out of the engine (`PinnedEntries`), so they are never
///   evicted and count against their own budget, not the capacity; SQLite marks them
///   `pinned = 1` and they stay pinned across launches (kept at open even past a smaller budget).
///   Unpinning records a use of the row, so its place in the order survives a relaunch.
/// - **Corruption.** A read whose row fails its length or checksum check is a miss: the store
///   deletes the row and the tier removes the entry from the engine.
/// - **Failures.** If SQLite fails while the engine evicted entries, their rows may stay on disk
///   unaccounted for until the next open adopts them again; a failed write never leaves the new
///   entry in the engine.
///
/// - Complexity: O(1) engine work per call plus one indexed SQLite statement (two for a hit: read,
///   then record the access); O(n) at open for n stored rows.
/// - Invariant: the SQLite rows are exactly the engine's keys plus the pinned ones, and
///   `totalBytes` is the sum of their sizes.
///
/// Not `Sendable`: one owner, the pipeline's actor. Only one tier may use a store file at a time.
public final class DiskTier<Policy: EvictionPolicy>: ImageTier {
    public let store: DiskStore
    private let engine: Cache<String, Int, Policy>
    private let dropped = DroppedEntries()
    private var pins: PinnedEntries<String, Void>
    private var unpinnedBytes = 0
    /// The most bytes the tier held at once since it opened.
    public private(set) var peakCost = 0

    /// Opens the tier over `store`, rebuilding the eviction order from its rows, and sweeping
    /// entries expired at `now`.
    /// `Policy` must not need the future (Belady): a client has none (`PolicyKind.openDiskTier`
    /// checks it and throws).
    ///
    /// - Parameters:
    ///   - store: the open SQLite store holding the rows.
    ///   - configuration: the engine's capacity, unit and policy parameters.
    ///   - now: milliseconds since 1970; entries expired by then are swept.
    ///   - pinBudget: what newly pinned images may cost together, in the capacity's unit.
    ///   - keepingPins: the photos still pinned (the favourites'); a row pinned for any other is
    ///     unpinned and takes its place in the order. `nil` keeps every pin.
    public init(
        store: DiskStore, configuration: CacheConfiguration, at now: Int64, pinBudget: Int = .max,
        keepingPins: Set<String>? = nil
    ) throws {
        precondition(
            !Policy.needsFuture, "DiskTier: \(Policy.self) needs each request's next use, which a client does not have")
        self.store = store
        let rows = try store.entries()
        engine = Cache(configuration: configuration, expectedCount: max(rows.count, 64))
        pins = PinnedEntries(budget: pinBudget)
        engine.onRemoval = { [dropped] url, size, _ in
            dropped.urls.append(url)
            dropped.bytes += size ?? 0
        }
        var refused: [String] = []
        var released: [String] = []
        for row in rows {
            if row.pinned, keepingPins?.contains(row.url) ?? true {
                pins.set(row.url, (), cost: configuration.cost(ofSize: row.size), size: row.size)
                continue
            }
            if row.pinned { released.append(row.url) }
            if engine.restore(row.size, forKey: row.url, size: row.size, at: row.lastAccess) {
                unpinnedBytes += row.size
            } else {
                refused.append(row.url)
            }
        }
        engine.sweep(limit: configuration.capacity, trimRatio: 1, at: now)
        for url in released { try store.setPinned(url: url, false) }
        try store.remove(urls: refused + takeDropped())
        peakCost = totalBytes
    }

    /// Opens the store file at `path` (creating it if missing) and the tier over it.
    public convenience init(path: String, configuration: CacheConfiguration, at now: Int64) throws {
        try self.init(store: DiskStore(path: path), configuration: configuration, at: now)
    }

    public var configuration: CacheConfiguration { engine.configuration }
    public var count: Int { engine.count + pins.count }
    public var totalBytes: Int { unpinnedBytes + pins.bytes }
    public var pinnedBytes: Int { pins.bytes }
    public var peakPinnedBytes: Int { pins.peakBytes }
    public var pinRefusals: Int { pins.refusals }
    /// Entries evicted to make room since open (rebuilding at open included).
    public var evictions: Int { engine.evictions }
    public var notAdmitted: Int { engine.notAdmitted }
    /// Entries dropped because their lifetime was over since open.
    public var expirations: Int { engine.expirations }
    /// The unpinned URLs, next victim first (as far as the policy can tell).
    public var evictionOrder: [String] { engine.storedKeys }
    /// The pinned URLs, in no particular order.
    public var pinnedURLs: [String] { Array(pins.keys) }

    public func isPinned(_ url: String) -> Bool { pins.contains(url) }

    public func contains(_ url: String, at now: Int64) -> Bool {
        pins.contains(url) || engine.isLive(url, at: now)
    }

    public func sweep(limit: Int, trimRatio: Double, at now: Int64) throws {
        engine.sweep(limit: limit, trimRatio: trimRatio, at: now)
        try store.remove(urls: takeDropped())
    }

    public func trim(toCost target: Int) throws {
        engine.trim(toCost: target)
        try store.remove(urls: takeDropped())
    }

    public func value(forKey url: String, at now: Int64) throws -> [UInt8]? {
        if pins.contains(url) {
            if let bytes = try store.get(url: url, at: now) { return bytes }
            pins.remove(url)
            return nil
        }
        guard engine.value(forKey: url, at: now) != nil else {
            // The lookup may have found the entry expired: delete its row.
            try store.remove(urls: takeDropped())
            return nil
        }
        // A hit may evict too (W-TinyLFU's probation segment overflowing): delete those rows.
        if !dropped.urls.isEmpty { try store.remove(urls: takeDropped()) }
        if let bytes = try store.get(url: url, at: now) { return bytes }
        // The row was corrupt (the store deleted it) or deleted behind the tier's back.
        if let size = engine.removeValue(forKey: url) { unpinnedBytes -= size }
        return nil
    }

    @discardableResult
    public func insert(_ bytes: [UInt8], forKey url: String, at now: Int64, pixels: UInt32 = 0) throws -> Bool {
        if pins.contains(url) {
            try store.put(url: url, bytes: bytes, at: now)
            pins.set(url, (), cost: configuration.cost(ofSize: bytes.count), size: bytes.count)
            return true
        }
        if let oldSize = engine.removeValue(forKey: url) { unpinnedBytes -= oldSize }
        guard engine.insert(bytes.count, forKey: url, size: bytes.count, at: now) else {
            // Too big to keep, or declined by the policy (S3-FIFO may evict before declining): an
            // earlier image for the same URL goes too, and so does anything evicted for it.
            try store.remove(urls: takeDropped() + [url])
            return false
        }
        unpinnedBytes += bytes.count
        let victims = takeDropped()
        peakCost = max(peakCost, totalBytes)
        do {
            try store.put(url: url, bytes: bytes, at: now, removing: victims)
        } catch {
            // Nothing was written: the new entry must not be served, and the victims, already out
            // of the engine, should not linger on disk.
            if let size = engine.removeValue(forKey: url) { unpinnedBytes -= size }
            try? store.remove(urls: victims)
            throw error
        }
        return true
    }

    public func remove(_ url: String) throws {
        if pins.remove(url) == nil, let size = engine.removeValue(forKey: url) {
            unpinnedBytes -= size
        }
        try store.remove(url: url)
    }

    @discardableResult
    public func pin(_ url: String, at now: Int64) throws -> Bool {
        if pins.contains(url) { return true }
        guard engine.isLive(url, at: now), let cost = engine.cost(forKey: url), pins.admits(cost: cost) else {
            return false
        }
        guard try store.setPinned(url: url, true) else {
            // The row is gone from under the tier: forget the entry.
            if let size = engine.removeValue(forKey: url) { unpinnedBytes -= size }
            return false
        }
        let size = engine.removeValue(forKey: url) ?? 0
        unpinnedBytes -= size
        pins.set(url, (), cost: cost, size: size)
        return true
    }

    public func unpin(_ url: String, at now: Int64) throws {
        guard let size = pins[url]?.size else { return }
        try store.setPinned(url: url, false, at: now)
        pins.remove(url)
        if engine.restore(size, forKey: url, size: size, at: now) {
            unpinnedBytes += size
            try store.remove(urls: takeDropped())
        } else {
            try store.remove(urls: takeDropped() + [url])
        }
    }

    public func checkInvariants() throws {
        engine.checkInvariants()
        let rows = try store.entries()
        let engineKeys = Set(engine.storedKeys)
        precondition(
            engineKeys.isDisjoint(with: pins.keys), "DiskTier: a pinned URL is in the eviction engine")
        precondition(
            Set(rows.map(\.url)) == engineKeys.union(pins.keys),
            "DiskTier: \(rows.count) rows on disk but \(engineKeys.count) + \(pins.count) entries known")
        for row in rows {
            precondition(row.pinned == pins.contains(row.url), "DiskTier: pin of \(row.url) disagrees")
        }
        pins.checkInvariants("DiskTier")
        precondition(
            rows.reduce(0) { $0 + $1.size } == totalBytes,
            "DiskTier: totalBytes \(totalBytes) disagrees with the rows")
    }

    // The URLs the engine dropped on its own since the last call, their bytes subtracted.
    private func takeDropped() -> [String] {
        defer {
            dropped.urls.removeAll(keepingCapacity: true)
            dropped.bytes = 0
        }
        unpinnedBytes -= dropped.bytes
        return dropped.urls
    }
}

// What the engine's `onRemoval` reports, collected here rather than deleted on the spot: the
// hook cannot throw, and the deletions belong in the transaction of the insert that caused them.
// A separate object so the hook does not capture (and retain) the tier itself.
private final class DroppedEntries {
    var urls: [String] = []
    var bytes = 0
}
