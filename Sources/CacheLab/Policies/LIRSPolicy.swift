/// Evicts the oldest resident HIR entry (one not reused recently enough to be LIR); an LIR entry is
/// demoted to HIR when it reaches the bottom of the LIRS stack while the LIR set is full, and an HIR
/// entry becomes LIR when it is reused while still in the stack.
///
/// LIRS (Jiang and Zhang, "LIRS: An Efficient Low Inter-reference Recency Set Replacement Policy
/// to Improve Buffer Cache Performance", SIGMETRICS 2002) as libCacheSim 0.3.5's `LIRS` builds
/// it, from three LRU lists of its own: the stack S (LIR entries, resident HIR entries and
/// non-resident HIR entries, most recent on top), the queue Q of resident HIR entries, and the
/// list NH of the keys that became non-resident, oldest first. An entry in S and one in Q are
/// separate records of the same key. Its rules, in the entries' costs (bytes or one each):
/// - HIR entries get 1 % of the capacity (truncated, at least 1), LIR entries the rest. A newcomer
///   costing more than the HIR share is not stored. A newcomer that fits the LIR set becomes LIR;
///   any other becomes HIR in S and Q, after the oldest HIR entries leave while both sets are full.
/// - A hit on an LIR entry moves it to the top and prunes S: HIR entries leave its bottom until an
///   LIR entry is there (the top one stays). A hit on a resident HIR entry in S makes it LIR (out of
///   Q), after demoting S's bottom while the LIR set lacks room; one found in Q only goes on top of
///   S as HIR, after the same demotions (even though it does not become LIR).
/// - A key coming back while S still holds it as non-resident becomes LIR, at the cost it had;
///   demotions make room first, and eviction runs HIR evictions then a demotion.
/// - Demoting S's bottom takes whatever is there (normally LIR): it joins Q if it fits the HIR
///   share, then S is pruned. Evicting an HIR entry leaves its S record, if any, non-resident.
/// - After every request, while S's records cost more than twice the capacity, the oldest
///   non-resident keys leave S.
/// - libCacheSim's LIR and HIR counts are unsigned and wrap, and it counts the cost held by hand;
///   this policy does the same, so that it takes the same decisions where those counts drift.
///
/// Matches libCacheSim's `LIRS` exactly. This policy makes room for a miss itself, by
/// libCacheSim's count (`makesRoomItself`), and a key coming back while S remembers it is stored
/// at the cost S remembers (`storedCost`): so the engine holds what libCacheSim holds, which can be
/// more than the capacity, as in libCacheSim, when its demotions evict the entry being hit from Q,
/// which then re-enters S uncounted (common in caches whose HIR share holds one entry). Where
/// libCacheSim loops forever (its eviction finds nothing to do) this policy stores the entry all
/// the same; where it crashes (demoting from an empty S, evicting from an empty Q) it stops the
/// program with a message (`preconditionFailure`). A trim (a client tier under memory pressure,
/// which libCacheSim has no counterpart for) evicts in LIRS order: Q's oldest, else S's lowest
/// resident entry.
///
/// - Complexity: O(1) expected access and insert; evictions O(1) amortized per entry moved or
///   pruned (hash indexes and intrusive lists in `KeyedRecords`); no allocation once grown.
/// - Invariant: the engine's live slots are exactly the resident keys (LIR or resident HIR in S,
///   or in Q), each indexed under its slot; S's cost is the sum of its records'.
public struct LIRSPolicy: EvictionPolicy {
    public static let summary =
        "LIR set of reused entries, 1 % for HIR entries evicted first, a stack of recency (libCacheSim LIRS)"
    public static let storedShare: Double? = 0.01
    public static let relativeCost = 2.5
    public static let makesRoomItself = true

