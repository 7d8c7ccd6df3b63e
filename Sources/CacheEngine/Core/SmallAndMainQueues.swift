/// The two queues of the small-and-main policies (S3-FIFO, Clock2Q+): a small FIFO that newcomers
/// enter and a main queue, each keeping its cost, over one links storage, every slot tagged with
/// the queue it is in. The policies decide who moves and who leaves; this keeps the books.
///
/// - Invariant: `small` and `main` hold exactly the slots tagged with them, and each queue's
///   `cost` is the sum of its slots' `costs`.
@usableFromInline package struct SmallAndMainQueues {
    @usableFromInline package enum Queue: UInt8 {
        case none, small, main
    }

    /// The policy's name, for invariant failures.
    @usableFromInline package let name: String
    @usableFromInline package let links = SlotLinks()
    @usableFromInline package var small = CostedList()
    @usableFromInline package var main = CostedList()
    @usableFromInline package let queue = SlotArray<Queue>(count: 0, filling: .none)
    @usableFromInline package let costs = SlotArray<Int>(count: 0, filling: 0)

    @inlinable package init(name: String) { self.name = name }

    @inlinable package mutating func grow(to slotCount: Int) {
        links.grow(to: slotCount)
        queue.grow(to: slotCount, filling: .none)
        costs.grow(to: slotCount, filling: 0)
    }

    /// Appends `slot` to `target`'s new end.
    @inline(__always)
    @inlinable package mutating func join(_ slot: Int32, _ target: Queue) {
        queue[slot] = target
        if target == .small {
            small.append(slot, cost: costs[slot], in: links)
        } else {
            main.append(slot, cost: costs[slot], in: links)
        }
    }

    /// Takes `slot` out of its queue.
    @inline(__always)
    @inlinable package mutating func leave(_ slot: Int32) {
        switch queue[slot] {
        case .small:
            small.remove(slot, cost: costs[slot], in: links)
        case .main:
            main.remove(slot, cost: costs[slot], in: links)
        case .none:
            preconditionFailure("\(name): slot \(slot) is in no queue")
        }
        queue[slot] = .none
    }

    /// Sends main's oldest entry to its new end (a clock's hand passing it).
    @inline(__always)
    @inlinable package mutating func rotateMain(_ slot: Int32) { main.moveToTail(slot, in: links) }

    /// The small queue's oldest entries move to main while `hits` counts at least `threshold` for
    /// them (their count cleared); the first that counts fewer leaves, its key (in `keys`) joins
    /// `ghost`, and is returned. nil if the small queue runs out.
    @inline(__always)
    @inlinable package mutating func evictSmall(
        hits: SlotArray<Int>, threshold: Int, keys: SlotArray<UInt64>, ghost: inout GhostFIFO?
    ) -> Int32? {
        while let slot = small.first {
            leave(slot)
            if hits[slot] >= threshold {
                hits[slot] = 0
                join(slot, .main)
            } else {
                ghost?.add(keys[slot], cost: costs[slot])
                return slot
            }
        }
        return nil
    }

    @inlinable package mutating func removeAll() {
        small.removeAll()
        main.removeAll()
    }

    /// Every slot held, small's then main's, the invariant checked, and `ghost`'s too.
    @inlinable package func checkedSlots(ghost: GhostFIFO?) -> [Int32] {
        ghost?.checkInvariants(name: "\(name).ghost")
        return checkedSlots()
    }

    /// The keys (in `keys`) in the small queue and in main, oldest first (for tests).
    @inlinable package func queueKeys(_ keys: SlotArray<UInt64>) -> (small: [UInt64], main: [UInt64]) {
        (small.slots(in: links).map { keys[$0] }, main.slots(in: links).map { keys[$0] })
    }

    /// The hits `hits` counts for the entry of `key` (in `keys`), or nil if it is not held (for
    /// tests).
    @inlinable package func hitCount(of key: UInt64, keys: SlotArray<UInt64>, hits: SlotArray<Int>) -> Int? {
        (small.slots(in: links) + main.slots(in: links)).first { keys[$0] == key }.map { hits[$0] }
    }

    /// Every slot held, small's then main's, the invariant checked.
    @inlinable package func checkedSlots() -> [Int32] {
        let inSmall = small.checkedSlots(in: links, costs: costs, name: "\(name).small")
        let inMain = main.checkedSlots(in: links, costs: costs, name: "\(name).main")
        precondition(inSmall.allSatisfy { queue[$0] == .small }, "\(name): a slot in small is not tagged small")
        precondition(inMain.allSatisfy { queue[$0] == .main }, "\(name): a slot in main is not tagged main")
        return inSmall + inMain
    }
}
