/// Evicts the least recent entry of the lowest non-empty of eight LRU queues, an entry living in
/// queue ⌊log₂ of its use count⌋ (at most 7); an entry left unused for a lifetime drops one queue,
/// and an evicted key's count is remembered in a ghost FIFO, Qout, for when it comes back.
///
/// Multi-Queue (Zhou, Philbin and Li, "The multi-queue replacement algorithm for second level
/// buffer caches", USENIX ATC 2001) with libCacheSim's defaults and rules (`MQ`: 8 queues, lifetime
/// 10,000, Qout four times the capacity, all in the entries' costs, bytes or one each):
/// - Time is MQ's own: one tick per hit and per stored miss. An entry used or stored at time `t`
///   expires at `t + lifetime`.
/// - A hit adds one to the entry's count (saturating at `Int32.max`) and makes it the most recent
///   of its count's queue; a newcomer starts at 1, or at one more than the count Qout remembers
///   for it (a miss takes its key out of Qout before anything else, stored or not).
/// - After every hit and stored miss the clock ticks, and the least recent entry of each queue 1
///   to 7, in that order, moves to the most recent end of the queue below if it expired before
///   now (its count stays, so its next hit sends it back up), with a new expiry.
/// - An evicted entry's key and count join Qout, whose oldest ghosts leave while it is over its
///   share.
///
/// Matches libCacheSim's `MQ` exactly.
///
/// - Complexity: O(1) access, insert and evict (eight intrusive lists; Qout's ghosts in
///   `KeyedRecords` on a `CostedList`); no allocation once grown.
/// - Invariant: the queues hold exactly the live slots, each tagged with its queue; Qout's cost is
///   the sum of its ghosts' and at most its share.
public struct MQPolicy: AdmittingPolicy, PrefetchingPolicy {
    public static let libCacheSimName: String? = "MQ"
    public static let summary =
        "eight LRU queues by log₂ of the use count, demotion after a lifetime, a ghost FIFO of counts (libCacheSim MQ)"
    public static let relativeCost = 1.8
    @inlinable public static var victimLookahead: Int { 3 }

    @usableFromInline package static let queueCount = 8
    /// Ticks of MQ's clock an entry stays in its queue unused.
    @usableFromInline package static let lifetime: Int64 = 10_000
    /// Qout's share of the capacity.
    @usableFromInline package let ghostLimit: Int
    @usableFromInline package let links = SlotLinks()
    /// Queue 0 to 7, each least recent first.
    @usableFromInline package let queues = SlotArray<SlotList>(count: queueCount, filling: SlotList())
    @usableFromInline package let entries = SlotArray<Entry>(count: 0, filling: Entry())
    @usableFromInline package let costs = SlotArray<Int>(count: 0, filling: 0)
    @usableFromInline package let keys = SlotArray<UInt64>(count: 0, filling: 0)
    /// MQ's clock: one tick per hit and per stored miss.
    @usableFromInline package var time: Int64 = 0
    /// Qout: evicted keys with their counts, oldest first.
    @usableFromInline package var ghosts = KeyedRecords(filler: Int32(0))
    @usableFromInline package var ghostOrder = CostedList()
    /// The count Qout remembered for the miss being served, if it was there.
    @usableFromInline package var returningCount: Int32?
    /// Qout's oldest ghost when `prefetchVictim` last ran (a hint).
    @usableFromInline package var hintedGhost: Int32?

    @usableFromInline package struct Entry {
        @usableFromInline package var expiry: Int64 = 0
        @usableFromInline package var count: Int32 = 0
        /// The queue the entry is in; nil while it is in none.
        @usableFromInline package var queue: Int8?

        @inlinable package init(expiry: Int64 = 0, count: Int32 = 0, queue: Int8? = nil) {
            self.expiry = expiry
            self.count = count
            self.queue = queue
        }
    }

    @inlinable public init(configuration: CacheConfiguration) {
        // libCacheSim scales the capacity in double precision and truncates (to 64 unsigned bits:
        // past `Int.max` it is as good as unbounded).
        let scaled = Double(configuration.capacity) * 4.0
        ghostLimit = scaled < Double(Int.max) ? Int(scaled) : .max
    }

