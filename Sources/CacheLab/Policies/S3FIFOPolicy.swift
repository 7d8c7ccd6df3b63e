/// Evicts from a small FIFO while the main FIFO is within its share: the small queue's oldest
/// entry moves to main if it was hit twice, else leaves and its key joins a ghost FIFO; main's
/// oldest entry is reinserted while it was hit since it entered (its count lowered by one).
///
/// S3-FIFO (Yang, Zhang, Qiu, Yue and Rashmi, "FIFO queues are all you need for cache eviction",
/// SOSP 2023) with libCacheSim's defaults and rules: the small queue gets 10 % of the capacity,
/// main the rest, the ghost FIFO remembers keys worth 90 % (all measured in the entries' costs,
/// bytes or one each), move-to-main threshold 2, counts capped at 3 when main reinserts. A miss
/// found in the ghost FIFO enters main, others the small queue, except that until the first
/// eviction, entries go to main once the small queue is full. An entry costing more than the
/// small queue is not stored; one costing exactly as much is not stored either but evicts first
/// (`Admission.evictOnly`), unless it came from the ghost FIFO. Matches libCacheSim's `S3FIFO`
/// exactly, except below a capacity of 10, where the small queue rounds to nothing: libCacheSim
/// stops there, this policy stores nothing.
///
/// - Complexity: O(1) access and insert; evict O(1) amortized (every entry it moves or reinserts
///   was hit since it was last moved).
/// - Invariant: `small` and `main` hold exactly the live slots, each tagged with its queue;
///   `small.cost` and `main.cost` are the sums of their entries' costs.
public struct S3FIFOPolicy: EvictionPolicy {
    public static let summary = "small FIFO, main FIFO and ghost FIFO (libCacheSim S3FIFO)"
    public static let storedShare: Double? = 0.1
    public static let relativeCost = 1.6

    /// The small queue's share of the capacity.
    let smallLimit: Int
    /// Main's share of the capacity (the rest).
    let mainLimit: Int
    /// Hits in the small queue that send an entry to main instead of out.
    static let moveToMainThreshold = 2
    private let links = SlotLinks()
    private var small = CostedList()
    private var main = CostedList()
    private let queue = SlotArray<Queue>(count: 0, filling: .none)
    private let hits = SlotArray<Int>(count: 0, filling: 0)
    private let costs = SlotArray<Int>(count: 0, filling: 0)
    private let keys = SlotArray<UInt64>(count: 0, filling: 0)
    /// nil when the ghost's share rounds to nothing (libCacheSim then keeps none).
    private var ghost: GhostFIFO?
    /// The key `admit` just looked at was a ghost: it goes to main.
    private var cameFromGhost = false
    /// Whether anything was evicted yet; before that, a full small queue sends entries to main.
    private var hasEvicted = false

    enum Queue: UInt8 {
        case none, small, main
    }

    public init(configuration: CacheConfiguration) {
        // libCacheSim multiplies the capacity by the ratios in double precision and truncates.
        let capacity = configuration.capacity
        smallLimit = Int(Double(capacity) * 0.1)
        mainLimit = capacity - smallLimit
        let ghostLimit = Int(Double(capacity) * 0.9)
        ghost = ghostLimit > 0 ? GhostFIFO(capacity: ghostLimit) : nil
    }

    public mutating func grow(to slotCount: Int) {
        links.grow(to: slotCount)
        queue.grow(to: slotCount, filling: .none)
        hits.grow(to: slotCount, filling: 0)
        costs.grow(to: slotCount, filling: 0)
        keys.grow(to: slotCount, filling: 0)
    }

    @inline(__always)
    public mutating func admit(_ key: UInt64, cost: Int) -> Admission {
        // libCacheSim takes the key out of the ghost FIFO while looking it up, before asking
        // whether it fits.
        cameFromGhost = ghost?.remove(key) ?? false
        if cost > smallLimit { return .reject }
        return cameFromGhost || cost < smallLimit ? .store : .evictOnly
    }

    @inline(__always)
    public mutating func inserted(_ slot: Int32, key: UInt64, cost: Int) {
        costs[slot] = cost
        keys[slot] = key
        hits[slot] = 0
        if cameFromGhost || (!hasEvicted && small.cost >= smallLimit) {
            cameFromGhost = false
            join(slot, .main)
        } else {
            join(slot, .small)
        }
    }

    @inline(__always)
    public mutating func accessed(_ slot: Int32) { hits[slot] += 1 }