    /// The HIR entries' share: 1 % of the capacity, truncated, at least 1.
    let hirLimit: UInt64
    /// The LIR entries' share: the rest (wrapping, as libCacheSim's, for a capacity of 0).
    let lirLimit: UInt64
    private let capacity: Int
    /// libCacheSim's counts of LIR and resident HIR cost: unsigned, wrapping.
    private(set) var lirCount: UInt64 = 0
    private(set) var hirCount: UInt64 = 0
    /// libCacheSim's count of the cost held, kept by hand as it keeps it.
    private(set) var occupied = 0
    /// S: every record's flags, in `stack`, bottom (least recent) first.
    private var stackRecords = KeyedRecords(filler: Flags())
    private var stack = CostedList()
    /// Q: resident HIR records, oldest first.
    private var queueRecords = KeyedRecords(filler: ())
    private var queue = SlotList()
    /// NH: keys that became non-resident HIR, oldest first.
    private var nonResidentRecords = KeyedRecords(filler: ())
    private var nonResident = SlotList()
    private let keys = SlotArray<UInt64>(count: 0, filling: 0)
    /// The slot of every resident key.
    private var resident = SlotIndex<UInt64>(minimumCapacity: 16)
    /// Evicted slots not yet handed to the engine.
    private var pending = SlotStack()
    /// The key being hit: libCacheSim may take it out of Q and put it back in S within the hit.
    private var current: UInt64?
    /// The miss being stored, and whether libCacheSim's admission and evictions have run for it.
    private var incoming: (key: UInt64, cost: Int)?
    private var prepared = false
    /// Q's oldest, S's bottom and NH's oldest record when `prefetch` last ran (hints only).
    private var hinted: (queue: Int32?, bottom: Int32?, nonResident: Int32?) = (nil, nil, nil)

    struct Flags {
        var isLIR = false
        var isResident = false
    }

    public init(configuration: CacheConfiguration) {
        capacity = configuration.capacity
        // libCacheSim computes the share in double precision and truncates.
        hirLimit = max(1, UInt64(0.01 * Double(configuration.capacity)))
        lirLimit = UInt64(bitPattern: Int64(configuration.capacity) &- Int64(bitPattern: hirLimit))
    }

    public mutating func grow(to slotCount: Int) {
        keys.grow(to: slotCount, filling: 0)
        pending.reserve(slotCount)
    }

    /// The buckets a request for `key` looks up in S, Q, NH and the resident index, and the
    /// records an eviction or a demotion starts from (Q's oldest, S's bottom).
    @inline(__always)
    public mutating func prefetch(_ key: UInt64) {
        stackRecords.prefetch(key)
        queueRecords.prefetch(key)
        nonResidentRecords.prefetch(key)
        resident.prefetch(key)
        // The records the next evictions start from; once they have arrived (the same record as
        // on the request before), the buckets their keys will be looked up in.
        let oldest = (queue: queue.first, bottom: stack.first, nonResident: nonResident.first)
        if let record = oldest.queue, record == hinted.queue {
            prefetchBuckets(queueRecords.key(record))
        } else if let record = oldest.queue {
            queueRecords.prefetchRecord(record)
        }
        if let record = oldest.bottom, record == hinted.bottom {
            prefetchBuckets(stackRecords.key(record))
        } else if let record = oldest.bottom {
            stackRecords.prefetchRecord(record)
        }
        if let record = oldest.nonResident, record == hinted.nonResident {
            prefetchBuckets(nonResidentRecords.key(record))
        } else if let record = oldest.nonResident {
            nonResidentRecords.prefetchRecord(record)
        }
        hinted = oldest
    }

    @inline(__always)
    private mutating func prefetchBuckets(_ key: UInt64) {
        stackRecords.prefetch(key)
        queueRecords.prefetch(key)
        nonResidentRecords.prefetch(key)
        resident.prefetch(key)
    }

    /// The hit's key, then (`settled`) its records in S and Q, whose buckets `prefetch` loaded.
    @inline(__always)
    public mutating func prefetchHit(_ slot: Int32, settled: Bool) {
        guard settled else {
            keys.prefetch(Int(slot))
            return
        }
        let key = keys[slot]
        if let inStack = stackRecords.find(key) { stackRecords.prefetchRecord(inStack) }
        if let inQueue = queueRecords.find(key) { queueRecords.prefetchRecord(inQueue) }
    }