    @inlinable public mutating func grow(to slotCount: Int) {
        links.grow(to: slotCount)
        entries.grow(to: slotCount, filling: Entry())
        costs.grow(to: slotCount, filling: 0)
        keys.grow(to: slotCount, filling: 0)
    }

    @inline(__always)
    @inlinable public mutating func admit(_ key: UInt64, cost: Int) -> Admission {
        // libCacheSim takes the key out of Qout while looking it up, before asking whether it fits.
        returningCount = nil
        if let ghost = ghosts.find(key) {
            returningCount = ghosts.extras[ghost]
            forget(ghost)
        }
        return .store
    }

    @inlinable public mutating func notStored() { returningCount = nil }

    @inline(__always)
    @inlinable public mutating func inserted(_ slot: Int32, key: UInt64, cost: Int) {
        keys[slot] = key
        costs[slot] = cost
        let count = returningCount.map { $0 < .max ? $0 + 1 : $0 } ?? 1
        returningCount = nil
        entries[slot] = Entry(expiry: time + Self.lifetime, count: count, queue: nil)
        join(slot, Self.queue(forCount: count))
        tick()
    }

    @inline(__always)
    @inlinable public mutating func accessed(_ slot: Int32) {
        leave(slot)
        if entries[slot].count < .max { entries[slot].count += 1 }
        join(slot, Self.queue(forCount: entries[slot].count))
        entries[slot].expiry = time + Self.lifetime
        tick()
    }

    @inlinable public mutating func removed(_ slot: Int32, key: UInt64) { leave(slot) }

    @inline(__always)
    @inlinable public mutating func evict() -> Int32? {
        let victim = nextVictim()!
        remember(keys[victim], cost: costs[victim], count: entries[victim].count)
        leave(victim)
        return victim
    }

    @inline(__always)
    @inlinable public func victimHint() -> Int32? { nextVictim() }

    /// The next in `slot`'s queue.
    @inline(__always)
    @inlinable public func victimHint(after slot: Int32) -> Int32? { links.next(slot) }

    /// Qout's bucket for `key`, which every miss looks up; and what the clock's next ticks read:
    /// the entry and links of the second least recent of each queue above the first, which
    /// becomes the least recent when a tick moves the one before it down (the least recent's
    /// own were asked for while it was second).
    @inline(__always)
    @inlinable public mutating func prefetch(_ key: UInt64) {
        ghosts.prefetch(key)
        for queue in 1..<Self.queueCount {
            guard let oldest = queues[queue].first, let second = links.next(oldest) else { continue }
            entries.prefetch(Int(second))
            links.prefetch(second, settled: false)
        }
    }

    /// The count, cost and links of Qout's ghost of `key`, if it has one: a miss takes it out.
    @inline(__always)
    @inlinable public mutating func prefetchMiss(_ key: UInt64) { ghosts.prefetchRecord(forKey: key) }

    /// The victim's links, key and cost, and Qout's oldest ghost; once loaded, the buckets
    /// remembering the victim and forgetting that ghost will touch.
    @inline(__always)
    @inlinable public mutating func prefetchVictim(_ slot: Int32, settled: Bool) {
        links.prefetch(slot, settled: settled)
        ghosts.prefetchRemembering(slot, keys: keys, costs: costs, settled: settled)
        // Qout's oldest is settled once it is the one it was on the request before.
        let oldest = ghostOrder.first
        ghosts.prefetchComing(oldest, settled: oldest == hintedGhost)
        hintedGhost = oldest
    }

    @inline(__always)
    @inlinable public mutating func prefetchHit(_ slot: Int32, settled: Bool) {
        links.prefetchMove(slot, settled: settled)
        if !settled { entries.prefetch(Int(slot)) }
    }

    @inlinable public mutating func removeAll() {
        for queue in 0..<Self.queueCount { queues[queue].removeAll() }
        ghosts.removeAll()
        ghostOrder.removeAll()
        returningCount = nil
    }

