/// The one engine behind every policy: it stores entries, counts their cost against the capacity,
/// refuses oversized entries, expires entries whose lifetime is over, and evicts in the order its
/// `Policy` chooses until a new entry fits. A policy only decides order.
///
/// The simulator uses `Cache<UInt64, Void, P>`; the client's tiers use `Cache<String, Bytes, P>`.
///
/// - Complexity: O(1) expected per lookup and insert, plus O(1) per eviction or expiration.
/// - Invariant: `totalCost` is the sum of the stored entries' costs and never exceeds the
///   capacity; the index, the policy and (with a TTL) the expiry list hold exactly the live slots.
public struct Cache<Key: CacheKey, Value, Policy: EvictionPolicy>: ImageCaching {
    public let configuration: CacheConfiguration
    public private(set) var totalCost = 0
    /// Entries evicted to make room.
    public private(set) var evictions = 0
    /// Entries removed because their lifetime was over.
    public private(set) var expirations = 0

    private var index: SlotIndex<Key>
    private var keys: [Key?] = []
    private var costs: [Int] = []
    private var values: [Value?] = []
    private var expiries: [Int64] = []
    private var freeSlots: [Int32] = []
    private var policy: Policy
    // With a TTL every entry's expiry is `now + ttl` at insertion (fixed) or at its last use
    // (sliding), so insertion or use order is expiry order: one list, oldest first.
    private var expiryLinks = SlotLinks()
    private var expiryOrder = SlotList()

    /// Creates an empty cache. `expectedCount` sizes the storage up front so that a replay does
    /// not grow it while it runs.
    public init(configuration: CacheConfiguration, expectedCount: Int = 1024) {
        self.configuration = configuration
        self.policy = Policy(configuration: configuration)
        self.index = SlotIndex(minimumCapacity: max(expectedCount, 16))
        reserveSlots(max(expectedCount, 16))
    }

    public var count: Int { index.count }

    /// Whether `key` is stored (expired or not), without touching the policy.
    public func contains(_ key: Key) -> Bool { index.slot(for: key) >= 0 }

    public mutating func value(forKey key: Key, at now: Int64) -> Value? {
        let slot = index.slot(for: key)
        guard slot >= 0 else { return nil }
        if let ttl = configuration.ttl {
            if expiries[Int(slot)] <= now {
                expirations += 1
                removeSlot(slot, notifyPolicy: true)
                return nil
            }
            if configuration.ttlMode == .sliding {
                expiries[Int(slot)] = now + ttl
                expiryOrder.moveToTail(slot, in: &expiryLinks)
            }
        }
        policy.accessed(slot)
        return values[Int(slot)]
    }

    @discardableResult
    public mutating func insert(_ value: Value, forKey key: Key, size: Int, at now: Int64) -> Bool {
        let existing = index.slot(for: key)
        if existing >= 0 { removeSlot(existing, notifyPolicy: true) }
        let cost = configuration.cost(ofSize: size)
        guard cost <= configuration.capacity else { return false }
        if totalCost + cost > configuration.capacity { makeRoom(for: cost, at: now) }

        let slot = takeSlot()
        index.insert(key, slot: slot)
        keys[Int(slot)] = key
        costs[Int(slot)] = cost
        values[Int(slot)] = value
        totalCost += cost
        if let ttl = configuration.ttl {
            expiries[Int(slot)] = now + ttl
            expiryOrder.append(slot, in: &expiryLinks)
        }
        policy.inserted(slot, cost: cost)
        return true
    }

    @discardableResult
    public mutating func removeValue(forKey key: Key) -> Value? {
        let slot = index.slot(for: key)
        guard slot >= 0 else { return nil }
        let value = values[Int(slot)]
        removeSlot(slot, notifyPolicy: true)
        return value
    }

    public mutating func removeAll() {
        index.removeAll()
        policy.removeAll()
        expiryOrder.removeAll()
        freeSlots.removeAll(keepingCapacity: true)
        for slot in keys.indices.reversed() {
            keys[slot] = nil
            values[slot] = nil
            freeSlots.append(Int32(slot))
        }
        totalCost = 0
    }