    public mutating func admit(_ key: UInt64, cost: Int) -> Admission {
        incoming = nil
        prepared = false
        // libCacheSim's lookup moves the key's records to the top of S and of Q.
        let inStack = stackRecords.find(key)
        if let inStack { stack.moveToTail(inStack, in: stackRecords.links) }
        let inQueue = queueRecords.find(key)
        if let inQueue { queue.moveToTail(inQueue, in: queueRecords.links) }
        let admitted: Bool
        if cost > capacity {
            admitted = false
        } else if let inStack, !stackRecords.extras[inStack].isLIR && !stackRecords.extras[inStack].isResident {
            admitted = true
        } else if inStack == nil && inQueue == nil {
            admitted = UInt64(cost) <= lirLimit && UInt64(cost) <= hirLimit
        } else {
            preconditionFailure("LIRS: a miss on key \(key), which LIRS holds as resident: libCacheSim aborts here")
        }
        guard admitted else {
            limitStack()
            return .reject
        }
        incoming = (key, cost)
        return .store
    }

    public mutating func notStored() {
        incoming = nil
        limitStack()
    }

    /// A key coming back while S remembers it is stored at the cost S remembers, as libCacheSim
    /// counts it; any other newcomer at the request's.
    public mutating func storedCost(_ cost: Int) -> Int {
        guard let (key, _) = incoming else { return cost }
        let inStack = stackRecords.find(key)
        guard let inStack, !stackRecords.extras[inStack].isLIR, !stackRecords.extras[inStack].isResident else {
            return cost
        }
        return stackRecords.costs[inStack]
    }

    public mutating func victimBeforeInsert(cost: Int) -> Int32? {
        prepare()
        return pending.isEmpty ? nil : pending.pop()
    }

    public mutating func pendingVictim() -> Int32? {
        prepare()
        return pending.isEmpty ? nil : pending.pop()
    }

    public mutating func evict() -> Int32? {
        prepare()
        if pending.isEmpty { evictOnOwnRules() }
        return pending.pop()
    }

    public mutating func inserted(_ slot: Int32, key: UInt64, cost: Int) {
        prepare()
        incoming = nil
        keys[slot] = key
        let inStack = stackRecords.find(key)
        if let inStack, !stackRecords.extras[inStack].isLIR && !stackRecords.extras[inStack].isResident {
            // A non-resident key comes back as LIR, at the cost it had.
            stackRecords.extras[inStack] = Flags(isLIR: true, isResident: true)
            let stored = stackRecords.costs[inStack]
            lirCount &+= UInt64(stored)
            occupied += stored
        } else if inStack == nil && !queueRecords.contains(key) {
            if lirCount &+ UInt64(cost) <= lirLimit {
                push(key, cost: cost, Flags(isLIR: true, isResident: true))
                lirCount &+= UInt64(cost)
            } else {
                // HIR, whether or not the HIR set has room (libCacheSim's two branches agree).
                push(key, cost: cost, Flags(isLIR: false, isResident: true))
                enqueue(key, cost: cost)
                hirCount &+= UInt64(cost)
            }
            occupied += cost
        }
        resident.insert(key, slot: slot)
        limitStack()
    }

    public mutating func accessed(_ slot: Int32) {
        let key = keys[slot]
        current = key
        let inStack = stackRecords.find(key)
        if let inStack { stack.moveToTail(inStack, in: stackRecords.links) }
        let inQueue = queueRecords.find(key)
        if let inQueue { queue.moveToTail(inQueue, in: queueRecords.links) }
        if let inStack {
            let flags = stackRecords.extras[inStack]
            if flags.isLIR {
                prune()
            } else if flags.isResident {
                hitResidentHIRInStack(inStack, inQueue, key: key)
            }
        } else if let inQueue {
            hitResidentHIRInQueue(inQueue, key: key)
        }
        limitStack()
        current = nil
        settle(key)
    }

