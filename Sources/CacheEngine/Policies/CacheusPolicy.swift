#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Evicts the victim of a scan-resistant LRU or of a churn-resistant LFU, picked at random by
/// weights learnt from ghost hits, with a learning rate that adapts to the hit rate.
///
/// CACHEUS (L. V. Rodriguez, F. Yusuf, S. Lyons, E. Paz, R. Rangaswami, J. Liu, M. Zhao and
/// G. Narasimhan, "Learning Cache Replacement with CACHEUS", FAST 2021) as libCacheSim's `Cacheus`
/// builds it, rule for rule:
/// - **SR-LRU**: new entries enter SR (half the capacity at first); a hit in SR moves an entry to
///   R (the other half), whose oldest entries go back to SR, marked demoted; an entry found in the
///   history H (keys evicted, up to the capacity in cost) enters R instead, and if it had entered
///   as new, SR's share grows by about demoted ÷ new (R gets the rest). Entries SR has no room for
///   move to H: the cache drops them as a new one comes in (`pendingVictim`). A new entry bigger
///   than SR's share, or a returning one bigger than R's, is not stored, a rule checked after the
///   evictions made for it (`storesAfterEvictions`).
/// - **CR-LFU**: frequency lists, an entry returning from H resuming its count; the victim is the
///   entry that arrived last at the lowest frequency.
/// - **Learning**: each eviction draws once; `(random % 100) / 100` below LRU's weight takes
///   SR-LRU's victim (oldest of SR, else of R), otherwise CR-LFU's; the victim's key joins that
///   expert's ghost LRU (half the capacity). A miss on a ghost multiplies its expert's weight by
///   `exp(-rate)`; every miss normalizes. Every `capacity` requests the rate moves with the hit
///   rate's change (a first rate `0.001 + (random % 1000) / 1000`, drawn when the policy gets the
///   cache's generator).
///
/// Miss counts match libCacheSim's exactly. Where libCacheSim's C would divide by zero, read a
/// freed object or dereference a missing one, this policy stops with a message instead.
///
/// - Complexity: O(1) access, insert and evict, amortized (moves between queues are paid by the
///   insertions that caused them); a frequency list emptied scans up to the highest in use.
/// - Invariant: R and SR hold exactly the live slots, as do CR-LFU's frequency lists, each entry in
///   the list of its count; H, the ghost LRUs and the queues' costs are within their capacities.
public struct CacheusPolicy: AdmittingPolicy, SelfEvictingPolicy, RandomizedPolicy {
    public static let libCacheSimName: String? = "Cacheus"
    public static let drawsRandomly = true
    public static let summary =
        "scan-resistant LRU's or churn-resistant LFU's victim, weights learnt from ghost hits (libCacheSim Cacheus)"
    public static let mayDeclineNewEntries = true
    public static let relativeCost = 3.0

    @usableFromInline package enum Queue: UInt8 {
        case none, r, sr
    }

    /// What the history remembers of an evicted entry.
    @usableFromInline package struct History {
        /// It entered the cache as new and left from SR (counted in `newCount`).
        @usableFromInline package var wasNew: Bool
        /// CR-LFU's count when it left, resumed if it returns.
        @usableFromInline package var frequency: Int

        @inlinable package init(wasNew: Bool, frequency: Int) {
            self.wasNew = wasNew
            self.frequency = frequency
        }
    }

    @usableFromInline package var random = LehmerRandom()
    @usableFromInline package let keys = SlotArray<UInt64>(count: 0, filling: 0)
    @usableFromInline package let costs = SlotArray<Int>(count: 0, filling: 0)

    // SR-LRU. Lists oldest first.
    @usableFromInline package let queueLinks = SlotLinks()
    @usableFromInline package var r = CostedList()
    @usableFromInline package var sr = CostedList()
    @usableFromInline package let queue = SlotArray<Queue>(count: 0, filling: .none)
    @usableFromInline package let demoted = SlotArray<Bool>(count: 0, filling: false)
    @usableFromInline package let isNew = SlotArray<Bool>(count: 0, filling: false)
    @usableFromInline package var srCapacity: UInt64
    @usableFromInline package var rCapacity: UInt64
    @usableFromInline package let historyCapacity: UInt64
    @usableFromInline package var history = KeyedRecords(filler: History(wasNew: false, frequency: 0))
    @usableFromInline package var historyOrder = CostedList()
    /// libCacheSim's `C_demoted` and `C_new` (unsigned 64-bit, wrapping as its do).
    @usableFromInline package var demotedCount: UInt64 = 0
    @usableFromInline package var newCount: UInt64 = 0
    /// Entries moved from SR to H by the last insertion, for the engine to drop.
    @usableFromInline package var droppedToHistory = SlotStack()

