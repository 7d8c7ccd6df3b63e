/// Evicts, while the cache is over its capacity, whichever is counted as used less often of a
/// window entry leaving for main (the candidate) and main's oldest probation entry (the victim),
/// the victim winning ties; the window's share of the capacity moves by hill climbing towards
/// the share that hits most.
///
/// Adaptive W-TinyLFU as Caffeine builds it (`BoundedLocalCache` and `FrequencySketch`, Caffeine
/// v3.2.4), its parameters Caffeine's:
/// - **Regions, in cost units** (bytes, or entries in unit mode): an LRU window, initially
///   C − ⌊0.99 C⌋; protected ⌊0.80 × the rest⌋; probation whatever the two leave. A new entry
///   enters the window (at its oldest end if heavier than the window), and the window's oldest
///   entries move to probation's newest end while it is over its share. A hit in probation moves
///   the entry to protected unless it is heavier than protected's share; protected's oldest go
///   back to probation while it is over its share.
/// - **Eviction** (`evictFromWindow`, `evictFromMain`): the entries just moved out of the window,
///   then the window's own from its oldest, are candidates; probation's oldest onwards are
///   victims, then protected's, then the window's. A candidate more frequent than the victim
///   stays and the victim goes; one counted 6 or more may also win with probability 1/128
///   (drawn from the cache's seeded random stream); otherwise the candidate goes. With no victim
///   left a candidate goes without a duel, and the other way round. Evictions go on until the
///   cost fits, so a heavy newcomer that wins may cost several light victims; one that loses
///   is not stored (`evict()` answers nil) and nothing more is evicted.
/// - **Sketch**: `BlockFrequencySketch`, counting every hit and every insertion, sized lazily
///   once the cache is half full, by the entries it holds (bytes mode, as Caffeine sizes a
///   weighted cache) or by the capacity (unit mode), halved after 10 counted uses per entry;
///   behind a `Doorkeeper`, an option of Caffeine's simulator (off by default there,
///   `tiny-lfu.count-min-4.periodic.doorkeeper`) that production Caffeine does not have.
/// - **Hill climber** (`climb`), after every request: every 10 × sketch entries hits plus
///   insertions, the object hit rate of the sample is compared with the last: a step of 6.25 %
///   of C (first a shrink) is repeated if the rate did not fall and reversed if it did, decays
///   by 0.98 per sample, and is re-armed at full size when the rate moved 5 points. A step moves
///   the window's and protected's shares in opposite directions by the cost of whole entries
///   moved between regions, at most 1,000 per request, the rest carried to the next request.
///   Einziger, Eytan, Friedman and Manes, "Adaptive Software Cache Management", Middleware 2018,
///   in the form Caffeine ships.
///
/// It keeps Caffeine's rules, not any reference's counts bit for bit: Caffeine draws its 1/128
/// from an unseeded generator, its reads pass through a lossy buffer, and libCacheSim has no such
/// policy. Caffeine stores a new entry first and evicts after; here the engine evicts first, so
/// the newcomer takes part in the duels as a placeholder node resolved to its slot in `inserted`.
/// A miss refused by the cache's admission filter counts in the sketch and the sample as an
/// insertion, as one larger than the capacity does.
///
/// - Complexity: O(1) access and insert; evict O(1) amortized per entry evicted (the cursors
///   only move forward, each entry passed once); the climber moves at most 1,000 entries per
///   request; the sketch's halving is O(its words) every 10 × entries counted uses.
/// - Invariant: the window, probation and protected hold exactly the live slots, each tagged with
///   its region, their costs the sums of their entries'; after every request the window is within
///   its share, protected within its share (unless 1,000 demotions did not suffice), and the two
///   shares add up to what they did at the start.
public struct AdaptiveWTinyLFUPolicy: AdmittingPolicy, SelfEvictingPolicy, RandomizedPolicy {
    public static let summary =
        "W-TinyLFU as Caffeine builds it: weighted regions, a hill-climbing window, a doorkeeper before the sketch (Caffeine 3.2.4)"
    public static let mayDeclineNewEntries = true
    public static let relativeCost = 3.0