    public mutating func removed(_ slot: Int32) {
        let key = keys[slot]
        resident.remove(key)
        let inStack = stackRecords.find(key)
        if let inStack, stackRecords.extras[inStack].isLIR || stackRecords.extras[inStack].isResident {
            if stackRecords.extras[inStack].isLIR {
                lirCount &-= UInt64(stackRecords.costs[inStack])
                occupied -= stackRecords.costs[inStack]
            }
            pop(inStack)
        }
        if let inQueue = queueRecords.find(key) {
            hirCount &-= UInt64(queueRecords.costs[inQueue])
            occupied -= queueRecords.costs[inQueue]
            dequeue(inQueue)
        }
    }

    public mutating func removeAll() {
        stackRecords.removeAll()
        stack.removeAll()
        queueRecords.removeAll()
        queue.removeAll()
        nonResidentRecords.removeAll()
        nonResident.removeAll()
        resident.removeAll()
        pending.removeAll()
        lirCount = 0
        hirCount = 0
        occupied = 0
        incoming = nil
        current = nil
    }

    public func checkedSlots() -> [Int32] {
        precondition(pending.isEmpty, "LIRS: evicted slots left undelivered")
        stackRecords.checkInvariants(name: "LIRS.S")
        queueRecords.checkInvariants(name: "LIRS.Q")
        nonResidentRecords.checkInvariants(name: "LIRS.NH")
        let inStack = stack.checkedSlots(in: stackRecords.links, costs: stackRecords.costs, name: "LIRS.S")
        precondition(inStack.count == stackRecords.count, "LIRS: S has records outside its list")
        queue.checkInvariants(in: queueRecords.links, name: "LIRS.Q")
        precondition(queue.count == queueRecords.count, "LIRS: Q has records outside its list")
        nonResident.checkInvariants(in: nonResidentRecords.links, name: "LIRS.NH")
        precondition(nonResident.count == nonResidentRecords.count, "LIRS: NH has records outside its list")
        resident.checkInvariants()
        var residentKeys = Set(queue.slots(in: queueRecords.links).map { queueRecords.key($0) })
        for record in inStack where stackRecords.extras[record].isLIR || stackRecords.extras[record].isResident {
            residentKeys.insert(stackRecords.key(record))
        }
        let pairs = resident.pairs
        precondition(
            Set(pairs.map(\.0)) == residentKeys && pairs.count == residentKeys.count,
            "LIRS: \(pairs.count) slots indexed, \(residentKeys.count) keys resident")
        precondition(pairs.allSatisfy { keys[$0.1] == $0.0 }, "LIRS: a slot holds another key than its index entry")
        // Next victim first: Q from its oldest, then the rest of the resident keys from S's bottom.
        var ordered = queue.slots(in: queueRecords.links).map { queueRecords.key($0) }
        var seen = Set(ordered)
        for record in inStack where stackRecords.extras[record].isLIR || stackRecords.extras[record].isResident {
            if seen.insert(stackRecords.key(record)).inserted { ordered.append(stackRecords.key(record)) }
        }
        return ordered.map { resident.slot(for: $0)! }
    }

    /// S from the top down, each key with its state (`L` LIR, `h` resident HIR, `n` non-resident
    /// HIR), and Q's keys from the newest (for tests, in the notation of the specification).
    var stacks: (stack: String, queue: [UInt64]) {
        let states = stack.slots(in: stackRecords.links).reversed().map { record in
            let flags = stackRecords.extras[record]
            return "\(stackRecords.key(record))" + (flags.isLIR ? "L" : flags.isResident ? "h" : "n")
        }
        return (
            states.joined(separator: " "), queue.slots(in: queueRecords.links).reversed().map { queueRecords.key($0) }
        )
    }

    // MARK: libCacheSim's operations