    // CR-LFU. Each frequency's list, oldest arrival first; index 0 unused.
    @usableFromInline package let frequency = SlotArray<Int>(count: 0, filling: 0)
    @usableFromInline package let frequencyLinks = SlotLinks()
    @usableFromInline package let frequencyLists = SlotArray<SlotList>(count: 16, filling: SlotList())
    /// The lowest count with an entry (libCacheSim's min_freq); nil once an eviction emptied
    /// CR-LFU, where libCacheSim's is -1.
    @usableFromInline package var minFrequency: Int? = 1
    @usableFromInline package var maxFrequency = 1

    // The experts' ghost LRUs, oldest first.
    @usableFromInline package let ghostCapacity: Int
    @usableFromInline package var lruGhosts = KeyedRecords(filler: ())
    @usableFromInline package var lruGhostOrder = CostedList()
    @usableFromInline package var lfuGhosts = KeyedRecords(filler: ())
    @usableFromInline package var lfuGhostOrder = CostedList()

    // Learning.
    @usableFromInline package var weightLRU = 0.5
    @usableFromInline package var weightLFU = 0.5
    @usableFromInline package var learningRate = 0.0
    @usableFromInline package var previousLearningRate = 0.0
    @usableFromInline package var previousHitRate = 0.0
    @usableFromInline package var hitCount = 0
    @usableFromInline package var unlearnCount = 0
    @usableFromInline package let updateInterval: Int
    /// libCacheSim's `n_req`: requests seen, counting the one being served.
    @usableFromInline package var requests = 0
    /// The key of the missed request being served.
    @usableFromInline package var incoming: UInt64 = 0

    @inlinable public init(configuration: CacheConfiguration) {
        let capacity = configuration.capacity
        historyCapacity = UInt64(capacity)
        srCapacity = UInt64(capacity / 2)
        rCapacity = UInt64(capacity / 2)
        ghostCapacity = Int(Double(capacity) / 2)
        updateInterval = capacity
    }

    /// Draws the first learning rate, as libCacheSim's constructor does.
    @inlinable public mutating func share(_ random: LehmerRandom) {
        self.random = random
        learningRate = 0.001 + Double(random.next() % 1000) / 1000
    }

    @inlinable public mutating func grow(to slotCount: Int) {
        keys.grow(to: slotCount, filling: 0)
        costs.grow(to: slotCount, filling: 0)
        queueLinks.grow(to: slotCount)
        queue.grow(to: slotCount, filling: .none)
        demoted.grow(to: slotCount, filling: false)
        isNew.grow(to: slotCount, filling: false)
        frequency.grow(to: slotCount, filling: 0)
        frequencyLinks.grow(to: slotCount)
        droppedToHistory.reserve(slotCount)
    }

    // MARK: Requests

    @inline(__always)
    @inlinable public mutating func admit(_ key: UInt64, cost: Int) -> Admission {
        startRequest()
        let inLRUGhosts = lruGhosts.find(key)
        let inLFUGhosts = lfuGhosts.find(key)
        if inLRUGhosts != nil {
            weightLRU *= exp(-learningRate)
        } else if inLFUGhosts != nil {
            weightLFU *= exp(-learningRate)
        }
        weightLRU = weightLRU / (weightLRU + weightLFU)
        weightLFU = 1 - weightLRU
        if let inLRUGhosts { Self.forget(inLRUGhosts, in: &lruGhosts, order: &lruGhostOrder) }
        if let inLFUGhosts { Self.forget(inLFUGhosts, in: &lfuGhosts, order: &lfuGhostOrder) }
        incoming = key
        return .store
    }

    /// SR-LRU's `can_insert`, asked after the evictions (which may have trimmed H).
    @inline(__always)
    @inlinable public mutating func storesAfterEvictions(cost: Int) -> Bool {
        UInt64(cost) <= (history.contains(incoming) ? rCapacity : srCapacity)
    }