    @inlinable public func checkedSlots() -> [Int32] {
        ghosts.checkInvariants(name: "MQ.Qout")
        let ghostSlots = ghostOrder.checkedSlots(in: ghosts.links, costs: ghosts.costs, name: "MQ.Qout")
        precondition(
            ghostSlots.count == ghosts.count, "MQ: Qout holds \(ghosts.count) ghosts, \(ghostSlots.count) in order")
        precondition(ghostOrder.cost <= ghostLimit, "MQ: Qout over its share")
        var result: [Int32] = []
        for queue in 0..<Self.queueCount {
            queues[queue].checkInvariants(in: links, name: "MQ.queue\(queue)")
            let slots = queues[queue].slots(in: links)
            precondition(
                slots.allSatisfy { entries[$0].queue.map(Int.init) == queue },
                "MQ: a slot in queue \(queue) is tagged otherwise")
            result += slots
        }
        return result
    }

    /// The keys of each queue, least recent first (for tests).
    @inlinable package var queueKeys: [[UInt64]] {
        (0..<Self.queueCount).map { queue in queues[queue].slots(in: links).map { keys[$0] } }
    }

    /// Qout's keys with their counts, oldest first (for tests).
    @inlinable package var ghostCounts: [(key: UInt64, count: Int32)] {
        ghostOrder.slots(in: ghosts.links).map { (ghosts.key($0), ghosts.extras[$0]) }
    }

    /// The count and expiry of the entry in `slot` (for tests).
    @inlinable package func entry(_ slot: Int32) -> (count: Int32, expiry: Int64) {
        (entries[slot].count, entries[slot].expiry)
    }

    /// The queue of an entry used `count` times: ⌊log₂ count⌋, at most the last.
    @inline(__always)
    @inlinable package static func queue(forCount count: Int32) -> Int {
        var remaining = count
        var queue = 0
        while remaining > 1 && queue < queueCount - 1 {
            remaining >>= 1
            queue += 1
        }
        return queue
    }

    // The clock ticks; the least recent entry of each queue above the first drops one queue if it
    // expired (queues in increasing order, so one that dropped is not looked at again).
    @inline(__always)
    @inlinable package mutating func tick() {
        time += 1
        for queue in 1..<Self.queueCount {
            guard let oldest = queues[queue].first, entries[oldest].expiry < time else { continue }
            leave(oldest)
            join(oldest, queue - 1)
            entries[oldest].expiry = time + Self.lifetime
        }
    }

    @inline(__always)
    @inlinable package func nextVictim() -> Int32? {
        for queue in 0..<Self.queueCount where !queues[queue].isEmpty { return queues[queue].head }
        return nil
    }

    // Qout as libCacheSim's FIFO: a key already there stays where it is (its count updated); one
    // costing more than the whole of Qout is not added; otherwise the oldest ghosts leave until
    // it fits and it joins the new end.
    @inline(__always)
    @inlinable package mutating func remember(_ key: UInt64, cost: Int, count: Int32) {
        if let present = ghosts.find(key) {
            ghosts.extras[present] = count
            return
        }
        guard cost <= ghostLimit else { return }
        while ghostOrder.cost + cost > ghostLimit { forget(ghostOrder.head) }
        let ghost = ghosts.add(key, cost: cost, extra: count)
        ghostOrder.append(ghost, cost: cost, in: ghosts.links)
    }

    @inline(__always)
    @inlinable package mutating func forget(_ ghost: Int32) {
        ghostOrder.remove(ghost, cost: ghosts.costs[ghost], in: ghosts.links)
        ghosts.remove(ghost)
    }

    @inline(__always)
    @inlinable package mutating func join(_ slot: Int32, _ queue: Int) {
        entries[slot].queue = Int8(queue)
        queues[queue].append(slot, in: links)
    }

    @inline(__always)
    @inlinable package mutating func leave(_ slot: Int32) {
        guard let queue = entries[slot].queue else { preconditionFailure("MQ: slot \(slot) is in no queue") }
        queues[Int(queue)].remove(slot, in: links)
        entries[slot].queue = nil
    }
}