    // The rest of libCacheSim's admission for the miss `admit` let through, and its evictions
    // while the cost it counts leaves no room: run once, before the engine needs a victim.
    private mutating func prepare() {
        guard let (key, cost) = incoming, !prepared else { return }
        prepared = true
        let inStack = stackRecords.find(key)
        if let inStack, !stackRecords.extras[inStack].isLIR && !stackRecords.extras[inStack].isResident {
            let stored = UInt64(stackRecords.costs[inStack])
            while lirCount &+ stored > lirLimit { demoteBottom() }
            forgetNonResident(key)
        } else if lirCount &+ UInt64(cost) > lirLimit && hirCount &+ UInt64(cost) > hirLimit {
            while hirCount &+ UInt64(cost) > hirLimit { evictHIR() }
        }
        while occupied + cost > capacity {
            // Where libCacheSim's eviction finds nothing to do, it loops forever; this stops.
            guard evictForMiss(key, cost: cost) else { break }
        }
    }

    // libCacheSim's eviction for the miss on `key`; false when it does nothing.
    private mutating func evictForMiss(_ key: UInt64, cost: Int) -> Bool {
        if let inStack = stackRecords.find(key) {
            guard !stackRecords.extras[inStack].isLIR && !stackRecords.extras[inStack].isResident else { return false }
            while hirCount >= hirLimit { evictHIR() }
            demoteBottom()
            return true
        }
        guard !queueRecords.contains(key), lirCount &+ UInt64(cost) > lirLimit, hirCount &+ UInt64(cost) > hirLimit
        else { return false }
        evictHIR()
        return true
    }

    private mutating func hitResidentHIRInStack(_ inStack: Int32, _ inQueue: Int32?, key: UInt64) {
        if let inQueue {
            let queued = queueRecords.costs[inQueue]
            hirCount &-= UInt64(queued)
            occupied -= queued
            dequeue(inQueue)
        }
        let cost = stackRecords.costs[inStack]
        while lirCount &+ UInt64(cost) > lirLimit { demoteBottom() }
        // The demotions may have taken the record out of S: libCacheSim still counts it as LIR.
        if let record = stackRecords.find(key) { stackRecords.extras[record].isLIR = true }
        lirCount &+= UInt64(cost)
        occupied += cost
    }

    private mutating func hitResidentHIRInQueue(_ inQueue: Int32, key: UInt64) {
        let cost = queueRecords.costs[inQueue]
        // (The demotions may evict this very key from Q: it goes on top of S all the same.)
        while lirCount &+ UInt64(cost) > lirLimit { demoteBottom() }
        push(key, cost: cost, Flags(isLIR: false, isResident: true))
    }

    // libCacheSim's evict_LIR: S's bottom record leaves S; it joins Q as HIR if it fits the HIR
    // share; S is pruned.
    private mutating func demoteBottom() {
        guard let bottom = stack.first else {
            preconditionFailure(
                "LIRS: demoting from an empty stack (LIR count \(lirCount) of \(lirLimit)): libCacheSim 0.3.5 "
                    + "crashes here, so there are no counts to give")
        }
        let key = stackRecords.key(bottom)
        let cost = stackRecords.costs[bottom]
        lirCount &-= UInt64(cost)
        pop(bottom)
        occupied -= cost
        if UInt64(cost) <= hirLimit {
            while hirCount &+ UInt64(cost) > hirLimit { evictHIR() }
            enqueue(key, cost: cost)
            hirCount &+= UInt64(cost)
            occupied += cost
        }
        prune()
        settle(key)
    }

    // libCacheSim's evict_HIR: Q's oldest leaves the cache; its S record, if any, turns
    // non-resident and its key joins NH.
    private mutating func evictHIR() {
        guard let oldest = queue.first else {
            preconditionFailure(
                "LIRS: evicting an HIR entry from an empty queue (HIR count \(hirCount) of \(hirLimit)): "
                    + "libCacheSim 0.3.5 crashes here, so there are no counts to give")
        }
        let key = queueRecords.key(oldest)
        let cost = queueRecords.costs[oldest]
        hirCount &-= UInt64(cost)
        dequeue(oldest)
        if let inStack = stackRecords.find(key) {
            stackRecords.extras[inStack].isResident = false
            rememberNonResident(key, cost: cost)
        }
        occupied -= cost
        settle(key)
    }

