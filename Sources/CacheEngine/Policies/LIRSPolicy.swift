/// Evicts the oldest resident HIR entry (one not reused recently enough to be LIR); an LIR entry is
/// demoted to HIR when it reaches the bottom of the LIRS stack while the LIR set is full, and an HIR
/// entry becomes LIR when it is reused while still in the stack.
///
/// LIRS (Jiang and Zhang, "LIRS: An Efficient Low Inter-reference Recency Set Replacement Policy
/// to Improve Buffer Cache Performance", SIGMETRICS 2002) as libCacheSim 0.3.5's `LIRS` builds
/// it, from three LRU lists of its own: the stack S (LIR entries, resident HIR entries and
/// non-resident HIR entries, most recent on top), the queue Q of resident HIR entries, and the
/// list NH of the keys that became non-resident, oldest first. An entry in S and one in Q are
/// separate entries of the same key, each with its own cost (here one record holds both). Its
/// rules, in the entries' costs (bytes or one each):
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
/// - After every request, while S's entries cost more than twice the capacity, the oldest
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
///   pruned. One record per key LIRS knows (in S, in Q, in NH, stored, or several at once), found
///   through one hash index (`KeyedRecords`, with the simulator's keys the cache's index too:
///   `indexesKeys`) and linked into three intrusive lists. No allocation once grown.
/// - Invariant: the engine's live slots are exactly the resident keys (LIR or resident HIR in S,
///   or in Q), each record knowing its slot; a record lives while it is in a list or stored; S's
///   cost is the sum of its records'.
public struct LIRSPolicy: AdmittingPolicy, KeyIndexingPolicy, SelfCountingPolicy, PrefetchingPolicy {
    public static let libCacheSimName: String? = "LIRS"
    public static let summary =
        "LIR set of reused entries, 1 % for HIR entries evicted first, a stack of recency (libCacheSim LIRS)"
    public static let storedShare: Double? = 0.01
    public static let relativeCost = 2.5

    /// The HIR entries' share: 1 % of the capacity, truncated, at least 1.
    @usableFromInline package let hirLimit: UInt64
    /// The LIR entries' share: the rest (wrapping, as libCacheSim's, for a capacity of 0).
    @usableFromInline package let lirLimit: UInt64
    @usableFromInline package let capacity: Int
    /// libCacheSim's counts of LIR and resident HIR cost: unsigned, wrapping.
    @usableFromInline package var lirCount: UInt64 = 0
    @usableFromInline package var hirCount: UInt64 = 0
    /// libCacheSim's count of the cost held, kept by hand as it keeps it.
    @usableFromInline package var occupied = 0
    /// Every key's record: `records.costs` is its cost in S, `records.links` its place in S.
    @usableFromInline package var records = KeyedRecords(filler: Record())
    /// S: bottom (least recent) first.
    @usableFromInline package var stack = CostedList()
    /// Q: resident HIR records, oldest first.
    @usableFromInline package let queueLinks = SlotLinks()
    @usableFromInline package var queue = SlotList()
    /// NH: keys that became non-resident HIR, oldest first.
    @usableFromInline package let nonResidentLinks = SlotLinks()
    @usableFromInline package var nonResident = SlotList()
    /// How many records `queueLinks` and `nonResidentLinks` have room for.
    @usableFromInline package var linkedCapacity = 0
    /// The record of the key in each engine slot.
    @usableFromInline package let recordOf = SlotArray<Int32>(count: 0, filling: 0)
    /// Evicted slots not yet handed to the engine.
    @usableFromInline package var pending = SlotStack()
    /// The key being hit: libCacheSim may take it out of Q and put it back in S within the hit.
    @usableFromInline package var current: UInt64?
    /// The miss being stored, and whether libCacheSim's admission and evictions have run for it.
    @usableFromInline package var incoming: (key: UInt64, cost: Int)?
    @usableFromInline package var prepared = false
    /// Q's oldest, S's bottom and NH's oldest record when `prefetch` last ran (hints only).
    @usableFromInline package var hinted: (queue: Int32?, bottom: Int32?, nonResident: Int32?) = (nil, nil, nil)

