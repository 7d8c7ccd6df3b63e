/// The state the small-and-main policies (S3-FIFO, Clock2Q+) share: a small FIFO that newcomers
/// enter and a main queue, each keeping its cost, over one links storage, every slot tagged with
/// the queue it is in; each entry's key and hits; the ghost FIFO of keys the small queue let go;
/// and the rules the two policies have in common (libCacheSim's shares of 10 % for the small
/// queue, 90 % for the ghost; who is admitted; where a newcomer goes; how the small queue is
/// evicted). The policies decide how a hit counts and how main is evicted.
///
/// - Invariant: `small` and `main` hold exactly the slots tagged with them, and each queue's
///   `cost` is the sum of its slots' `costs`.
@usableFromInline package struct SmallAndMainQueues {
    @usableFromInline package enum Queue: UInt8 {
        case none, small, main
    }

    /// The policy's name, for invariant failures.
    @usableFromInline package let name: String
    /// The small queue's share of the capacity: entries costing more are not stored.
    @usableFromInline package let smallLimit: Int
    /// Main's share of the capacity (the rest).
    @usableFromInline package let mainLimit: Int
    @usableFromInline package let links = SlotLinks()
    @usableFromInline package var small = CostedList()
    @usableFromInline package var main = CostedList()
    @usableFromInline package let queue = SlotArray<Queue>(count: 0, filling: .none)
    @usableFromInline package let costs = SlotArray<Int>(count: 0, filling: 0)
    @usableFromInline package let hits = SlotArray<Int>(count: 0, filling: 0)
    @usableFromInline package let keys = SlotArray<UInt64>(count: 0, filling: 0)
    /// nil when the ghost's share rounds to nothing (libCacheSim then keeps none).
    @usableFromInline package var ghost: GhostFIFO?
    /// The key `admit` just looked at was a ghost: it goes to main.
    @usableFromInline package var cameFromGhost = false
    /// Whether anything was evicted yet; before that, a full small queue sends entries to main.
    @usableFromInline package var hasEvicted = false

    @inlinable package init(name: String, capacity: Int) {
        self.name = name
        // libCacheSim multiplies the capacity by the ratios in double precision and truncates.
        smallLimit = Int(Double(capacity) * 0.1)
        mainLimit = capacity - smallLimit
        let ghostLimit = Int(Double(capacity) * 0.9)
        ghost = ghostLimit > 0 ? GhostFIFO(capacity: ghostLimit) : nil
    }

    @inlinable package mutating func grow(to slotCount: Int) {
        links.grow(to: slotCount)
        queue.grow(to: slotCount, filling: .none)
        costs.grow(to: slotCount, filling: 0)
        hits.grow(to: slotCount, filling: 0)
        keys.grow(to: slotCount, filling: 0)
    }

    /// Takes `key` out of the ghost FIFO (libCacheSim does while looking it up, before asking
    /// whether the entry fits), then: more than the small queue is not stored; exactly as much is
    /// not stored but evicts first, unless the key was a ghost.
    @inline(__always)
    @inlinable package mutating func admit(_ key: UInt64, cost: Int) -> Admission {
        cameFromGhost = ghost?.remove(key) ?? false
        if cost > smallLimit { return .reject }
        return cameFromGhost || cost < smallLimit ? .store : .evictOnly
    }

    /// Stores `slot`'s entry with no hits, in main if its key was a ghost (or while the small
    /// queue is full and nothing was evicted yet), else in the small queue; returns which.
    @inline(__always)
    @inlinable package mutating func insert(_ slot: Int32, key: UInt64, cost: Int) -> Queue {
        costs[slot] = cost
        keys[slot] = key
        hits[slot] = 0
        let target: Queue = cameFromGhost || (!hasEvicted && small.cost >= smallLimit) ? .main : .small
        cameFromGhost = false
        join(slot, target)
        return target
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

    /// The small queue's oldest entries move to main while their hits reach `threshold` (their
    /// count cleared); the first that falls short leaves, its key joins the ghost FIFO, and is
    /// returned. nil if the small queue runs out.
    @inline(__always)
    @inlinable package mutating func evictSmall(threshold: Int) -> Int32? {
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
        ghost?.removeAll()
        cameFromGhost = false
        hasEvicted = false
    }

    /// The keys in the small queue and in main, oldest first (for tests).
    @inlinable package var queueKeys: (small: [UInt64], main: [UInt64]) {
        (small.slots(in: links).map { keys[$0] }, main.slots(in: links).map { keys[$0] })
    }

    /// The keys the ghost FIFO remembers, oldest first (for tests).
    @inlinable package var ghostKeys: [UInt64] { ghost?.storedKeys ?? [] }

    /// The hits counted for the entry of `key`, or nil if it is not held (for tests).
    @inlinable package func hitCount(of key: UInt64) -> Int? {
        (small.slots(in: links) + main.slots(in: links)).first { keys[$0] == key }.map { hits[$0] }
    }

    /// Every slot held, small's then main's, the invariant checked, and the ghost FIFO's too.
    @inlinable package func checkedSlots() -> [Int32] {
        ghost?.checkInvariants(name: "\(name).ghost")
        let inSmall = small.checkedSlots(in: links, costs: costs, name: "\(name).small")
        let inMain = main.checkedSlots(in: links, costs: costs, name: "\(name).main")
        precondition(inSmall.allSatisfy { queue[$0] == .small }, "\(name): a slot in small is not tagged small")
        precondition(inMain.allSatisfy { queue[$0] == .main }, "\(name): a slot in main is not tagged main")
        return inSmall + inMain
    }
}