    /// Main's initial share of the capacity (Caffeine's `PERCENT_MAIN`).
    @usableFromInline package static let mainShare = 0.99
    /// Protected's share of main (`PERCENT_MAIN_PROTECTED`).
    @usableFromInline package static let protectedShare = 0.80
    /// A change of hit rate re-arming a full step (`HILL_CLIMBER_RESTART_THRESHOLD`).
    @usableFromInline package static let restartThreshold = 0.05
    /// A full step, as a share of the capacity (`HILL_CLIMBER_STEP_PERCENT`).
    @usableFromInline package static let stepShare = 0.0625
    /// A step's decay per sample (`HILL_CLIMBER_STEP_DECAY_RATE`).
    @usableFromInline package static let stepDecay = 0.98
    /// Entries moved between regions per request at most (`QUEUE_TRANSFER_THRESHOLD`).
    @usableFromInline package static let transferLimit = 1_000
    /// A candidate this frequent may win a lost duel by chance (`ADMIT_HASHDOS_THRESHOLD`).
    @usableFromInline package static let warmCandidate = 6
    /// The chance, 1 in 128: the low 7 bits of a draw all zero.
    @usableFromInline package static let jitterMask: UInt64 = 127
    /// Caffeine's largest maximum (`Long.MAX_VALUE − Integer.MAX_VALUE`).
    @usableFromInline package static let largestCapacity = Int.max - Int(Int32.max)

    /// C, as Caffeine bounds it.
    @usableFromInline package let capacity: Int
    /// Whether entries are weighted by their cost (bytes mode): the sketch is then sized by the
    /// entries held, not by the capacity.
    @usableFromInline package let weighted: Bool
    /// The window's share and protected's; the climber trades one for the other.
    @usableFromInline package var windowLimit: Int
    @usableFromInline package var protectedLimit: Int
    /// `windowLimit + protectedLimit`, fixed.
    @usableFromInline package let adaptiveLimit: Int

    @usableFromInline package let links = SlotLinks()
    @usableFromInline package var window = CostedList()
    @usableFromInline package var probation = CostedList()
    @usableFromInline package var protected = CostedList()
    @usableFromInline package let region = SlotArray<Region>(count: 1, filling: .none)
    @usableFromInline package let costs = SlotArray<Int>(count: 1, filling: 0)
    @usableFromInline package let keys = SlotArray<UInt64>(count: 1, filling: 0)
    @usableFromInline package var sketch = BlockFrequencySketch(doorkeeper: true)
    @usableFromInline package var random: LehmerRandom

    // The climber's sample and state.
    @usableFromInline package var hitsInSample = 0
    @usableFromInline package var missesInSample = 0
    @usableFromInline package var previousHitRate = 0.0
    /// The next step, signed: negative shrinks the window.
    @usableFromInline package var stepSize: Double
    /// What the last decision still has to move, signed.
    @usableFromInline package var adjustment = 0
    /// Whether the last demotion stopped at the transfer limit with protected still over.
    @usableFromInline package var demotionBacklog = false

    /// The node standing for the entry `admit` said yes to, one past the engine's slots, so it
    /// can take part in the duels before it has a slot.
    @usableFromInline package var placeholder: Int32 = 0
    @usableFromInline package var newcomer = Newcomer.none
    @usableFromInline package var round = Round()

    /// Duels a candidate won only by the 1/128 chance (for tests).
    @usableFromInline package var jitterAdmissions = 0

    @usableFromInline package enum Region: UInt8 {
        case none, window, probation, protected
    }

    /// The missed entry being stored, from `admit` to `inserted`.
    @usableFromInline package enum Newcomer {
        case none
        /// Admitted, not placed yet (no eviction asked for so far).
        case pending(key: UInt64, cost: Int)
        /// In a region as `placeholder`.
        case placed
    }