    /// What LIRS knows of a key. S and Q hold separate entries of it in libCacheSim, each with
    /// its own cost: S's is `records.costs`, Q's `queueCost`.
    @usableFromInline package struct Record {
        @usableFromInline package var inStack = false
        /// S's flags (false while not in S).
        @usableFromInline package var isLIR = false
        @usableFromInline package var isResident = false
        @usableFromInline package var inQueue = false
        @usableFromInline package var queueCost = 0
        @usableFromInline package var inNonResident = false
        /// The engine slot the key is stored in, nil while it is not.
        @usableFromInline package var slot: Int32?

        @inlinable package var isUnused: Bool { !inStack && !inQueue && !inNonResident && slot == nil }

        @inlinable package init(
            inStack: Bool = false, isLIR: Bool = false, isResident: Bool = false, inQueue: Bool = false,
            queueCost: Int = 0, inNonResident: Bool = false, slot: Int32? = nil
        ) {
            self.inStack = inStack
            self.isLIR = isLIR
            self.isResident = isResident
            self.inQueue = inQueue
            self.queueCost = queueCost
            self.inNonResident = inNonResident
            self.slot = slot
        }
    }

    @inlinable public init(configuration: CacheConfiguration) {
        capacity = configuration.capacity
        // libCacheSim computes the share in double precision and truncates.
        hirLimit = max(1, UInt64(0.01 * Double(configuration.capacity)))
        lirLimit = UInt64(bitPattern: Int64(configuration.capacity) &- Int64(bitPattern: hirLimit))
    }

    @inlinable public mutating func grow(to slotCount: Int) {
        recordOf.grow(to: slotCount, filling: 0)
        pending.reserve(slotCount)
    }

    /// The bucket a request for `key` looks up, and the records the next evictions start from;
    /// once those have arrived (the same record as on the request before), their keys' buckets.
    @inline(__always)
    @inlinable public mutating func prefetch(_ key: UInt64) {
        records.prefetch(key)
        let oldest = (queue: queue.first, bottom: stack.first, nonResident: nonResident.first)
        records.prefetchComing(oldest.queue, settled: oldest.queue == hinted.queue)
        records.prefetchComing(oldest.bottom, settled: oldest.bottom == hinted.bottom)
        records.prefetchComing(oldest.nonResident, settled: oldest.nonResident == hinted.nonResident)
        hinted = oldest
    }

    /// The records' index is the cache's index too (with the simulator's keys): every resident
    /// key has a record, which holds its slot. So a miss looks its key up once, not in the
    /// engine's index and then in the records', and an eviction leaves no engine index to update.
    @inline(__always)
    @inlinable public func indexedSlot(for key: UInt64) -> Int32? {
        guard let record = records.find(key) else { return nil }
        return records.extras[record].slot
    }

    /// Once the key's bucket has arrived (`prefetch(_:)` asked for it), its record's fields.
    @inline(__always)
    @inlinable public func prefetchLookup(_ key: UInt64, settled: Bool) {
        if settled { records.prefetchRecord(forKey: key) }
    }

    /// The hit's record, then (`settled`) its place in S (where the engine keeps its own index:
    /// a client's keys).
    @inline(__always)
    @inlinable public mutating func prefetchHit(_ slot: Int32, settled: Bool) {
        guard settled else {
            recordOf.prefetch(Int(slot))
            return
        }
        records.prefetchRecord(recordOf[slot])
    }