    @inlinable public mutating func inserted(_ slot: Int32, key: UInt64, cost: Int) {
        keys[slot] = key
        costs[slot] = cost
        let returning = history.find(key)
        // CR-LFU first: it reads the count H kept.
        let f = returning.map { history.extras[$0].frequency + 1 } ?? 1
        frequency[slot] = f
        if f == 1 { minFrequency = 1 }
        joinFrequency(slot)
        maxFrequency = max(maxFrequency, f)
        minFrequency = min(minFrequency ?? f, f)

        if let returning {
            let wasNew = history.extras[returning].wasNew
            Self.forget(returning, in: &history, order: &historyOrder)
            while UInt64(r.cost + cost) > rCapacity {
                precondition(!r.isEmpty, "Cacheus: R is empty but too full for a returning entry")
                demoteOldestOfR()
            }
            join(slot, .r)
            demoted[slot] = false
            isNew[slot] = false
            if wasNew { resizeSR() }
        } else {
            join(slot, .sr)
            demoted[slot] = false
            isNew[slot] = true
        }
        while UInt64(sr.cost) > srCapacity {
            let oldest = sr.head
            precondition(oldest != slot, "Cacheus: the entry being stored left SR at once")
            let record = remember(oldest)
            leaveFrequency(oldest, offloadingTo: record)
            if isNew[oldest] {
                newCount &+= 1
                history.extras[record].wasNew = true
            }
            if demoted[oldest] { demotedCount &-= 1 }
            leave(oldest)
            droppedToHistory.push(oldest)
        }
        trimHistory()
    }

    @inline(__always)
    @inlinable public mutating func pendingVictim() -> Int32? {
        droppedToHistory.isEmpty ? nil : droppedToHistory.pop()
    }

    @inlinable public mutating func accessed(_ slot: Int32) {
        startRequest()
        hitCount += 1
        // SR-LRU.
        switch queue[slot] {
        case .r:
            r.moveToTail(slot, in: queueLinks)
        case .sr:
            // A hit in SR moves the entry to R, afresh; R's oldest go back to SR, demoted.
            leave(slot)
            join(slot, .r)
            demoted[slot] = false
            isNew[slot] = false
            while UInt64(r.cost) > rCapacity {
                precondition(
                    r.first != slot,
                    "Cacheus: an entry hit in SR is larger than R's capacity (libCacheSim then reads the freed object)")
                demoteOldestOfR()
            }
        case .none:
            preconditionFailure("Cacheus: slot \(slot) is in no queue")
        }
        // CR-LFU.
        let f = frequency[slot] + 1
        frequencyLists[f - 1].remove(slot, in: frequencyLinks)
        frequency[slot] = f
        maxFrequency = max(maxFrequency, f)
        joinFrequency(slot)
        if minFrequency == f - 1 && frequencyLists[f - 1].isEmpty { raiseMinFrequency(above: f - 1) }
    }

    @inlinable public mutating func removed(_ slot: Int32, key: UInt64) {
        leave(slot)
        frequencyLists[frequency[slot]].remove(slot, in: frequencyLinks)
        if r.isEmpty && sr.isEmpty {
            minFrequency = nil
        } else {
            let lowest = lowestFrequency()
            if frequencyLists[lowest].isEmpty { raiseMinFrequency(above: lowest) }
        }
    }

    @inlinable public mutating func evict() -> Int32? {
        let lruCandidate = sr.isEmpty ? r.head : sr.head
        let lowest = lowestFrequency()
        precondition(
            !frequencyLists[lowest].isEmpty,
            "Cacheus: CR-LFU's min_freq \(lowest) names no entry (libCacheSim would dereference a missing one)")
        let lfuCandidate = frequencyLists[lowest].tail
        let draw = Double(random.next() % 100) / 100.0
        if lruCandidate == lfuCandidate {
            let record = evictFromSRLRU()
            evictFromCRLFU(offloadingTo: record)
            return lruCandidate
        } else if draw < weightLRU {
            let record = evictFromSRLRU()
            leaveFrequency(lruCandidate, offloadingTo: record)
            Self.remember(
                keys[lruCandidate], cost: costs[lruCandidate], in: &lruGhosts, order: &lruGhostOrder,
                limit: ghostCapacity)
            return lruCandidate
        } else {
            let record = removeFromSRLRU(lfuCandidate)
            evictFromCRLFU(offloadingTo: record)
            Self.remember(
                keys[lfuCandidate], cost: costs[lfuCandidate], in: &lfuGhosts, order: &lfuGhostOrder,
                limit: ghostCapacity)
            return lfuCandidate
        }
    }

