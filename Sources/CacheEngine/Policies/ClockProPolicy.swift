/// Evicts nothing: stores newcomers while they fit in half the capacity, then keeps what it holds
/// and stores only a newcomer small enough for the room left (CLOCK-Pro as libCacheSim runs it with
/// its Python defaults).
///
/// CLOCK-Pro (Jiang, Chen and Zhang, "CLOCK-Pro: An Effective Improvement of the CLOCK
/// Replacement", USENIX ATC 2005) as libCacheSim 0.3.5's `ClockPro` behaves with the defaults of
/// its Python class (`init_ref=0`, `init_ratio_cold=0.5`): it admits a newcomer only while the
/// cold pages plus the newcomer fit in `init_ratio_cold` × the capacity (truncated), every
/// newcomer is cold, and only an eviction makes hot or test pages. Since that bound is below the
/// capacity, the cache never needs room, so nothing is ever evicted and no page ever turns hot:
/// the first entries that fit in half the cache stay for good, a hit changes nothing (it sets a
/// reference bit no hand ever reads), and a later newcomer is stored only into the room left
/// over. The hands of the full algorithm turn only for `init_ratio_cold` > 1, where libCacheSim
/// often loops forever, so this policy offers the defaults alone. A trim (a client tier under
/// memory pressure, which libCacheSim has no counterpart for) evicts the oldest entries first, as
/// the cold hand would meet them, making room for newcomers again. Matches libCacheSim's
/// `ClockPro` exactly.
///
/// - Complexity: O(1) access, insert and evict.
/// - Invariant: `order` holds exactly the live slots, oldest first, and `cold` is the sum of their
///   costs, at most `coldLimit`.
public struct ClockProPolicy: AdmittingPolicy, PrefetchingPolicy {
    public static let libCacheSimName: String? = "ClockPro"
    public static let summary =
        "CLOCK-Pro with libCacheSim's defaults: admits while half the cache is free, never evicts (libCacheSim ClockPro)"
    public static let storedShare: Double? = 0.5
    public static let mayDeclineNewEntries = true
    public static let relativeCost = 0.8

    /// The most the cold pages may cost: `init_ratio_cold` (0.5) × the capacity, truncated.
    @usableFromInline package let coldLimit: Int
    @usableFromInline package let capacity: Int
    @usableFromInline package let links = SlotLinks()
    @usableFromInline package var order = SlotList()
    @usableFromInline package let costs = SlotArray<Int>(count: 0, filling: 0)
    /// The cost of the pages held, every one cold.
    @usableFromInline package var cold = 0

    // It hints nothing for a hit or a miss: the replay need not find a coming request's slot.
    @inlinable public static var prefetchesHits: Bool { false }

    @inlinable public init(configuration: CacheConfiguration) {
        capacity = configuration.capacity
        // libCacheSim scales the capacity in double precision and truncates.
        coldLimit = Int(Double(configuration.capacity) * 0.5)
    }

    @inlinable public mutating func grow(to slotCount: Int) {
        links.grow(to: slotCount)
        costs.grow(to: slotCount, filling: 0)
    }

    @inline(__always)
    @inlinable public mutating func admit(_ key: UInt64, cost: Int) -> Admission {
        cost <= capacity && cold + cost <= coldLimit ? .store : .reject
    }

    @inline(__always)
    @inlinable public mutating func inserted(_ slot: Int32, key: UInt64, cost: Int) {
        costs[slot] = cost
        cold += cost
        order.append(slot, in: links)
    }

    @inline(__always)
    @inlinable public mutating func accessed(_ slot: Int32) {}

    @inlinable public mutating func removed(_ slot: Int32, key: UInt64) {
        order.remove(slot, in: links)
        cold -= costs[slot]
    }

    @inlinable public mutating func evict() -> Int32? {
        let victim = order.removeHead(in: links)
        cold -= costs[victim]
        return victim
    }

    @inlinable public func victimHint() -> Int32? { order.first }

    @inlinable public mutating func removeAll() {
        order.removeAll()
        cold = 0
    }

    @inlinable public func checkedSlots() -> [Int32] {
        order.checkInvariants(in: links, name: "ClockPro")
        let slots = order.slots(in: links)
        let sum = slots.reduce(0) { $0 + costs[$1] }
        precondition(sum == cold, "ClockPro: cold counts \(cold) but its entries cost \(sum)")
        precondition(cold <= coldLimit, "ClockPro: cold pages over their limit")
        return slots
    }
}
