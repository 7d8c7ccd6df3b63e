/// Evicts the entry whose next use lies farthest in the future (never used again counts as
/// farthest): Belady's offline optimum, MIN (L. A. Belady, "A study of replacement algorithms for
/// a virtual-storage computer", IBM Systems Journal 5(2), 1966).
///
/// It needs the future: the replay tells it each request's next use (`upcoming(nextUse:)`) before
/// the lookup, and a hit or an insertion files the entry under that position. Only the
/// single-tier simulator can do that; a real client's tiers refuse it (`PolicyKind.needsFuture`).
///
/// Entries sit in a binary max-heap keyed by next use, stored in slot arrays with each slot's heap
/// position, so a hit can move its entry. The heap follows libCacheSim's `pqueue` move for move
/// (1-based array; a tie between children goes to the left one; a node moves only past a strictly
/// smaller key), so entries never used again, which all tie, are evicted in the same order as
/// libCacheSim's `Belady`, and miss counts match it in byte mode too.
///
/// - Complexity: O(log n) access, insert and evict, for n entries; no allocation once grown.
/// - Invariant: `heap[1...count]` holds exactly the live slots, `position[heap[i]] == i`, and no
///   entry's next use is later than its parent's.
public struct BeladyPolicy: EvictionPolicy {
    public static let summary =
        "next used farthest in the future first: the offline optimum, simulator only (libCacheSim Belady)"
    public static let relativeCost = 3.0
    public static var needsFuture: Bool { true }

    // heap[1...count] are slots; heap[0] is unused, as in libCacheSim's pqueue.
    private let heap = SlotArray<Int32>(count: 1, filling: -1)
    private let position = SlotArray<Int>(count: 0, filling: 0)
    private let nextUse = SlotArray<Int64>(count: 0, filling: .max)
    private var count = 0
    // The next use of the request being served, until a hit or an insertion files it.
    private var pending = Int64.max

    public init(configuration: CacheConfiguration) {}

    public mutating func grow(to slotCount: Int) {
        heap.grow(to: slotCount + 1, filling: -1)
        position.grow(to: slotCount, filling: 0)
        nextUse.grow(to: slotCount, filling: .max)
    }

    @inline(__always)
    public mutating func upcoming(nextUse use: Int64) { pending = use }

    public mutating func inserted(_ slot: Int32, key: UInt64, cost: Int) {
        nextUse[slot] = pending
        count += 1
        heap[count] = slot
        siftUp(count)
    }

    public mutating func accessed(_ slot: Int32) {
        let old = nextUse[slot]
        nextUse[slot] = pending
        // libCacheSim's pqueue_change_priority: up if the key grew, else down (even if equal).
        if old < pending { siftUp(position[slot]) } else { siftDown(position[slot]) }
    }

    public mutating func removed(_ slot: Int32) {
        let hole = position[slot]
        let last = heap[count]
        count -= 1
        guard hole <= count else { return }
        heap[hole] = last
        position[last] = hole
        // libCacheSim's pqueue_remove: up if the moved entry is later than the one removed.
        if nextUse[slot] < nextUse[last] { siftUp(hole) } else { siftDown(hole) }
    }

    public mutating func evict() -> Int32 {
        let victim = heap[1]
        let last = heap[count]
        count -= 1
        if count > 0 {
            heap[1] = last
            position[last] = 1
            siftDown(1)
        }
        return victim
    }

    public mutating func removeAll() { count = 0 }

    public func checkedSlots() -> [Int32] {
        var result: [Int32] = []
        result.reserveCapacity(count)
        for index in stride(from: 1, through: count, by: 1) {
            let slot = heap[index]
            precondition(
                position[slot] == index, "Belady: slot \(slot) at heap \(index) thinks it is at \(position[slot])")
            if index > 1 {
                precondition(nextUse[heap[index / 2]] >= nextUse[slot], "Belady: heap order broken at \(index)")
            }
            result.append(slot)
        }
        return result
    }

    /// The next use the policy has filed for `slot` (for tests).
    func nextUse(of slot: Int32) -> Int64 { nextUse[slot] }

    // Moves the entry at `start` up while its parent's next use is strictly earlier.
    @inline(__always)
    private mutating func siftUp(_ start: Int) {
        var index = start
        let moving = heap[index]
        let key = nextUse[moving]
        while index > 1, nextUse[heap[index / 2]] < key {
            heap[index] = heap[index / 2]
            position[heap[index]] = index
            index /= 2
        }
        heap[index] = moving
        position[moving] = index
    }

    // Moves the entry at `start` down while its later child's next use is strictly later.
    @inline(__always)
    private mutating func siftDown(_ start: Int) {
        var index = start
        let moving = heap[index]
        let key = nextUse[moving]
        while true {
            var child = index * 2
            guard child <= count else { break }
            if child < count, nextUse[heap[child]] < nextUse[heap[child + 1]] { child += 1 }
            guard key < nextUse[heap[child]] else { break }
            heap[index] = heap[child]
            position[heap[index]] = index
            index = child
        }
        heap[index] = moving
        position[moving] = index
    }
}