    @inlinable public mutating func removeAll() {
        r.removeAll()
        sr.removeAll()
        for f in 1...maxFrequency { frequencyLists[f].removeAll() }
        minFrequency = 1
        maxFrequency = 1
        history.removeAll()
        historyOrder.removeAll()
        lruGhosts.removeAll()
        lruGhostOrder.removeAll()
        lfuGhosts.removeAll()
        lfuGhostOrder.removeAll()
        droppedToHistory.removeAll()
        srCapacity = historyCapacity / 2
        rCapacity = historyCapacity / 2
        demotedCount = 0
        newCount = 0
    }

    @inlinable public func checkedSlots() -> [Int32] {
        let inR = r.checkedSlots(in: queueLinks, costs: costs, name: "Cacheus.R")
        let inSR = sr.checkedSlots(in: queueLinks, costs: costs, name: "Cacheus.SR")
        precondition(inR.allSatisfy { queue[$0] == .r }, "Cacheus: a slot in R is not tagged R")
        precondition(inSR.allSatisfy { queue[$0] == .sr }, "Cacheus: a slot in SR is not tagged SR")
        var counted: [Int32] = []
        for f in 1..<frequencyLists.count {
            frequencyLists[f].checkInvariants(in: frequencyLinks, name: "Cacheus.frequency(\(f))")
            let members = frequencyLists[f].slots(in: frequencyLinks)
            precondition(members.allSatisfy { frequency[$0] == f }, "Cacheus: an entry in another count's list")
            precondition(
                members.isEmpty || minFrequency.map { f >= $0 } == true,
                "Cacheus: an entry at \(f), below min_freq \(minFrequency.map(String.init) ?? "unset")")
            counted += members
        }
        let live = inR + inSR
        precondition(Set(counted) == Set(live) && counted.count == live.count, "Cacheus: CR-LFU and SR-LRU disagree")
        precondition(
            live.isEmpty || minFrequency.map { !frequencyLists[$0].isEmpty } == true,
            "Cacheus: min_freq names no entry")
        precondition(live.allSatisfy { !history.contains(keys[$0]) }, "Cacheus: a stored entry is in the history")
        history.checkInvariants(name: "Cacheus.H")
        _ = historyOrder.checkedSlots(in: history.links, costs: history.costs, name: "Cacheus.H")
        precondition(historyOrder.count == history.count, "Cacheus: H lists \(historyOrder.count) of \(history.count)")
        precondition(
            historyOrder.isEmpty || UInt64(historyOrder.cost) < historyCapacity, "Cacheus: H over its capacity")
        for (records, order, name) in [
            (lruGhosts, lruGhostOrder, "Cacheus.LRU_g"), (lfuGhosts, lfuGhostOrder, "Cacheus.LFU_g"),
        ] {
            records.checkInvariants(name: name)
            _ = order.checkedSlots(in: records.links, costs: records.costs, name: name)
            precondition(order.count == records.count && order.cost <= ghostCapacity, "\(name): over its capacity")
        }
        precondition(droppedToHistory.isEmpty, "Cacheus: entries dropped to H but not taken out")
        return live
    }

    /// The keys in SR and in R, oldest first (for tests).
    @inlinable package var queueKeys: (sr: [UInt64], r: [UInt64]) {
        (sr.slots(in: queueLinks).map { keys[$0] }, r.slots(in: queueLinks).map { keys[$0] })
    }

    /// The keys in the history, oldest first, and the keys of the LRU and LFU ghosts (for tests).
    @inlinable package var rememberedKeys: (history: [UInt64], lruGhosts: [UInt64], lfuGhosts: [UInt64]) {
        (
            historyOrder.slots(in: history.links).map { history.key($0) },
            lruGhostOrder.slots(in: lruGhosts.links).map { lruGhosts.key($0) },
            lfuGhostOrder.slots(in: lfuGhosts.links).map { lfuGhosts.key($0) }
        )
    }