    /// Where an eviction loop stands between `evict()` calls: Caffeine's `evictFromMain` cursors.
    @usableFromInline package struct Round {
        @usableFromInline package var active = false
        /// The next candidate; nil when this source of candidates has run out.
        @usableFromInline package var candidate: Int32?
        /// Whether the candidates come from the window (after those moved out of it ran out).
        @usableFromInline package var candidatesFromWindow = false
        /// The next victim; nil when `victimRegion` has run out.
        @usableFromInline package var victim: Int32?
        @usableFromInline package var victimRegion = Region.probation

        @inlinable package init(
            active: Bool = false, candidate: Int32? = nil, candidatesFromWindow: Bool = false, victim: Int32? = nil,
            victimRegion: Region = .probation
        ) {
            self.active = active
            self.candidate = candidate
            self.candidatesFromWindow = candidatesFromWindow
            self.victim = victim
            self.victimRegion = victimRegion
        }
    }

    @inlinable public init(configuration: CacheConfiguration) {
        capacity = min(configuration.capacity, Self.largestCapacity)
        weighted = configuration.sizeMode == .bytes
        // Caffeine's arithmetic: doubles truncated.
        windowLimit = capacity - Int(Self.mainShare * Double(capacity))
        protectedLimit = Int(Self.protectedShare * Double(capacity - windowLimit))
        adaptiveLimit = windowLimit + protectedLimit
        stepSize = -Self.stepShare * Double(capacity)
        random = LehmerRandom(seed: configuration.randomSeed)
    }

    @inlinable public mutating func share(_ random: LehmerRandom) { self.random = random }

    @inlinable public mutating func grow(to slotCount: Int) {
        // One more than the engine's slots: the last is the newcomer's placeholder.
        guard slotCount + 1 > region.count else { return }
        links.grow(to: slotCount + 1)
        region.grow(to: slotCount + 1, filling: .none)
        costs.grow(to: slotCount + 1, filling: 0)
        keys.grow(to: slotCount + 1, filling: 0)
        let moved = Int32(slotCount)
        if case .placed = newcomer {
            keys[moved] = keys[placeholder]
            costs[moved] = costs[placeholder]
            replace(placeholder, with: moved)
        }
        placeholder = moved
        round = Round()
    }

    @inlinable public mutating func admit(_ key: UInt64, cost: Int) -> Admission {
        round = Round()
        if case .placed = newcomer { leave(placeholder) }
        newcomer = .none
        // Caffeine accounts the newcomer first, sizes the sketch once half full, counts it.
        let held = window.cost + probation.cost + protected.cost
        if cost >= (capacity >> 1) - held {
            sketch.ensureCapacity(weighted ? window.count + probation.count + protected.count + 1 : capacity)
        }
        sketch.increment(key)
        missesInSample += 1
        guard cost <= capacity else {
            climb()
            return .reject
        }
        newcomer = .pending(key: key, cost: cost)
        return .store
    }

    @inlinable public mutating func notStored() {
        newcomer = .none
        round = Round()
        climb()
    }

    @inlinable public mutating func inserted(_ slot: Int32, key: UInt64, cost: Int) {
        round = Round()
        keys[slot] = key
        costs[slot] = cost
        if case .placed = newcomer {
            replace(placeholder, with: slot)
        } else {
            // It fitted without an eviction: placed now, and the window spills over as always.
            join(slot, .window, oldestEnd: cost > windowLimit)
            _ = evictFromWindow()
        }
        newcomer = .none
        climb()
    }

    @inlinable public mutating func accessed(_ slot: Int32) {
        round = Round()
        sketch.increment(keys[slot])
        switch region[slot] {
        case .window:
            window.moveToTail(slot, in: links)
        case .probation:
            if costs[slot] > protectedLimit {
                probation.moveToTail(slot, in: links)
            } else {
                // Protected may go over its share: `climb` demotes.
                leave(slot)
                join(slot, .protected)
            }
        case .protected:
            protected.moveToTail(slot, in: links)
        case .none:
            preconditionFailure("adaptive W-TinyLFU: slot \(slot) is in no region")
        }
        hitsInSample += 1
        // The window is never over its share between requests, so Caffeine's eviction pass
        // after a read has nothing to do: only the climber runs.
        climb()
    }

