/// A `SlotList` that keeps the total cost of its entries: a queue of a policy that bounds its
/// queues in bytes (2Q's Ain and Am, S3-FIFO's small and main, SLRU's segments). The entries'
/// costs live with the policy, which says each one as it joins or leaves.
///
/// - Complexity: O(1) append, prepend, remove and move.
/// - Invariant: `cost` is the sum of its entries' costs.
struct CostedList {
    private(set) var list = SlotList()
    private(set) var cost = 0

    var isEmpty: Bool { list.isEmpty }
    var count: Int { list.count }
    /// The head (oldest) slot, or nil when the list is empty.
    @inline(__always) var first: Int32? { list.first }
    /// The tail (newest) slot, or nil when the list is empty.
    @inline(__always) var last: Int32? { list.last }
    /// The head (oldest) slot. The list must not be empty; `first` answers nil when it is.
    @inline(__always) var head: Int32 { list.head }
    /// The tail (newest) slot. The list must not be empty; `last` answers nil when it is.
    @inline(__always) var tail: Int32 { list.tail }

    @inline(__always)
    mutating func append(_ slot: Int32, cost: Int, in links: SlotLinks) {
        list.append(slot, in: links)
        self.cost += cost
    }

    @inline(__always)
    mutating func prepend(_ slot: Int32, cost: Int, in links: SlotLinks) {
        list.prepend(slot, in: links)
        self.cost += cost
    }

    @inline(__always)
    mutating func remove(_ slot: Int32, cost: Int, in links: SlotLinks) {
        list.remove(slot, in: links)
        self.cost -= cost
    }

    /// Links `slot` right after `anchor`, which must be in this list.
    @inline(__always)
    mutating func insert(_ slot: Int32, after anchor: Int32, cost: Int, in links: SlotLinks) {
        list.insert(slot, after: anchor, in: links)
        self.cost += cost
    }

    @inline(__always)
    mutating func moveToTail(_ slot: Int32, in links: SlotLinks) { list.moveToTail(slot, in: links) }

    mutating func removeAll() {
        list.removeAll()
        cost = 0
    }

    /// The slots, head first.
    func slots(in links: SlotLinks) -> [Int32] { list.slots(in: links) }

    /// The slots, head first, after checking the links and that `cost` is the sum of `costs` over
    /// them (stops with a message naming `name` if not).
    func checkedSlots(in links: SlotLinks, costs: SlotArray<Int>, name: String) -> [Int32] {
        list.checkInvariants(in: links, name: name)
        let slots = list.slots(in: links)
        let sum = slots.reduce(0) { $0 + costs[$1] }
        precondition(sum == cost, "\(name): counts \(cost) but its entries cost \(sum)")
        return slots
    }
}
