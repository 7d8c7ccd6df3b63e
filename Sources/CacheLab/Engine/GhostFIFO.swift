/// The keys of recently evicted entries ("ghosts"), oldest first, bounded by the sum of their
/// costs the way libCacheSim bounds the FIFO caches it uses as ghost lists (2Q's Aout, S3-FIFO's
/// ghost queue): a key is added at the new end after the oldest leave until it fits, unless it is
/// there already (nothing moves) or costs more than the whole queue (nothing is added).
///
/// Ghost nodes come from a pool threaded by `SlotLinks` and keys are found through a `SlotIndex`,
/// so adding and removing allocate nothing once the pool and the index have grown to the most
/// ghosts held at once.
///
/// - Complexity: O(1) lookup and removal; O(1) amortized add (each key leaves at most once).
/// - Invariant: `order` and `index` hold the same ghosts; `totalCost` is the sum of their costs
///   and at most `capacity`.
struct GhostFIFO {
    /// The most the ghosts' costs may add up to.
    let capacity: Int
    private(set) var totalCost = 0
    private let links = SlotLinks()
    private var order = SlotList()
    private let keys = SlotArray<UInt64>(count: 0, filling: 0)
    private let costs = SlotArray<Int>(count: 0, filling: 0)
    private var freeNodes = SlotStack()
    private var index = SlotIndex<UInt64>(minimumCapacity: 16)

    init(capacity: Int) {
        self.capacity = capacity
    }

    var count: Int { order.count }

    func contains(_ key: UInt64) -> Bool { index.slot(for: key) >= 0 }

    /// Forgets `key`; returns whether it was a ghost.
    @inline(__always)
    mutating func remove(_ key: UInt64) -> Bool { take(key) != nil }

    /// Forgets `key`; returns the cost it was remembered with, or nil if it was not a ghost.
    @inline(__always)
    mutating func take(_ key: UInt64) -> Int? {
        let node = index.slot(for: key)
        guard node >= 0 else { return nil }
        let cost = costs[node]
        drop(node)
        return cost
    }

    /// Remembers `key`, evicted with `cost`, at the new end (see the type's rules).
    @inline(__always)
    mutating func add(_ key: UInt64, cost: Int) {
        guard cost <= capacity, index.slot(for: key) < 0 else { return }
        while totalCost + cost > capacity { drop(order.head) }
        if freeNodes.isEmpty { growPool() }
        let node = freeNodes.pop()
        keys[node] = key
        costs[node] = cost
        order.append(node, in: links)
        index.insert(key, slot: node)
        totalCost += cost
    }

    /// Forgets the oldest ghost; there must be one.
    @inline(__always)
    mutating func removeOldest() { drop(order.head) }

    mutating func removeAll() {
        for node in order.slots(in: links) { freeNodes.push(node) }
        order.removeAll()
        index.removeAll()
        totalCost = 0
    }

    /// The ghost keys, oldest first (for tests).
    var storedKeys: [UInt64] { order.slots(in: links).map { keys[$0] } }

    func checkInvariants(name: String) {
        order.checkInvariants(in: links, name: name)
        index.checkInvariants()
        precondition(index.count == order.count, "\(name): \(index.count) keys indexed, \(order.count) queued")
        var sum = 0
        for node in order.slots(in: links) {
            precondition(index.slot(for: keys[node]) == node, "\(name): node \(node) not indexed under its key")
            sum += costs[node]
        }
        precondition(sum == totalCost, "\(name): totalCost \(totalCost) but ghosts cost \(sum)")
        precondition(totalCost <= capacity, "\(name): totalCost \(totalCost) over capacity \(capacity)")
    }

    @inline(__always)
    private mutating func drop(_ node: Int32) {
        order.remove(node, in: links)
        index.remove(keys[node])
        totalCost -= costs[node]
        freeNodes.push(node)
    }

    // Doubles the node pool; the new nodes are handed out lowest first.
    private mutating func growPool() {
        let old = keys.count
        let grown = Swift.max(16, old * 2)
        keys.grow(to: grown, filling: 0)
        costs.grow(to: grown, filling: 0)
        links.grow(to: grown)
        freeNodes.reserve(grown)
        for node in (old..<grown).reversed() { freeNodes.push(Int32(node)) }
    }
}