    @inlinable public mutating func removed(_ slot: Int32, key: UInt64) {
        round = Round()
        leave(slot)
    }

    /// Ends an eviction round: the engine asks once it has evicted enough.
    @inlinable public mutating func pendingVictim() -> Int32? {
        round = Round()
        return nil
    }

    @inlinable public mutating func evict() -> Int32? {
        if !round.active {
            if case .pending(let key, let cost) = newcomer {
                keys[placeholder] = key
                costs[placeholder] = cost
                join(placeholder, .window, oldestEnd: cost > windowLimit)
                newcomer = .placed
            }
            let first = evictFromWindow()
            round = Round(active: true, candidate: first, victim: probation.first)
        }
        let chosen = nextEviction()
        if chosen == placeholder, case .placed = newcomer {
            leave(placeholder)
            newcomer = .none
            round = Round()
            climb()
            return nil
        }
        leave(chosen)
        return chosen
    }

    @inlinable public mutating func removeAll() {
        // As Caffeine's `invalidateAll`: the entries go; the sketch and the climber stay.
        window.removeAll()
        probation.removeAll()
        protected.removeAll()
        region.fill(with: .none)
        newcomer = .none
        round = Round()
        demotionBacklog = false
    }

    @inlinable public func checkedSlots() -> [Int32] {
        if case .placed = newcomer { preconditionFailure("adaptive W-TinyLFU: the newcomer's placeholder was left") }
        precondition(!round.active, "adaptive W-TinyLFU: an eviction round was left open")
        let lists: [(Region, CostedList, String)] = [
            (.probation, probation, "probation"), (.protected, protected, "protected"), (.window, window, "window"),
        ]
        var result: [Int32] = []
        for (tag, list, name) in lists {
            let slots = list.checkedSlots(in: links, costs: costs, name: "adaptive W-TinyLFU.\(name)")
            precondition(
                slots.allSatisfy { region[$0] == tag && $0 != placeholder },
                "adaptive W-TinyLFU: a slot in \(name) is tagged otherwise")
            result += slots
        }
        precondition(
            window.cost <= windowLimit, "adaptive W-TinyLFU: the window costs \(window.cost) over its \(windowLimit)")
        precondition(
            protected.cost <= protectedLimit || demotionBacklog,
            "adaptive W-TinyLFU: protected costs \(protected.cost) over its \(protectedLimit)")
        precondition(
            windowLimit >= 0 && protectedLimit >= 0 && windowLimit + protectedLimit == adaptiveLimit,
            "adaptive W-TinyLFU: shares \(windowLimit) + \(protectedLimit) are not \(adaptiveLimit)")
        return result
    }

    // MARK: Eviction

    /// Moves the window's oldest entries (of some cost) to probation's newest end while the
    /// window is over its share; returns the first moved, or nil if none was.
    @inlinable package mutating func evictFromWindow() -> Int32? {
        var first: Int32?
        var next = window.first
        while window.cost > windowLimit, let node = next {
            next = links.next(node)
            if costs[node] != 0 {
                leave(node)
                join(node, .probation)
                if first == nil { first = node }
            }
        }
        return first
    }