    // HIR records leave S's bottom until an LIR record is there; the top record always stays.
    private mutating func prune() {
        while let bottom = stack.first, bottom != stack.tail {
            let flags = stackRecords.extras[bottom]
            if flags.isLIR { break }
            let key = stackRecords.key(bottom)
            if !flags.isResident { forgetNonResident(key) }
            pop(bottom)
            settle(key)
        }
    }

    // While S's records cost more than twice the capacity, the oldest non-resident keys leave S.
    private mutating func limitStack() {
        while stack.cost > capacity && stack.cost - capacity > capacity {
            guard let oldest = nonResident.first else { break }
            let key = nonResidentRecords.key(oldest)
            if let inStack = stackRecords.find(key) { pop(inStack) }
            nonResident.remove(oldest, in: nonResidentRecords.links)
            nonResidentRecords.remove(oldest)
            settle(key)
        }
    }

    // A trim: Q's oldest leaves, else S's lowest resident entry.
    private mutating func evictOnOwnRules() {
        repeat {
            if !queue.isEmpty {
                evictHIR()
                continue
            }
            // The lowest resident record of S.
            var cursor = stack.first
            while let record = cursor, !stackRecords.extras[record].isLIR && !stackRecords.extras[record].isResident {
                cursor = stackRecords.links.next(record)
            }
            guard let record = cursor else { preconditionFailure("LIRS: the engine holds entries LIRS does not") }
            let key = stackRecords.key(record)
            let cost = stackRecords.costs[record]
            if stackRecords.extras[record].isLIR {
                lirCount &-= UInt64(cost)
                occupied -= cost
                pop(record)
                prune()
            } else {
                // A resident HIR entry libCacheSim no longer counts: it turns non-resident.
                stackRecords.extras[record].isResident = false
                rememberNonResident(key, cost: cost)
            }
            settle(key)
        } while pending.isEmpty
    }

    // MARK: Records

    // A key that may have stopped being resident: its slot goes to the engine as evicted, unless
    // it is the key being hit (settled when the hit is over).
    private mutating func settle(_ key: UInt64) {
        // (Whether it is resident first: S's and Q's buckets for `key` were just read.)
        guard key != current, !isResident(key), let slot = resident.slot(for: key) else { return }
        resident.remove(key)
        pending.push(slot)
    }

    // Mutating only so that calling it does not copy the policy (442 bytes) onto the stack.
    private mutating func isResident(_ key: UInt64) -> Bool {
        let inStack = stackRecords.find(key)
        if let inStack, stackRecords.extras[inStack].isLIR || stackRecords.extras[inStack].isResident {
            return true
        }
        return queueRecords.contains(key)
    }

    private mutating func push(_ key: UInt64, cost: Int, _ flags: Flags) {
        let record = stackRecords.add(key, cost: cost, extra: flags)
        stack.append(record, cost: cost, in: stackRecords.links)
    }

    private mutating func pop(_ record: Int32) {
        stack.remove(record, cost: stackRecords.costs[record], in: stackRecords.links)
        stackRecords.remove(record)
    }

    // A key already in Q (libCacheSim would link a second record, which its tests never met)
    // becomes Q's newest.
    private mutating func enqueue(_ key: UInt64, cost: Int) {
        if let present = queueRecords.find(key) {
            queue.moveToTail(present, in: queueRecords.links)
            return
        }
        queue.append(queueRecords.add(key, cost: cost, extra: ()), in: queueRecords.links)
    }

    private mutating func dequeue(_ record: Int32) {
        queue.remove(record, in: queueRecords.links)
        queueRecords.remove(record)
    }

    private mutating func rememberNonResident(_ key: UInt64, cost: Int) {
        if let present = nonResidentRecords.find(key) {
            nonResident.moveToTail(present, in: nonResidentRecords.links)
            return
        }
        nonResident.append(nonResidentRecords.add(key, cost: cost, extra: ()), in: nonResidentRecords.links)
    }

    private mutating func forgetNonResident(_ key: UInt64) {
        guard let record = nonResidentRecords.find(key) else { return }
        nonResident.remove(record, in: nonResidentRecords.links)
        nonResidentRecords.remove(record)
    }
}
