/// Evicts the entry with the lowest priority, where an entry's priority is the cache's inflation
/// value `L` when it was last used plus its hit count divided by its size: small, often used
/// entries stay, big or cold ones go, and `L` (the priority of the last entry evicted) ages
/// everything that has not been used since it rose.
///
/// GreedyDual-Size with Frequency (L. Cherkasova, "Improving WWW proxies performance with
/// Greedy-Dual-Size-Frequency caching policy", HP Labs HPL-98-69R1, 1998), with libCacheSim's
/// rules: priority `L + frequency × 10⁶ / size` in double precision, frequency 1 on insertion and
/// one more per hit, ties evicted oldest request first. libCacheSim stores a missed entry first
/// and then evicts the lowest priority until the total fits, so the new entry itself may be the
/// one to go: `evict()` answers -1 then, the engine stores nothing, and `L` rises to its priority.
/// Every step is deterministic, so miss counts match libCacheSim's `GDSF` exactly in both size
/// modes.
///
/// Entries sit in a binary min-heap of (priority, request stamp) over slot arrays, with each
/// slot's heap position, so a hit can move its entry; libCacheSim uses a balanced tree and a hash
/// map beside it, allocating per entry.
///
/// - Complexity: O(log n) access, insert and evict, for n entries; no allocation once grown.
/// - Invariant: `heap[0..<count]` holds exactly the live slots, `position[heap[i]] == i`, and no
///   entry ranks below its parent.
public struct GDSFPolicy: EvictionPolicy {
    public static let summary =
        "lowest of inflation + hits / size first: small, often used images stay (libCacheSim GDSF)"
    public static let mayDeclineNewEntries = true
    public static let relativeCost = 2.5

    private let capacity: Int
    private let heap = SlotArray<Int32>(count: 0, filling: -1)
    private let position = SlotArray<Int>(count: 0, filling: 0)
    private let priority = SlotArray<Double>(count: 0, filling: 0)
    private let stamp = SlotArray<Int64>(count: 0, filling: 0)
    private let frequency = SlotArray<Int>(count: 0, filling: 0)
    private let costs = SlotArray<Int>(count: 0, filling: 0)
    private var count = 0
    /// `L`: the priority of the last entry evicted.
    private var inflation = 0.0
    /// One per request seen, ordering entries of equal priority.
    private var clock: Int64 = 0
    /// The entry `admit` was asked about, ranked as if already stored, until it is stored or
    /// evicted first.
    private var incoming: (priority: Double, stamp: Int64)?

    public init(configuration: CacheConfiguration) {
        capacity = configuration.capacity
    }

    public mutating func grow(to slotCount: Int) {
        heap.grow(to: slotCount, filling: -1)
        position.grow(to: slotCount, filling: 0)
        priority.grow(to: slotCount, filling: 0)
        stamp.grow(to: slotCount, filling: 0)
        frequency.grow(to: slotCount, filling: 0)
        costs.grow(to: slotCount, filling: 0)
    }

    @inline(__always)
    public mutating func admit(_ key: UInt64, cost: Int) -> Admission {
        clock += 1
        guard cost <= capacity else {
            incoming = nil
            return .reject
        }
        incoming = (Self.rank(inflation, frequency: 1, cost: cost), clock)
        return .store
    }

    @inline(__always)
    public mutating func inserted(_ slot: Int32, key: UInt64, cost: Int) {
        let ranked = incoming ?? (Self.rank(inflation, frequency: 1, cost: cost), clock)
        incoming = nil
        costs[slot] = cost
        frequency[slot] = 1
        priority[slot] = ranked.priority
        stamp[slot] = ranked.stamp
        heap[count] = slot
        position[slot] = count
        count += 1
        siftUp(count - 1)
    }

    @inline(__always)
    public mutating func accessed(_ slot: Int32) {
        clock += 1
        frequency[slot] += 1
        priority[slot] = Self.rank(inflation, frequency: frequency[slot], cost: costs[slot])
        stamp[slot] = clock
        // L never falls and the count only grows, so the entry only ranks higher than before.
        siftDown(position[slot])
    }

    public mutating func removed(_ slot: Int32) { take(position[slot]) }

    @inline(__always)
    public mutating func evict() -> Int32 {
        if let pending = incoming, count == 0 || Self.precedes(pending, (priority[heap[0]], stamp[heap[0]])) {
            incoming = nil
            inflation = pending.priority
            return -1
        }
        let victim = heap[0]
        inflation = priority[victim]
        take(0)
        return victim
    }

    public mutating func removeAll() {
        count = 0
        incoming = nil
    }

    public func checkedSlots() -> [Int32] {
        var result: [Int32] = []
        result.reserveCapacity(count)
        for index in 0..<count {
            let slot = heap[index]
            precondition(
                position[slot] == index, "GDSF: slot \(slot) at heap \(index) thinks it is at \(position[slot])")
            if index > 0 {
                precondition(!ranksBelow(slot, heap[(index - 1) / 2]), "GDSF: heap order broken at \(index)")
            }
            result.append(slot)
        }
        return result
    }

    /// The inflation value `L` (for tests).
    var inflationValue: Double { inflation }

    /// The priority filed for `slot` (for tests).
    func priority(of slot: Int32) -> Double { priority[slot] }

    /// libCacheSim's priority, computed in the same order so the doubles are the same.
    @inline(__always)
    static func rank(_ inflation: Double, frequency: Int, cost: Int) -> Double {
        inflation + Double(frequency) * 1.0e6 / Double(cost)
    }

    @inline(__always)
    private static func precedes(_ a: (priority: Double, stamp: Int64), _ b: (priority: Double, stamp: Int64)) -> Bool {
        a.priority == b.priority ? a.stamp < b.stamp : a.priority < b.priority
    }

    @inline(__always)
    private func ranksBelow(_ a: Int32, _ b: Int32) -> Bool {
        Self.precedes((priority[a], stamp[a]), (priority[b], stamp[b]))
    }

    // Removes the entry at heap index `hole`, filling it with the last one.
    @inline(__always)
    private mutating func take(_ hole: Int) {
        count -= 1
        guard hole < count else { return }
        let last = heap[count]
        heap[hole] = last
        position[last] = hole
        siftUp(hole)
        siftDown(position[last])
    }

    @inline(__always)
    private mutating func siftUp(_ start: Int) {
        var index = start
        let moving = heap[index]
        while index > 0 {
            let parent = (index - 1) / 2
            guard ranksBelow(moving, heap[parent]) else { break }
            heap[index] = heap[parent]
            position[heap[index]] = index
            index = parent
        }
        heap[index] = moving
        position[moving] = index
    }

    @inline(__always)
    private mutating func siftDown(_ start: Int) {
        var index = start
        let moving = heap[index]
        while true {
            var child = 2 * index + 1
            guard child < count else { break }
            if child + 1 < count, ranksBelow(heap[child + 1], heap[child]) { child += 1 }
            guard ranksBelow(heap[child], moving) else { break }
            heap[index] = heap[child]
            position[heap[index]] = index
            index = child
        }
        heap[index] = moving
        position[moving] = index
    }
}