    /// One step of Caffeine's `evictFromMain` loop that evicts: the cursors move on and the slot
    /// to evict is returned, still linked.
    @inlinable package mutating func nextEviction() -> Int32 {
        while true {
            if round.candidate == nil, !round.candidatesFromWindow {
                round.candidate = window.first
                round.candidatesFromWindow = true
            }
            // Entries of no cost are passed over: evicting them frees nothing.
            if let victim = round.victim, costs[victim] == 0 {
                round.victim = links.next(victim)
                continue
            }
            if let candidate = round.candidate, costs[candidate] == 0 {
                round.candidate = links.next(candidate)
                continue
            }
            switch (round.candidate, round.victim) {
            case (nil, nil):
                switch round.victimRegion {
                case .probation:
                    round.victim = protected.first
                    round.victimRegion = .protected
                case .protected:
                    round.victim = window.first
                    round.victimRegion = .window
                case .window, .none:
                    preconditionFailure("adaptive W-TinyLFU: asked to evict with nothing of any cost left")
                }
            case (let candidate?, nil):
                round.candidate = links.next(candidate)
                return candidate
            case (nil, let victim?):
                round.victim = links.next(victim)
                return victim
            case (let candidate?, let victim?):
                if candidate == victim {
                    round.victim = links.next(victim)
                    round.candidate = nil
                    return victim
                }
                // (A candidate heavier than the capacity, which Caffeine evicts here, was refused in
                // `admit`.)
                if admits(keys[candidate], over: keys[victim]) {
                    round.victim = links.next(victim)
                    round.candidate = links.next(candidate)
                    return victim
                }
                round.candidate = links.next(candidate)
                return candidate
            }
        }
    }

    /// The duel: the candidate stays if counted more often than the victim, or, counted 6 or
    /// more, by a 1-in-128 chance (so that a flood of collisions cannot lock main).
    @inlinable package mutating func admits(_ candidate: UInt64, over victim: UInt64) -> Bool {
        let candidateCount = sketch.frequency(candidate)
        if candidateCount > sketch.frequency(victim) { return true }
        guard candidateCount >= Self.warmCandidate, random.next() & Self.jitterMask == 0 else { return false }
        jitterAdmissions += 1
        return true
    }

    // MARK: Hill climbing

    /// Decides a step once a sample is complete, demotes protected's overflow, then moves the
    /// window's share by what is still to move.
    @inlinable package mutating func climb() {
        determineAdjustment()
        demoteFromProtected()
        if adjustment > 0 {
            increaseWindow()
        } else if adjustment < 0 {
            decreaseWindow()
        }
    }

    @inlinable package mutating func determineAdjustment() {
        guard sketch.isInitialized else {
            previousHitRate = 0
            hitsInSample = 0
            missesInSample = 0
            return
        }
        let requests = hitsInSample + missesInSample
        guard requests >= sketch.sampleSize else { return }
        let hitRate = Double(hitsInSample) / Double(requests)
        let change = hitRate - previousHitRate
        // Keep the heading unless the rate fell.
        let amount = change >= 0 ? stepSize : -stepSize
        stepSize =
            change.magnitude >= Self.restartThreshold
            ? Self.stepShare * Double(capacity) * (amount >= 0 ? 1 : -1)
            : Self.stepDecay * amount
        previousHitRate = hitRate
        adjustment = Int(amount)
        hitsInSample = 0
        missesInSample = 0
    }

    /// Grows the window by taking protected's share, moving whole entries (probation's oldest,
    /// or protected's when that one does not fit what is left) into the window; what could not
    /// be moved is given back and tried again next request.
    @inlinable package mutating func increaseWindow() {
        guard protectedLimit > 0 else { return }
        var quota = min(adjustment, protectedLimit)
        protectedLimit -= quota
        windowLimit += quota
        demoteFromProtected()
        for _ in 0..<Self.transferLimit {
            // Probation's oldest, or protected's when that one is missing or does not fit.
            guard let moving = fitting(probation.first, within: quota) ?? fitting(protected.first, within: quota)
            else { break }
            quota -= costs[moving]
            leave(moving)
            join(moving, .window)
        }
        protectedLimit += quota
        windowLimit -= quota
        adjustment = quota
    }

