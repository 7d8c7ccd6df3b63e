/// A tier of the image pipeline that keeps whole images by their full URL.
///
/// ## Rules
/// - **Whole images only.** `insert` takes complete bytes (the pipeline checks Content-Length
///   first); a tier never stores or serves part of an image, and never serves bytes that fail its
///   integrity check: those read as a miss and the entry is dropped.
/// - **Hit.** `value(forKey:at:)` returns the bytes of a present, unexpired, intact entry and tells
///   the eviction policy it was used; anything else returns `nil`.
/// - **Capacity and eviction** follow `ImageCaching` (the tier's engine enforces them), except that
///   **pinned** entries (favourites) are never evicted or expired and count against the tier's pin
///   budget, not its capacity (`PinnedEntries`): `count` and `totalBytes` include them, the
///   capacity does not.
/// - **Time** is an input (`at now:`, milliseconds); a tier never reads the wall clock.
/// - **Errors.** A miss is `nil`; a failure of the storage underneath (disk full, read-only, not a
///   database) throws.
public protocol ImageTier: AnyObject {
    /// Entries stored, pinned ones included.
    var count: Int { get }

    /// Bytes stored, pinned entries included.
    var totalBytes: Int { get }

    /// The most the tier held at once since it opened, pinned entries included, in its unit (a
    /// memory tier's decoded bytes under `MemoryCost.decoded`).
    var peakCost: Int { get }

    /// Bytes of the pinned entries.
    var pinnedBytes: Int { get }

    /// The most bytes pinned at once since the tier opened.
    var peakPinnedBytes: Int { get }

    /// Pins refused since the tier opened because the entry did not fit the pin budget.
    var pinRefusals: Int { get }

    /// Entries evicted to make room since the tier opened.
    var evictions: Int { get }

    /// Misses the tier's admission filter refused since the tier opened.
    var notAdmitted: Int { get }

    /// Entries dropped because their lifetime was over since the tier opened.
    var expirations: Int { get }

    /// Whether `url` is pinned here.
    func isPinned(_ url: String) -> Bool

    /// Whether `value(forKey:at:)` would find `url` stored and unexpired at `now`, without
    /// reading it or telling the policy (integrity is checked only by the read).
    func contains(_ url: String, at now: Int64) -> Bool

    /// The bytes for `url` if stored, unexpired at `now` and intact (a hit), else `nil`.
    func value(forKey url: String, at now: Int64) throws -> [UInt8]?

    /// Stores the complete image `bytes` under `url`, replacing any earlier entry (a pinned entry
    /// stays pinned) and evicting as the capacity requires. `pixels` (packed `PixelSize`, 0 for
    /// unknown) is what a memory tier costing decoded bitmaps charges by; a disk tier ignores it.
    ///
    /// - Returns: `false` when the image is bigger than the capacity and was not stored (nor is
    ///   any earlier entry for `url` kept).
    @discardableResult
    func insert(_ bytes: [UInt8], forKey url: String, at now: Int64, pixels: UInt32) throws -> Bool

    /// Removes the entry for `url`, pinned or not, if any. Not counted as an eviction.
    func remove(_ url: String) throws

    /// Pins the entry stored for `url` and alive at `now`: it is never evicted or expired until
    /// unpinned.
    ///
    /// - Returns: `false` when nothing alive is stored for `url` (pin after the image is stored),
    ///   or when it does not fit the pin budget (counted in `pinRefusals`; it stays cached as
    ///   usual).
    @discardableResult
    func pin(_ url: String, at now: Int64) throws -> Bool

    /// Unpins `url`: it becomes the most recently used entry at `now`, counted against the
    /// capacity again, which may evict others (or drop it, if it alone exceeds the capacity).
    func unpin(_ url: String, at now: Int64) throws

    /// Removes the expired entries, then, if the unpinned entries cost more than `limit`, evicts
    /// in the policy's order down to `limit × trimRatio` (a sweep at launch or in the background).
    func sweep(limit: Int, trimRatio: Double, at now: Int64) throws

    /// Evicts unpinned entries in the policy's order until they cost at most `target` (memory
    /// pressure, or the app going to the background).
    func trim(toCost target: Int) throws

    /// Checks that the tier's bookkeeping agrees with what it stores; stops with a message if not.
    func checkInvariants() throws
}

extension ImageTier {
    /// Stores an image whose pixels are not known (costed by its bytes).
    @discardableResult
    public func insert(_ bytes: [UInt8], forKey url: String, at now: Int64) throws -> Bool {
        try insert(bytes, forKey: url, at: now, pixels: 0)
    }
}