    /// CR-LFU's count for `slot` (for tests).
    @inlinable package func frequency(of slot: Int32) -> Int { frequency[slot] }

    // MARK: SR-LRU

    @inline(__always)
    @inlinable package mutating func join(_ slot: Int32, _ target: Queue) {
        queue[slot] = target
        if target == .r {
            r.append(slot, cost: costs[slot], in: queueLinks)
        } else {
            sr.append(slot, cost: costs[slot], in: queueLinks)
        }
    }

    @inline(__always)
    @inlinable package mutating func leave(_ slot: Int32) {
        switch queue[slot] {
        case .r: r.remove(slot, cost: costs[slot], in: queueLinks)
        case .sr: sr.remove(slot, cost: costs[slot], in: queueLinks)
        case .none: preconditionFailure("Cacheus: slot \(slot) is in no queue")
        }
        queue[slot] = .none
    }

    // R's oldest entry goes to SR's new end, afresh and marked demoted (unless it was, which
    // libCacheSim checks and never finds).
    @inlinable package mutating func demoteOldestOfR() {
        let oldest = r.head
        let wasDemoted = demoted[oldest]
        leave(oldest)
        join(oldest, .sr)
        isNew[oldest] = false
        demoted[oldest] = false
        if !wasDemoted {
            demotedCount &+= 1
            demoted[oldest] = true
        }
    }

    // A returning entry that entered as new grows SR's share by max(1, demoted ÷ new + 0.5), up
    // to what is stored less one; R gets the rest. libCacheSim's arithmetic: an unsigned
    // division truncated to 32 bits, then doubles.
    @inlinable package mutating func resizeSR() {
        precondition(newCount != 0, "Cacheus: C_new is 0 (libCacheSim divides by zero)")
        let ratio = Int32(truncatingIfNeeded: demotedCount / newCount)
        let delta = 1.0 > Double(ratio) + 0.5 ? 1.0 : Double(ratio) + 0.5
        let storedLessOne = Int64(r.cost + sr.cost) - 1
        if Double(srCapacity) + delta > Double(storedLessOne) {
            srCapacity = UInt64(bitPattern: storedLessOne)
        } else {
            srCapacity = UInt64(Double(srCapacity) + delta)
        }
        rCapacity = historyCapacity &- srCapacity
    }

    // SR-LRU's evict: the oldest of SR (else of R) moves to H. Returns its H record.
    @inlinable package mutating func evictFromSRLRU() -> Int32 {
        let victim = sr.isEmpty ? r.head : sr.head
        let record = remember(victim)
        if isNew[victim] {
            newCount &+= 1
            history.extras[record].wasNew = true
        }
        if demoted[victim] { demotedCount &-= 1 }
        leave(victim)
        trimHistory()
        return record
    }

    // SR-LRU's remove, for CR-LFU's victim: it moves to H. Returns its H record.
    @inlinable package mutating func removeFromSRLRU(_ slot: Int32) -> Int32 {
        let record = remember(slot)
        if isNew[slot] {
            newCount &+= 1
            history.extras[record].wasNew = true
        }
        if demoted[slot] { demotedCount &-= 1 }
        leave(slot)
        trimHistory()
        return record
    }

    // Adds a leaving entry's key to H's new end.
    @inlinable package mutating func remember(_ slot: Int32) -> Int32 {
        precondition(!history.contains(keys[slot]), "Cacheus: key \(keys[slot]) is in H twice")
        let record = history.add(keys[slot], cost: costs[slot], extra: History(wasNew: false, frequency: 0))
        historyOrder.append(record, cost: costs[slot], in: history.links)
        return record
    }

    // H forgets its oldest keys while it costs the capacity or more.
    @inlinable package mutating func trimHistory() {
        while !historyOrder.isEmpty && UInt64(historyOrder.cost) >= historyCapacity {
            Self.forget(historyOrder.head, in: &history, order: &historyOrder)
        }
    }

    // MARK: CR-LFU

    @inline(__always)
    @inlinable package mutating func joinFrequency(_ slot: Int32) {
        frequencyLists.append(slot, toList: frequency[slot], in: frequencyLinks)
    }