    /// Shrinks the window (never below 1) by giving its share to protected, moving the window's
    /// oldest entries to probation; what could not be moved is given back and tried again.
    @inlinable package mutating func decreaseWindow() {
        guard windowLimit > 1 else { return }
        var quota = min(-adjustment, max(0, windowLimit - 1))
        protectedLimit += quota
        windowLimit -= quota
        for _ in 0..<Self.transferLimit {
            guard let moving = fitting(window.first, within: quota) else { break }
            quota -= costs[moving]
            leave(moving)
            join(moving, .probation)
        }
        protectedLimit -= quota
        windowLimit += quota
        adjustment = -quota
    }

    /// `slot` if there is one and it costs at most `quota`, else nil.
    @inline(__always)
    @inlinable package func fitting(_ slot: Int32?, within quota: Int) -> Int32? {
        guard let slot, costs[slot] <= quota else { return nil }
        return slot
    }

    /// Moves protected's oldest entries to probation's newest end while protected is over its
    /// share, at most 1,000.
    @inlinable package mutating func demoteFromProtected() {
        var moved = 0
        while protected.cost > protectedLimit, moved < Self.transferLimit, !protected.isEmpty {
            let cooled = protected.head
            leave(cooled)
            join(cooled, .probation)
            moved += 1
        }
        demotionBacklog = protected.cost > protectedLimit
    }

    // MARK: Regions

    @inline(__always)
    @inlinable package mutating func join(_ slot: Int32, _ target: Region, oldestEnd: Bool = false) {
        region[slot] = target
        let cost = costs[slot]
        switch target {
        case .window:
            if oldestEnd {
                window.prepend(slot, cost: cost, in: links)
            } else {
                window.append(slot, cost: cost, in: links)
            }
        case .probation:
            probation.append(slot, cost: cost, in: links)
        case .protected:
            protected.append(slot, cost: cost, in: links)
        case .none:
            preconditionFailure("adaptive W-TinyLFU: joining no region")
        }
    }

    @inline(__always)
    @inlinable package mutating func leave(_ slot: Int32) {
        let cost = costs[slot]
        switch region[slot] {
        case .window: window.remove(slot, cost: cost, in: links)
        case .probation: probation.remove(slot, cost: cost, in: links)
        case .protected: protected.remove(slot, cost: cost, in: links)
        case .none: preconditionFailure("adaptive W-TinyLFU: slot \(slot) is in no region")
        }
        region[slot] = .none
    }

    /// Puts `new` where `old` stands, in its region and place; `new` carries the same cost.
    @inlinable package mutating func replace(_ old: Int32, with new: Int32) {
        let target = region[old]
        let cost = costs[old]
        switch target {
        case .window:
            window.insert(new, after: old, cost: cost, in: links)
            window.remove(old, cost: cost, in: links)
        case .probation:
            probation.insert(new, after: old, cost: cost, in: links)
            probation.remove(old, cost: cost, in: links)
        case .protected:
            protected.insert(new, after: old, cost: cost, in: links)
            protected.remove(old, cost: cost, in: links)
        case .none:
            preconditionFailure("adaptive W-TinyLFU: slot \(old) is in no region")
        }
        region[new] = target
        region[old] = .none
    }
}

// MARK: - For tests

extension AdaptiveWTinyLFUPolicy {
    /// The keys in the window, probation and protected, oldest first.
    @inlinable package var regionKeys: (window: [UInt64], probation: [UInt64], protected: [UInt64]) {
        (
            window.slots(in: links).map { keys[$0] }, probation.slots(in: links).map { keys[$0] },
            protected.slots(in: links).map { keys[$0] }
        )
    }

    /// What the window and protected cost now.
    @inlinable package var regionCosts: (window: Int, probation: Int, protected: Int) {
        (window.cost, probation.cost, protected.cost)
    }

    /// The sketch's estimate for `key`, doorkeeper included.
    @inlinable package func frequency(of key: UInt64) -> Int { sketch.frequency(key) }

    /// The sketch as it stands.
    @inlinable package var frequencySketch: BlockFrequencySketch { sketch }
}