    /// The ghost FIFO's bucket for `key`, which `admit` probes on a miss.
    @inline(__always)
    public mutating func prefetch(_ key: UInt64) { ghost?.prefetch(key) }

    @inline(__always)
    public func victimHint() -> Int32 { main.cost > mainLimit || small.cost == 0 ? main.head : small.head }

    @inline(__always)
    public mutating func prefetchVictim(_ slot: Int32, settled: Bool) {
        links.prefetch(slot, settled: settled)
        if settled {
            // A small-queue victim's key joins the ghost FIFO: its bucket there.
            if queue[slot] == .small { ghost?.prefetch(keys[slot]) }
        } else {
            queue.prefetch(Int(slot))
            hits.prefetch(Int(slot))
            keys.prefetch(Int(slot))
            costs.prefetch(Int(slot))
        }
    }

    @inline(__always)
    public mutating func prefetchHit(_ slot: Int32, settled: Bool) {
        if !settled { hits.prefetch(Int(slot)) }
    }

    public mutating func removed(_ slot: Int32) { leave(slot) }

    public mutating func notStored() { cameFromGhost = false }

    public mutating func evict() -> Int32 {
        hasEvicted = true
        while true {
            // Evicting from the small queue may only move its entries to main: then look again.
            let victim = main.cost > mainLimit || small.cost == 0 ? evictMain() : evictSmall()
            if victim >= 0 { return victim }
        }
    }

    public mutating func removeAll() {
        small.removeAll()
        main.removeAll()
        ghost?.removeAll()
        cameFromGhost = false
        hasEvicted = false
    }

    public func checkedSlots() -> [Int32] {
        ghost?.checkInvariants(name: "S3-FIFO.ghost")
        let inSmall = small.checkedSlots(in: links, costs: costs, name: "S3-FIFO.small")
        let inMain = main.checkedSlots(in: links, costs: costs, name: "S3-FIFO.main")
        precondition(inSmall.allSatisfy { queue[$0] == .small }, "S3-FIFO: a slot in small is not tagged small")
        precondition(inMain.allSatisfy { queue[$0] == .main }, "S3-FIFO: a slot in main is not tagged main")
        return inSmall + inMain
    }

    /// The keys in the small queue and in main, oldest first (for tests).
    var queueKeys: (small: [UInt64], main: [UInt64]) {
        (small.slots(in: links).map { keys[$0] }, main.slots(in: links).map { keys[$0] })
    }

    /// The keys the ghost FIFO remembers, oldest first (for tests).
    var ghostKeys: [UInt64] { ghost?.storedKeys ?? [] }

    /// The hits counted for the entry of `key`, or nil if it is not stored (for tests).
    func hitCount(of key: UInt64) -> Int? {
        (small.slots(in: links) + main.slots(in: links)).first { keys[$0] == key }.map { hits[$0] }
    }

    // The small queue's oldest entries move to main while they were hit often enough; the first
    // one that was not leaves (its key becomes a ghost) and is returned. -1 if none left.
    @inline(__always)
    private mutating func evictSmall() -> Int32 {
        while !small.isEmpty {
            let slot = small.head
            leave(slot)
            if hits[slot] >= Self.moveToMainThreshold {
                hits[slot] = 0
                join(slot, .main)
            } else {
                ghost?.add(keys[slot], cost: costs[slot])
                return slot
            }
        }
        return -1
    }

    // Main's oldest entries go round again while they were hit, one hit fewer (at most 2 left);
    // the first one that was not is returned.
    @inline(__always)
    private mutating func evictMain() -> Int32 {
        while hits[main.head] > 0 {
            let slot = main.head
            hits[slot] = min(hits[slot], 3) - 1
            main.moveToTail(slot, in: links)
        }
        let slot = main.head
        leave(slot)
        return slot
    }

    @inline(__always)
    private mutating func join(_ slot: Int32, _ target: Queue) {
        queue[slot] = target
        if target == .small {
            small.append(slot, cost: costs[slot], in: links)
        } else {
            main.append(slot, cost: costs[slot], in: links)
        }
    }

    @inline(__always)
    private mutating func leave(_ slot: Int32) {
        switch queue[slot] {
        case .small:
            small.remove(slot, cost: costs[slot], in: links)
        case .main:
            main.remove(slot, cost: costs[slot], in: links)
        case .none:
            preconditionFailure("S3-FIFO: slot \(slot) is in no queue")
        }
        queue[slot] = .none
    }
}
