/// A `SlotList` that keeps the total cost of its entries: a queue of a policy that bounds its
/// queues in bytes (2Q's Ain and Am, S3-FIFO's small and main, SLRU's segments). The entries'
/// costs live with the policy, which says each one as it joins or leaves.
///
/// - Complexity: O(1) append, prepend, remove and move.
/// - Invariant: `cost` is the sum of its entries' costs.
@usableFromInline package struct CostedList {
    @usableFromInline package var list = SlotList()
    @usableFromInline package var cost = 0

    @inlinable package var isEmpty: Bool { list.isEmpty }
    @inlinable package var count: Int { list.count }
    /// The head (oldest) slot, or nil when the list is empty.
    @inline(__always) @inlinable package var first: Int32? { list.first }
    /// The tail (newest) slot, or nil when the list is empty.
    @inline(__always) @inlinable package var last: Int32? { list.last }
    /// The head (oldest) slot. The list must not be empty; `first` answers nil when it is.
    @inline(__always) @inlinable package var head: Int32 { list.head }
    /// The tail (newest) slot. The list must not be empty; `last` answers nil when it is.
    @inline(__always) @inlinable package var tail: Int32 { list.tail }

    @inline(__always)
    @inlinable package mutating func append(_ slot: Int32, cost: Int, in links: SlotLinks) {
        list.append(slot, in: links)
        self.cost += cost
    }

    @inline(__always)
    @inlinable package mutating func prepend(_ slot: Int32, cost: Int, in links: SlotLinks) {
        list.prepend(slot, in: links)
        self.cost += cost
    }

    @inline(__always)
    @inlinable package mutating func remove(_ slot: Int32, cost: Int, in links: SlotLinks) {
        list.remove(slot, in: links)
        self.cost -= cost
    }

    /// Links `slot` right after `anchor`, which must be in this list.
    @inline(__always)
    @inlinable package mutating func insert(_ slot: Int32, after anchor: Int32, cost: Int, in links: SlotLinks) {
        list.insert(slot, after: anchor, in: links)
        self.cost += cost
    }

    @inline(__always)
    @inlinable package mutating func moveToTail(_ slot: Int32, in links: SlotLinks) { list.moveToTail(slot, in: links) }

    @inlinable package mutating func removeAll() {
        list.removeAll()
        cost = 0
    }

    /// The slots, head first.
    @inlinable package func slots(in links: SlotLinks) -> [Int32] { list.slots(in: links) }

    /// The slots, head first, after checking the links and that `cost` is the sum of `costs` over
    /// them (stops with a message naming `name` if not).
    @inlinable package func checkedSlots(in links: SlotLinks, costs: SlotArray<Int>, name: String) -> [Int32] {
        list.checkInvariants(in: links, name: name)
        let slots = list.slots(in: links)
        let sum = slots.reduce(0) { $0 + costs[$1] }
        precondition(sum == cost, "\(name): counts \(cost) but its entries cost \(sum)")
        return slots
    }

    @inlinable package init(list: SlotList = SlotList(), cost: Int = 0) {
        self.list = list
        self.cost = cost
    }
}
