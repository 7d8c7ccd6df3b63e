/// A binary min-heap of slots by rank, with each slot's position kept beside it so a slot's rank
/// can change and a slot can leave from anywhere: the priority queue of Belady, GDSF, LFUDA and
/// every policy that evicts the lowest of a computed rank.
///
/// It moves entries exactly as libCacheSim's `pqueue` does, so that policies whose ranks tie
/// (Belady's objects never used again) evict the same entry as libCacheSim: 1-based positions;
/// an entry rises while strictly below its parent and sinks while a child is strictly below it,
/// the right child chosen only when strictly below the left; a changed rank rises when it fell
/// and sinks otherwise (even when equal); the entry moved into a removed one's place rises when
/// it ranks strictly below the removed one and sinks otherwise.
///
/// - Complexity: O(log n) insert, update, remove and pop; O(1) top. No allocation once grown.
/// - Invariant: `heap[1...count]` holds exactly the slots in the heap, `position[heap[i]] == i`,
///   and no entry ranks strictly below its parent.
@usableFromInline package struct IndexedHeap<Rank: Comparable> {
    // heap[0] is unused, as in libCacheSim's pqueue; places not in use are filled with -1, never read.
    @usableFromInline package let heap = SlotArray<Int32>(count: 1, filling: -1)
    @usableFromInline package let position = SlotArray<Int>(count: 0, filling: 0)
    @usableFromInline package let ranks: SlotArray<Rank>
    /// What the ranks of slots not in the heap hold (never read).
    @usableFromInline package let filler: Rank
    @usableFromInline package var count = 0

    /// An empty heap; `filler` fills the ranks of slots not in it.
    @inlinable package init(filler: Rank) {
        self.filler = filler
        ranks = SlotArray(count: 0, filling: filler)
    }

    @inlinable package var isEmpty: Bool { count == 0 }

    /// The slot that ranks lowest (the next to pop), or nil when the heap is empty.
    @inlinable package var first: Int32? { count > 0 ? heap[1] : nil }
    /// The slot that ranks lowest (the next to pop). The heap must not be empty; `first` answers
    /// nil when it is.
    @inlinable package var top: Int32 {
        assert(count > 0, "IndexedHeap: top of an empty heap")
        return heap[1]
    }

    /// Makes room for slots `0..<slotCount`.
    @inlinable package func grow(to slotCount: Int) {
        heap.grow(to: slotCount + 1, filling: -1)
        position.grow(to: slotCount, filling: 0)
        ranks.grow(to: slotCount, filling: filler)
    }

    /// The rank filed for `slot` (meaningful while it is in the heap).
    @inline(__always)
    @inlinable package func rank(of slot: Int32) -> Rank { ranks[slot] }

    /// Adds `slot`, which is not in the heap, at `rank`.
    @inline(__always)
    @inlinable package mutating func insert(_ slot: Int32, rank: Rank) {
        ranks[slot] = rank
        count += 1
        heap[count] = slot
        position[slot] = count
        siftUp(count)
    }

    /// Files `rank` for `slot`, which is in the heap, and moves it.
    @inline(__always)
    @inlinable package mutating func update(_ slot: Int32, rank: Rank) {
        let old = ranks[slot]
        ranks[slot] = rank
        if rank < old { siftUp(position[slot]) } else { siftDown(position[slot]) }
    }

    /// Takes `slot`, which is in the heap, out of it.
    @inline(__always)
    @inlinable package mutating func remove(_ slot: Int32) {
        let hole = position[slot]
        let last = heap[count]
        count -= 1
        guard hole <= count else { return }
        heap[hole] = last
        position[last] = hole
        if ranks[last] < ranks[slot] { siftUp(hole) } else { siftDown(hole) }
    }

    /// Takes the lowest-ranked slot out and returns it. The heap must not be empty.
    @inline(__always)
    @inlinable package mutating func pop() -> Int32 {
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

    @inlinable package mutating func removeAll() { count = 0 }

    /// The slots in heap order, after checking the invariant (stops with a message naming
    /// `name` if it is broken).
    @inlinable package func checkedSlots(name: String) -> [Int32] {
        var result: [Int32] = []
        result.reserveCapacity(count)
        for index in stride(from: 1, through: count, by: 1) {
            let slot = heap[index]
            precondition(
                position[slot] == index, "\(name): slot \(slot) at heap \(index) thinks it is at \(position[slot])")
            if index > 1 {
                precondition(!(ranks[slot] < ranks[heap[index / 2]]), "\(name): heap order broken at \(index)")
            }
            result.append(slot)
        }
        return result
    }

    @inline(__always)
    @inlinable package mutating func siftUp(_ start: Int) {
        var index = start
        let moving = heap[index]
        let rank = ranks[moving]
        while index > 1, rank < ranks[heap[index / 2]] {
            heap[index] = heap[index / 2]
            position[heap[index]] = index
            index /= 2
        }
        heap[index] = moving
        position[moving] = index
    }

    @inline(__always)
    @inlinable package mutating func siftDown(_ start: Int) {
        var index = start
        let moving = heap[index]
        let rank = ranks[moving]
        while true {
            var child = index * 2
            guard child <= count else { break }
            if child < count, ranks[heap[child + 1]] < ranks[heap[child]] { child += 1 }
            guard ranks[heap[child]] < rank else { break }
            heap[index] = heap[child]
            position[heap[index]] = index
            index = child
        }
        heap[index] = moving
        position[moving] = index
    }
}
