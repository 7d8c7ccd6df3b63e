/// What a policy decides: the order in which entries are evicted. Nothing else.
///
/// The engine (`Cache`) owns keys, sizes, capacity, admission and expiry, and tells the policy
/// about every entry that comes, is used, or goes, by slot number. A policy keeps its own
/// per-slot metadata in arrays indexed by slot and must not allocate on these calls once
/// `grow(to:)` has made room.
///
/// - Slots are dense small integers handed out by the engine; a slot is live from `inserted` until
///   `removed` or until `evict()` returns it.
public protocol EvictionPolicy {
    /// Creates an empty policy for a cache with the given limits.
    init(configuration: CacheConfiguration)

    /// Makes room for slot numbers `0..<slotCount`. Called before any slot in that range is used.
    mutating func grow(to slotCount: Int)

    /// A new entry was stored in `slot`, costing `cost`.
    mutating func inserted(_ slot: Int32, cost: Int)

    /// The entry in `slot` was hit.
    mutating func accessed(_ slot: Int32)

    /// The entry in `slot` is leaving for a reason other than eviction (expiry, removal).
    mutating func removed(_ slot: Int32)

    /// Chooses the next entry to evict, forgets it, and returns its slot. Called only when the
    /// policy holds at least one entry.
    mutating func evict() -> Int32

    /// Forgets every entry.
    mutating func removeAll()

    /// The live slots the policy holds, next victim first where the policy has a simple order,
    /// after checking its own structure (stops the program with a message if it is broken).
    func checkedSlots() -> [Int32]
}
