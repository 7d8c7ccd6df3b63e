/// The entries a tier keeps outside its eviction engine because a person favourited them: never
/// evicted or expired, counted against a budget of their own, not against the tier's capacity.
///
/// ## Rules (the simulator's client and the real tiers keep them alike)
/// - **Pinning** moves a stored entry out of the engine when its cost fits beside the pinned ones
///   (`admits(cost:)`); one that does not fit stays in the engine, cached as usual, and counts as
///   a refusal.
/// - **Unpinning** hands the entry back to the engine, as used at that moment.
/// - **Budget** is in the engine's unit (bytes, or objects in unit mode); pins already held when
///   the budget shrinks (a disk reopened with a smaller one) are kept.
///
/// - Invariant: `cost` and `bytes` are the sums of the entries' costs and sizes; `peakBytes` is
///   the most `bytes` has been.
public struct PinnedEntries<Key: Hashable, Value> {
    /// What one pinned entry holds: its value, its cost in the budget's unit and its size in bytes.
    public struct Entry {
        public var value: Value
        public var cost: Int
        public var size: Int

        package init(value: Value, cost: Int, size: Int) {
            self.value = value
            self.cost = cost
            self.size = size
        }
    }

    /// The most the pinned entries may cost together.
    public let budget: Int
    /// What the pinned entries cost together, in the budget's unit.
    public package(set) var cost = 0
    /// Their sizes in bytes.
    public package(set) var bytes = 0
    /// The most bytes pinned at once.
    public package(set) var peakBytes = 0
    /// Pins refused because the entry did not fit the budget.
    public package(set) var refusals = 0
    @usableFromInline package var entries: [Key: Entry] = [:]

    public init(budget: Int) {
        precondition(budget >= 0, "a pin budget cannot be negative")
        self.budget = budget
    }

    public var count: Int { entries.count }
    public var keys: Dictionary<Key, Entry>.Keys { entries.keys }

    @inlinable public func contains(_ key: Key) -> Bool { !entries.isEmpty && entries[key] != nil }

    public subscript(key: Key) -> Entry? { entries[key] }

    /// Whether an entry costing `cost` fits beside those pinned; a `false` counts as a refusal.
    public mutating func admits(cost: Int) -> Bool {
        guard self.cost + cost <= budget else {
            refusals += 1
            return false
        }
        return true
    }

    /// Adds or replaces `key`'s entry, whatever the budget (check `admits(cost:)` first when pinning).
    public mutating func set(_ key: Key, _ value: Value, cost: Int, size: Int) {
        if let old = entries.updateValue(Entry(value: value, cost: cost, size: size), forKey: key) {
            self.cost -= old.cost
            bytes -= old.size
        }
        self.cost += cost
        bytes += size
        peakBytes = max(peakBytes, bytes)
    }

    /// Removes `key`'s entry and returns it, or nil if it was not pinned.
    @discardableResult
    public mutating func remove(_ key: Key) -> Entry? {
        guard let old = entries.removeValue(forKey: key) else { return nil }
        cost -= old.cost
        bytes -= old.size
        return old
    }

    /// Drops every entry (a memory tier at relaunch); the peak and the refusals are kept.
    public mutating func removeAll() {
        entries.removeAll(keepingCapacity: true)
        cost = 0
        bytes = 0
    }

    /// Checks the sums; stops with `owner` in the message if they are wrong.
    public func checkInvariants(_ owner: String) {
        precondition(cost == entries.values.reduce(0) { $0 + $1.cost }, "\(owner): pinned costs disagree")
        precondition(bytes == entries.values.reduce(0) { $0 + $1.size }, "\(owner): pinned bytes disagree")
        precondition(peakBytes >= bytes, "\(owner): pinned peak below pinned bytes")
    }
}