    // Expired entries go first, then live ones in the policy's order, until the new entry fits
    // (or, when trimming, until the total is down to the low-water mark).
    private mutating func makeRoom(for cost: Int, at now: Int64) {
        if configuration.ttl != nil {
            while !expiryOrder.isEmpty, expiries[Int(expiryOrder.head)] <= now {
                expirations += 1
                removeSlot(expiryOrder.head, notifyPolicy: true)
            }
            if totalCost + cost <= configuration.capacity { return }
        }
        // An entry too big for the low-water mark still fits under the capacity: trim just enough.
        let lowWater = configuration.lowWaterMark
        let target = cost > lowWater ? configuration.capacity : lowWater
        while totalCost + cost > target, count > 0 {
            let victim = policy.evict()
            evictions += 1
            removeSlot(victim, notifyPolicy: false)
        }
    }

    private mutating func removeSlot(_ slot: Int32, notifyPolicy: Bool) {
        if notifyPolicy { policy.removed(slot) }
        if configuration.ttl != nil { expiryOrder.remove(slot, in: &expiryLinks) }
        index.remove(keys[Int(slot)]!)
        keys[Int(slot)] = nil
        values[Int(slot)] = nil
        totalCost -= costs[Int(slot)]
        freeSlots.append(slot)
    }

    @inline(__always)
    private mutating func takeSlot() -> Int32 {
        if let slot = freeSlots.popLast() { return slot }
        reserveSlots(keys.count * 2)
        return freeSlots.removeLast()
    }

    // Grows every per-slot array to `slotCount` and hands the new slots out lowest first.
    private mutating func reserveSlots(_ slotCount: Int) {
        let old = keys.count
        guard slotCount > old else { return }
        keys.append(contentsOf: repeatElement(nil, count: slotCount - old))
        costs.append(contentsOf: repeatElement(0, count: slotCount - old))
        values.append(contentsOf: repeatElement(nil, count: slotCount - old))
        expiries.append(contentsOf: repeatElement(0, count: slotCount - old))
        expiryLinks.grow(to: slotCount)
        policy.grow(to: slotCount)
        freeSlots.reserveCapacity(slotCount)
        for slot in (old..<slotCount).reversed() { freeSlots.append(Int32(slot)) }
    }
}

extension Cache {
    /// Checks every invariant of the engine and its policy; stops with a message if one fails.
    public func checkInvariants() {
        index.checkInvariants()
        let live = Set(index.pairs.map(\.1))
        var sum = 0
        for (key, slot) in index.pairs {
            precondition(keys[Int(slot)] == key, "Cache: index and slot disagree on slot \(slot)")
            sum += costs[Int(slot)]
        }
        precondition(sum == totalCost, "Cache: totalCost \(totalCost) but entries cost \(sum)")
        precondition(totalCost <= configuration.capacity, "Cache: totalCost \(totalCost) over capacity")
        let policySlots = policy.checkedSlots()
        precondition(policySlots.count == live.count && Set(policySlots) == live,
                     "Cache: policy holds \(policySlots.count) slots, index \(live.count)")
        if configuration.ttl != nil {
            expiryOrder.checkInvariants(in: expiryLinks, name: "Cache.expiryOrder")
            let ordered = expiryOrder.slots(in: expiryLinks)
            precondition(Set(ordered) == live, "Cache: expiry list and index disagree")
            precondition(zip(ordered, ordered.dropFirst()).allSatisfy { expiries[Int($0)] <= expiries[Int($1)] },
                         "Cache: expiry list out of order")
        }
        precondition(freeSlots.count + live.count == keys.count, "Cache: a slot leaked")
    }

    /// The stored keys, next victim first (as far as the policy can tell). For tests and debugging.
    public var storedKeys: [Key] {
        policy.checkedSlots().compactMap { keys[Int($0)] }
    }
}