    // CR-LFU's remove: the count goes to the key's H record (which SR-LRU has just made).
    @inlinable package mutating func leaveFrequency(_ slot: Int32, offloadingTo record: Int32) {
        precondition(
            history.key(record) == keys[slot] && history.contains(keys[slot]),
            "Cacheus: CR-LFU offloads a count to a key H does not hold (libCacheSim would crash)")
        history.extras[record].frequency = frequency[slot]
        frequencyLists[frequency[slot]].remove(slot, in: frequencyLinks)
        let lowest = lowestFrequency()
        if frequencyLists[lowest].isEmpty { raiseMinFrequency(above: lowest) }
    }

    // CR-LFU's evict: its candidate (the last arrival at min_freq) leaves, its count to H; if
    // that empties min_freq and no count above holds an entry, min_freq becomes unset (nil).
    @inlinable package mutating func evictFromCRLFU(offloadingTo record: Int32) {
        let lowest = lowestFrequency()
        let slot = frequencyLists[lowest].tail
        precondition(
            history.key(record) == keys[slot] && history.contains(keys[slot]),
            "Cacheus: CR-LFU evicts a key H does not hold (libCacheSim would crash)")
        history.extras[record].frequency = frequency[slot]
        frequencyLists[lowest].remove(slot, in: frequencyLinks)
        if frequencyLists[lowest].isEmpty {
            raiseMinFrequency(above: lowest)
            if minFrequency == lowest { minFrequency = nil }
        }
    }

    // min_freq, which CR-LFU sets whenever it holds an entry (libCacheSim would read a missing
    // object where it is unset).
    @inline(__always)
    @inlinable package func lowestFrequency() -> Int {
        guard let minFrequency else { preconditionFailure("Cacheus: CR-LFU's min_freq is unset (libCacheSim's -1)") }
        return minFrequency
    }

    // The first non-empty count above `lowest` (min_freq) up to max_freq, or min_freq unchanged.
    @inlinable package mutating func raiseMinFrequency(above lowest: Int) {
        if let f = frequencyLists.firstNonEmpty(above: lowest, through: maxFrequency) { minFrequency = f }
    }

    // MARK: Learning

    // libCacheSim updates the rate after every `capacity`-th request; here, just before the next
    // one, which reads it first.
    @inline(__always)
    @inlinable package mutating func startRequest() {
        if requests > 0 && updateInterval > 0 && requests % updateInterval == 0 { updateLearningRate() }
        requests += 1
    }

    @inlinable package mutating func updateLearningRate() {
        // libCacheSim divides the integers first: 0 unless every request hit.
        let hitRate = Double(hitCount / updateInterval)
        let hitRateChange = hitRate - previousHitRate
        let rateChange = learningRate - previousLearningRate
        previousLearningRate = learningRate
        previousHitRate = hitRate
        if rateChange != 0 {
            let sign: Double = hitRateChange / rateChange > 0 ? 1 : -1
            let candidate = learningRate + sign * abs(learningRate * rateChange)
            learningRate = candidate > 0.001 ? candidate : 0.0001
            unlearnCount = 0
        } else if hitRate == 0 || hitRateChange <= 0 {
            unlearnCount += 1
        } else if unlearnCount >= 10 {
            unlearnCount = 0
            learningRate = 0.001 + Double(random.next() % 1000) / 1000
        }
        hitCount = 0
    }

    // MARK: Ghosts

    // A plain LRU's get for a key it does not hold: room made from its oldest end, then the key
    // added at its new end; nothing if the key costs more than the whole ghost cache. A key it
    // holds moves to the new end.
    @inlinable package static func remember(
        _ key: UInt64, cost: Int, in records: inout KeyedRecords<Void>, order: inout CostedList, limit: Int
    ) {
        if let found = records.find(key) {
            order.moveToTail(found, in: records.links)
            return
        }
        guard cost <= limit else { return }
        while order.cost + cost > limit { forget(order.head, in: &records, order: &order) }
        let record = records.add(key, cost: cost, extra: ())
        order.append(record, cost: cost, in: records.links)
    }

    @inlinable package static func forget<Extra>(
        _ record: Int32, in records: inout KeyedRecords<Extra>, order: inout CostedList
    ) {
        order.remove(record, cost: records.costs[record], in: records.links)
        records.remove(record)
    }
}