    @inlinable public mutating func admit(_ key: UInt64, cost: Int) -> Admission {
        incoming = nil
        prepared = false
        // libCacheSim's lookup moves the key's entries to the top of S and of Q.
        let record = records.find(key)
        let state = record.map { records.extras[$0] } ?? Record()
        if let record, state.inStack { stack.moveToTail(record, in: records.links) }
        if let record, state.inQueue { queue.moveToTail(record, in: queueLinks) }
        let admitted: Bool
        if cost > capacity {
            admitted = false
        } else if state.inStack && !state.isLIR && !state.isResident {
            admitted = true
        } else if !state.inStack && !state.inQueue {
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

    @inlinable public mutating func notStored() {
        incoming = nil
        limitStack()
    }

    /// A key coming back while S remembers it is stored at the cost S remembers, as libCacheSim
    /// counts it; any other newcomer at the request's.
    @inlinable public mutating func storedCost(_ cost: Int) -> Int {
        guard let (key, _) = incoming, let record = nonResidentInStack(key) else { return cost }
        return records.costs[record]
    }

    @inlinable public mutating func victimBeforeInsert(cost: Int) -> Int32? {
        prepare()
        return pending.isEmpty ? nil : pending.pop()
    }

    @inlinable public mutating func pendingVictim() -> Int32? {
        prepare()
        return pending.isEmpty ? nil : pending.pop()
    }

    @inlinable public mutating func evict() -> Int32? {
        prepare()
        if pending.isEmpty { evictOnOwnRules() }
        return pending.pop()
    }

    @inlinable public mutating func inserted(_ slot: Int32, key: UInt64, cost: Int) {
        prepare()
        incoming = nil
        if let record = nonResidentInStack(key) {
            // A non-resident key comes back as LIR, at the cost it had.
            records.extras[record].isLIR = true
            records.extras[record].isResident = true
            let stored = records.costs[record]
            lirCount &+= UInt64(stored)
            occupied += stored
        } else if !isInStack(key) && !isInQueue(key) {
            if lirCount &+ UInt64(cost) <= lirLimit {
                push(key, cost: cost, isLIR: true)
                lirCount &+= UInt64(cost)
            } else {
                // HIR, whether or not the HIR set has room (libCacheSim's two branches agree).
                push(key, cost: cost, isLIR: false)
                enqueue(key, cost: cost)
                hirCount &+= UInt64(cost)
            }
            occupied += cost
        }
        let record = self.record(key)
        records.extras[record].slot = slot
        recordOf[slot] = record
        limitStack()
    }

    @inlinable public mutating func accessed(_ slot: Int32) {
        let record = recordOf[slot]
        let key = records.key(record)
        current = key
        let state = records.extras[record]
        if state.inStack { stack.moveToTail(record, in: records.links) }
        if state.inQueue { queue.moveToTail(record, in: queueLinks) }
        if state.inStack {
            if state.isLIR {
                prune()
            } else if state.isResident {
                hitResidentHIRInStack(record)
            }
        } else if state.inQueue {
            hitResidentHIRInQueue(record)
        }
        limitStack()
        current = nil
        // (The record lives on: it holds the slot.)
        settle(record)
    }

    @inlinable public mutating func removed(_ slot: Int32, key: UInt64) {
        let record = recordOf[slot]
        records.extras[record].slot = nil
        let state = records.extras[record]
        if state.inStack && (state.isLIR || state.isResident) {
            if state.isLIR {
                lirCount &-= UInt64(records.costs[record])
                occupied -= records.costs[record]
            }
            unlinkFromStack(record)
        }
        if state.inQueue {
            hirCount &-= UInt64(state.queueCost)
            occupied -= state.queueCost
            unlinkFromQueue(record)
        }
        releaseIfUnused(record)
    }

    @inlinable public mutating func removeAll() {
        records.removeAll()
        stack.removeAll()
        queue.removeAll()
        nonResident.removeAll()
        pending.removeAll()
        lirCount = 0
        hirCount = 0
        occupied = 0
        incoming = nil
        current = nil
    }

    @inlinable public func checkedSlots() -> [Int32] {
        precondition(pending.isEmpty, "LIRS: evicted slots left undelivered")
        records.checkInvariants(name: "LIRS")
        let inStack = stack.checkedSlots(in: records.links, costs: records.costs, name: "LIRS.S")
        queue.checkInvariants(in: queueLinks, name: "LIRS.Q")
        nonResident.checkInvariants(in: nonResidentLinks, name: "LIRS.NH")
        let inQueue = queue.slots(in: queueLinks)
        let inNonResident = nonResident.slots(in: nonResidentLinks)
        let live = records.places
        for (list, name, member) in [
            (inStack, "S", \Record.inStack), (inQueue, "Q", \Record.inQueue),
            (inNonResident, "NH", \Record.inNonResident),
        ] {
            precondition(
                Set(list) == Set(live.filter { records.extras[$0][keyPath: member] }) && Set(list).count == list.count,
                "LIRS: \(name) and the records' flags disagree")
        }
        precondition(!live.contains { records.extras[$0].isUnused }, "LIRS: a record in no list and not stored")
        var residentRecords = Set(inQueue)
        for record in inStack where records.extras[record].isLIR || records.extras[record].isResident {
            residentRecords.insert(record)
        }
        let stored = live.filter { records.extras[$0].slot != nil }
        precondition(
            Set(stored) == residentRecords && stored.count == residentRecords.count,
            "LIRS: \(stored.count) keys stored, \(residentRecords.count) resident")
        precondition(
            stored.allSatisfy { recordOf[records.extras[$0].slot!] == $0 },
            "LIRS: a slot names another record than the one holding it")
        // Next victim first: Q from its oldest, then the rest of the resident records from S's bottom.
        var ordered = inQueue
        var seen = Set(ordered)
        for record in inStack where records.extras[record].isLIR || records.extras[record].isResident {
            if seen.insert(record).inserted { ordered.append(record) }
        }
        return ordered.map { records.extras[$0].slot! }
    }

    /// S from the top down, each key with its state (`L` LIR, `h` resident HIR, `n` non-resident
    /// HIR), and Q's keys from the newest (for tests, in the notation of the specification).
    @inlinable package var stacks: (stack: String, queue: [UInt64]) {
        let states = stack.slots(in: records.links).reversed().map { record in
            let state = records.extras[record]
            return "\(records.key(record))" + (state.isLIR ? "L" : state.isResident ? "h" : "n")
        }
        return (states.joined(separator: " "), queue.slots(in: queueLinks).reversed().map { records.key($0) })
    }

    // MARK: libCacheSim's operations

    // The rest of libCacheSim's admission for the miss `admit` let through, and its evictions
    // while the cost it counts leaves no room: run once, before the engine needs a victim.
    @inlinable package mutating func prepare() {
        guard let (key, cost) = incoming, !prepared else { return }
        prepared = true
        if let record = nonResidentInStack(key) {
            let stored = UInt64(records.costs[record])
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
    @inlinable package mutating func evictForMiss(_ key: UInt64, cost: Int) -> Bool {
        if isInStack(key) {
            guard nonResidentInStack(key) != nil else { return false }
            while hirCount >= hirLimit { evictHIR() }
            demoteBottom()
            return true
        }
        guard !isInQueue(key), lirCount &+ UInt64(cost) > lirLimit, hirCount &+ UInt64(cost) > hirLimit
        else { return false }
        evictHIR()
        return true
    }

    // A hit on a resident HIR entry in S (the record holds the slot, so it lives on throughout).
    @inlinable package mutating func hitResidentHIRInStack(_ record: Int32) {
        if records.extras[record].inQueue {
            let queued = records.extras[record].queueCost
            hirCount &-= UInt64(queued)
            occupied -= queued
            unlinkFromQueue(record)
        }
        let cost = records.costs[record]
        while lirCount &+ UInt64(cost) > lirLimit { demoteBottom() }
        // The demotions may have taken the entry out of S: libCacheSim still counts it as LIR.
        if records.extras[record].inStack { records.extras[record].isLIR = true }
        lirCount &+= UInt64(cost)
        occupied += cost
    }

    // A hit on a resident HIR entry found in Q only.
    @inlinable package mutating func hitResidentHIRInQueue(_ record: Int32) {
        let cost = records.extras[record].queueCost
        // (The demotions may evict this very key from Q: it goes on top of S all the same.)
        while lirCount &+ UInt64(cost) > lirLimit { demoteBottom() }
        push(records.key(record), cost: cost, isLIR: false)
    }

    // libCacheSim's evict_LIR: S's bottom entry leaves S; it joins Q as HIR if it fits the HIR
    // share; S is pruned.
    @inlinable package mutating func demoteBottom() {
        guard let bottom = stack.first else {
            preconditionFailure(
                "LIRS: demoting from an empty stack (LIR count \(lirCount) of \(lirLimit)): libCacheSim 0.3.5 "
                    + "crashes here, so there are no counts to give")
        }
        let key = records.key(bottom)
        let cost = records.costs[bottom]
        lirCount &-= UInt64(cost)
        unlinkFromStack(bottom)
        releaseIfUnused(bottom)
        occupied -= cost
        if UInt64(cost) <= hirLimit {
            while hirCount &+ UInt64(cost) > hirLimit { evictHIR() }
            enqueue(key, cost: cost)
            hirCount &+= UInt64(cost)
            occupied += cost
        }
        prune()
        if let record = records.find(key) { settle(record) }
    }

    // libCacheSim's evict_HIR: Q's oldest leaves the cache; its S entry, if any, turns
    // non-resident and its key joins NH.
    @inlinable package mutating func evictHIR() {
        guard let oldest = queue.first else {
            preconditionFailure(
                "LIRS: evicting an HIR entry from an empty queue (HIR count \(hirCount) of \(hirLimit)): "
                    + "libCacheSim 0.3.5 crashes here, so there are no counts to give")
        }
        let cost = records.extras[oldest].queueCost
        hirCount &-= UInt64(cost)
        unlinkFromQueue(oldest)
        if records.extras[oldest].inStack {
            records.extras[oldest].isResident = false
            rememberNonResident(oldest)
        }
        occupied -= cost
        settle(oldest)
    }

    // HIR entries leave S's bottom until an LIR entry is there; the top entry always stays.
    @inlinable package mutating func prune() {
        while let bottom = stack.first, bottom != stack.tail {
            let state = records.extras[bottom]
            if state.isLIR { break }
            if !state.isResident && state.inNonResident { unlinkFromNonResident(bottom) }
            unlinkFromStack(bottom)
            settle(bottom)
        }
    }

    // While S's entries cost more than twice the capacity, the oldest non-resident keys leave S.
    @inlinable package mutating func limitStack() {
        while stack.cost > capacity && stack.cost - capacity > capacity {
            guard let oldest = nonResident.first else { break }
            if records.extras[oldest].inStack { unlinkFromStack(oldest) }
            unlinkFromNonResident(oldest)
            settle(oldest)
        }
    }

    // A trim: Q's oldest leaves, else S's lowest resident entry.
    @inlinable package mutating func evictOnOwnRules() {
        repeat {
            if !queue.isEmpty {
                evictHIR()
                continue
            }
            // The lowest resident entry of S.
            var cursor = stack.first
            while let record = cursor, !records.extras[record].isLIR && !records.extras[record].isResident {
                cursor = records.links.next(record)
            }
            guard let record = cursor else { preconditionFailure("LIRS: the engine holds entries LIRS does not") }
            if records.extras[record].isLIR {
                lirCount &-= UInt64(records.costs[record])
                occupied -= records.costs[record]
                unlinkFromStack(record)
                prune()
            } else {
                // A resident HIR entry libCacheSim no longer counts: it turns non-resident.
                records.extras[record].isResident = false
                rememberNonResident(record)
            }
            settle(record)
        } while pending.isEmpty
    }

    // MARK: Records

    // A record whose key may have stopped being resident: its slot goes to the engine as
    // evicted, unless it is the key being hit (settled when the hit is over); then the record
    // goes if nothing holds it. `record` must be live or have been released just now by the
    // caller's unlinking (then nothing is left to do: a stored record is never released).
    @inlinable package mutating func settle(_ record: Int32) {
        let state = records.extras[record]
        if records.key(record) != current, let slot = state.slot, !Self.isResident(state) {
            records.extras[record].slot = nil
            pending.push(slot)
        }
        releaseIfUnused(record)
    }

    @inlinable package static func isResident(_ state: Record) -> Bool {
        (state.inStack && (state.isLIR || state.isResident)) || state.inQueue
    }

    @inline(__always)
    @inlinable package func isInStack(_ key: UInt64) -> Bool {
        records.find(key).map { records.extras[$0].inStack } ?? false
    }

    @inline(__always)
    @inlinable package func isInQueue(_ key: UInt64) -> Bool {
        records.find(key).map { records.extras[$0].inQueue } ?? false
    }

    // `key`'s record if it is in S as a non-resident HIR entry.
    @inline(__always)
    @inlinable package func nonResidentInStack(_ key: UInt64) -> Int32? {
        guard let record = records.find(key) else { return nil }
        let state = records.extras[record]
        return state.inStack && !state.isLIR && !state.isResident ? record : nil
    }

    // `key`'s record, made (in no list, not stored) if it has none.
    @inlinable package mutating func record(_ key: UInt64) -> Int32 {
        if let record = records.find(key) { return record }
        let record = records.add(key, cost: 0, extra: Record())
        if Int(record) >= linkedCapacity {
            linkedCapacity = records.capacity
            queueLinks.grow(to: linkedCapacity)
            nonResidentLinks.grow(to: linkedCapacity)
        }
        return record
    }

    @inlinable package mutating func releaseIfUnused(_ record: Int32) {
        guard records.extras[record].isUnused, records.find(records.key(record)) == record else { return }
        records.remove(record)
    }

    @inlinable package mutating func push(_ key: UInt64, cost: Int, isLIR: Bool) {
        let record = self.record(key)
        records.costs[record] = cost
        records.extras[record].inStack = true
        records.extras[record].isLIR = isLIR
        records.extras[record].isResident = true
        stack.append(record, cost: cost, in: records.links)
    }

    // Out of S, its flags cleared; the caller releases the record if nothing else holds it.
    @inlinable package mutating func unlinkFromStack(_ record: Int32) {
        stack.remove(record, cost: records.costs[record], in: records.links)
        records.extras[record].inStack = false
        records.extras[record].isLIR = false
        records.extras[record].isResident = false
    }

    // A key already in Q (libCacheSim would link a second entry, which its tests never met)
    // becomes Q's newest.
    @inlinable package mutating func enqueue(_ key: UInt64, cost: Int) {
        let record = self.record(key)
        if !records.extras[record].inQueue { records.extras[record].queueCost = cost }
        Self.join(record, member: records.extras[record].inQueue, &queue, queueLinks)
        records.extras[record].inQueue = true
    }

    @inlinable package mutating func unlinkFromQueue(_ record: Int32) {
        queue.remove(record, in: queueLinks)
        records.extras[record].inQueue = false
    }

    // A key already in NH becomes its newest.
    @inlinable package mutating func rememberNonResident(_ record: Int32) {
        Self.join(record, member: records.extras[record].inNonResident, &nonResident, nonResidentLinks)
        records.extras[record].inNonResident = true
    }

    // `record` becomes the newest of `list`: moved there if it is a `member` already, else added.
    @inline(__always)
    @inlinable package static func join(_ record: Int32, member: Bool, _ list: inout SlotList, _ links: SlotLinks) {
        if member { list.moveToTail(record, in: links) } else { list.append(record, in: links) }
    }

    @inlinable package mutating func unlinkFromNonResident(_ record: Int32) {
        nonResident.remove(record, in: nonResidentLinks)
        records.extras[record].inNonResident = false
    }

    @inlinable package mutating func forgetNonResident(_ key: UInt64) {
        guard let record = records.find(key), records.extras[record].inNonResident else { return }
        unlinkFromNonResident(record)
        releaseIfUnused(record)
    }
}
