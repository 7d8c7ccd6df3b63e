/// The contract every cache in cachelab honours, simulated or real.
///
/// One protocol serves the simulator (integer keys, no payload) and the real client's memory and
/// disk tiers (URL keys, image bytes), so that a policy measured in the lab is the policy shipped.
///
/// ## Rules
/// - **Hit.** A lookup is a hit when the key is present and not expired at the lookup's time. A hit
///   returns the stored value and tells the policy the entry was used. Anything else is a miss and
///   returns `nil`; a miss never changes what is stored, except that an expired entry found by the
///   lookup is removed and counted as an expiration.
/// - **Capacity.** In `.bytes` mode capacity counts the bytes of the stored entries, each costing the
///   size it was inserted with (a later request for the same key with another size does not change
///   it). In `.unit` mode every entry costs 1 and capacity counts entries.
/// - **Admission.** An entry that costs more than the capacity is not admitted and evicts nothing.
///   An entry that costs exactly the capacity is admitted.
/// - **Eviction.** Entries are evicted only to make room for an insertion, in the order the policy
///   chooses, until the new entry fits (or, with a trim ratio below 1, until the total falls to the
///   low-water mark `trimRatio × capacity`). Expired entries are removed before any live entry is
///   evicted. Nothing is evicted at any other time.
/// - **Time.** Every call that can observe expiry takes `at now:`, the request's time in
///   milliseconds. A cache never reads the wall clock, so replays are deterministic.
public protocol ImageCaching<Key, Value> {
    associatedtype Key: CacheKey
    associatedtype Value

    /// The limits this cache was built with.
    var configuration: CacheConfiguration { get }

    /// The number of entries stored.
    var count: Int { get }

    /// The cost of the entries stored: bytes in `.bytes` mode, entries in `.unit` mode.
    var totalCost: Int { get }

    /// Returns the value for `key` if it is present and not expired at `now` (a hit), else `nil`.
    mutating func value(forKey key: Key, at now: Int64) -> Value?

    /// Stores `value` under `key`, replacing any earlier entry, evicting as the rules say.
    ///
    /// - Returns: `false` when the entry costs more than the capacity and was not admitted.
    @discardableResult
    mutating func insert(_ value: Value, forKey key: Key, size: Int, at now: Int64) -> Bool

    /// Removes the entry for `key`, if any, and returns its value. Not counted as an eviction.
    @discardableResult
    mutating func removeValue(forKey key: Key) -> Value?

    /// Removes every entry (an app relaunch clears a memory tier). Not counted as evictions.
    mutating func removeAll()
}
