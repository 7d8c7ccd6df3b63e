/// New entries wait in a small LRU window; when room is needed, the window's oldest entry either
/// moves into a segmented-LRU main cache or leaves, depending on whether a frequency sketch says
/// it was used more often than main's next victim. A one-hit wonder costs the window a slot,
/// never main.
///
/// W-TinyLFU (Einziger, Friedman and Manes, "TinyLFU: A Highly Efficient Cache Admission
/// Policy", ACM Transactions on Storage 13(4), 2017) with libCacheSim's defaults and rules: the
/// window gets 1 % of the capacity, main the rest, split 1:4 into probation and protected; a
/// new entry goes to the window; the sketch counts insertions, hits in main and window victims,
/// and is halved after 32 × main's capacity hits in main. The window is bounded only by what
/// main leaves free: while main has room the window's oldest entries move in without a duel.
/// Only entries that fit the window are stored. Main is libCacheSim's `SLRU`: a new entry goes
/// to probation if it fits there, else to protected if it fits there; a hit in probation moves
/// the entry to protected, whose oldest entries go back to probation while protected is over its
/// share, and probation's oldest leave while it is (which only byte mode can make happen).
///
/// The sketch is libCacheSim's counting Bloom filter (`FrequencySketch`), sized as it sizes it:
/// for main's capacity counted in entries in unit mode but in bytes in byte mode (14.4 counters
/// per byte: a 50 MB disk tier would carry a 2.9 GB sketch). cachelab stops its growth at 2²⁰
/// counters (4 MiB, enough for 72,900 entries at libCacheSim's density), where libCacheSim's goes
/// on to 2³¹ (8 GiB). Miss counts are libCacheSim's exactly while main's capacity is under 72,900
/// (entries or bytes); above, the smaller table may collide where libCacheSim's does not, and
/// the counts may differ: on the conformance traces they never did; on a 1M-request Zipf trace
/// with a 195 MB main (`scripts/speed-vs-libcachesim`) they differ by 452 misses in 1M.
///
/// - Complexity: O(1) access and insert; evict O(1) amortized (every entry it moves into main
///   was inserted once); the sketch's halving is O(its width) every 32 × main's capacity hits.
/// - Invariant: `window`, `probation` and `protected` hold exactly the live slots, each tagged
///   with its list; the three costs are the sums of their entries' costs.
public struct WTinyLFUPolicy: AdmittingPolicy, SelfEvictingPolicy {
    public static let libCacheSimName: String? = "WTinyLFU"
    public static let summary =
        "1 % LRU window before a segmented-LRU main, a frequency sketch admitting window victims (libCacheSim WTinyLFU)"
    public static let storedShare: Double? = 0.01
    public static let relativeCost = 2.5

    /// The window's share of the capacity, and the largest entry stored.
    @usableFromInline package let windowLimit: Int
    /// Main's share: the rest.
    @usableFromInline package let mainLimit: Int
    @usableFromInline package let probationLimit: Int
    @usableFromInline package let protectedLimit: Int
    /// Hits in main between halvings of the sketch.
    @usableFromInline package let decayPeriod: Int
    /// The sketch's counters stop growing here.
    @usableFromInline package static let maximumSketchWidth = 1 << 20
    @usableFromInline package let capacity: Int
    @usableFromInline package let links = SlotLinks()
    @usableFromInline package var window = SlotList()
    @usableFromInline package var probation = SlotList()
    @usableFromInline package var protected = SlotList()
    @usableFromInline package var windowCost = 0
    @usableFromInline package var probationCost = 0
    @usableFromInline package var protectedCost = 0
    @usableFromInline package let segment = SlotArray<Segment>(count: 0, filling: .none)
    @usableFromInline package let costs = SlotArray<Int>(count: 0, filling: 0)
    @usableFromInline package let keys = SlotArray<UInt64>(count: 0, filling: 0)
    @usableFromInline package let sketch: FrequencySketch
    @usableFromInline package var mainHits = 0
    /// Entries evicted on the policy's own initiative (main making room for a window victim it
    /// admitted, or probation overflowing on a hit), not yet handed to the engine.
    @usableFromInline package var pending = SlotStack()

    @usableFromInline package enum Segment: UInt8 {
        case none, window, probation, protected
    }

    @inlinable public init(configuration: CacheConfiguration) {
        // libCacheSim scales capacities in double precision and truncates.
        capacity = configuration.capacity
        windowLimit = Int(Double(capacity) * 0.01)
        mainLimit = capacity - windowLimit
        probationLimit = Int(1.0 / 5.0 * Double(mainLimit))
        protectedLimit = Int(4.0 / 5.0 * Double(mainLimit))
        // A capacity past 2⁵⁸ would overflow 32 × mainLimit; no trace gets that far, so it
        // never decays.
        let (period, overflow) = mainLimit.multipliedReportingOverflow(by: 32)
        decayPeriod = overflow ? .max : period
        sketch = FrequencySketch(entries: mainLimit, maximumWidth: Self.maximumSketchWidth)
    }

    @inlinable public mutating func grow(to slotCount: Int) {
        links.grow(to: slotCount)
        segment.grow(to: slotCount, filling: .none)
        costs.grow(to: slotCount, filling: 0)
        keys.grow(to: slotCount, filling: 0)
        pending.reserve(slotCount)
    }

    @inline(__always)
    @inlinable public mutating func admit(_ key: UInt64, cost: Int) -> Admission {
        cost <= windowLimit && cost <= probationLimit && cost <= capacity ? .store : .reject
    }

    @inline(__always)
    @inlinable public mutating func inserted(_ slot: Int32, key: UInt64, cost: Int) {
        costs[slot] = cost
        keys[slot] = key
        join(slot, .window)
        sketch.add(key)
    }

    @inline(__always)
    @inlinable public mutating func accessed(_ slot: Int32) {
        switch segment[slot] {
        case .window:
            window.moveToTail(slot, in: links)
            return
        case .protected:
            protected.moveToTail(slot, in: links)
        case .probation:
            leave(slot)
            join(slot, .protected)
            while protectedCost > protectedLimit {
                let cooled = protected.head
                leave(cooled)
                join(cooled, .probation)
                while probationCost > probationLimit { pending.push(evictMain()) }
            }
        case .none:
            preconditionFailure("W-TinyLFU: slot \(slot) is in no list")
        }
        sketch.add(keys[slot])
        mainHits += 1
        if mainHits >= decayPeriod {
            mainHits = 0
            sketch.halve()
        }
    }

    @inlinable public mutating func removed(_ slot: Int32, key: UInt64) { leave(slot) }

    @inline(__always)
    @inlinable public mutating func pendingVictim() -> Int32? { pending.isEmpty ? nil : pending.pop() }

    @inlinable public mutating func evict() -> Int32? {
        if !pending.isEmpty { return pending.pop() }
        while windowCost > 0 {
            let candidate = window.head
            let cost = costs[candidate]
            let key = keys[candidate]
            if probationCost + protectedCost + cost <= mainLimit {
                // Main has room: the window's oldest moves in, and the search goes on.
                leave(candidate)
                admitToMain(candidate)
                sketch.add(key)
                continue
            }
            let rival = mainVictim()
            if sketch.estimate(key) > sketch.estimate(keys[rival]) {
                leave(rival)
                leave(candidate)
                admitToMain(candidate)
                sketch.add(key)
                return rival
            }
            leave(candidate)
            sketch.add(key)
            return candidate
        }
        return evictMain()
    }

    @inlinable public mutating func removeAll() {
        window.removeAll()
        probation.removeAll()
        protected.removeAll()
        windowCost = 0
        probationCost = 0
        protectedCost = 0
        pending.removeAll()
        mainHits = 0
        sketch.reset()
    }

    @inlinable public func checkedSlots() -> [Int32] {
        let lists: [(Segment, SlotList, Int, String)] = [
            (.window, window, windowCost, "window"), (.probation, probation, probationCost, "probation"),
            (.protected, protected, protectedCost, "protected"),
        ]
        var result: [Int32] = []
        for (tag, list, cost, name) in lists {
            list.checkInvariants(in: links, name: "W-TinyLFU.\(name)")
            let slots = list.slots(in: links)
            precondition(slots.allSatisfy { segment[$0] == tag }, "W-TinyLFU: a slot in \(name) is tagged otherwise")
            let sum = slots.reduce(0) { $0 + costs[$1] }
            precondition(sum == cost, "W-TinyLFU: \(name) counts \(cost) but its entries cost \(sum)")
            result += slots
        }
        precondition(pending.isEmpty, "W-TinyLFU: victims left undelivered")
        return result
    }

    /// The keys in the window, probation and protected, oldest first (for tests).
    @inlinable package var segmentKeys: (window: [UInt64], probation: [UInt64], protected: [UInt64]) {
        (
            window.slots(in: links).map { keys[$0] }, probation.slots(in: links).map { keys[$0] },
            protected.slots(in: links).map { keys[$0] }
        )
    }

    /// The sketch's estimate for `key` (for tests).
    @inlinable package func estimatedUses(of key: UInt64) -> UInt32 { sketch.estimate(key) }

    // libCacheSim's SLRU insert: probation if it fits, else protected if it fits, else main
    // evicts until the entry fits and it goes to probation.
    @inline(__always)
    @inlinable package mutating func admitToMain(_ slot: Int32) {
        let cost = costs[slot]
        if probationCost + cost <= probationLimit {
            join(slot, .probation)
        } else if protectedCost + cost <= protectedLimit {
            join(slot, .protected)
        } else {
            while probationCost + protectedCost + cost > mainLimit { pending.push(evictMain()) }
            join(slot, .probation)
        }
    }

    // Main's next victim: probation's oldest, or protected's if probation holds no bytes (then
    // lists holding only entries of no cost, then the window, so that one is always found).
    @inline(__always)
    @inlinable package func mainVictim() -> Int32 {
        if probationCost > 0 { return probation.head }
        if protectedCost > 0 { return protected.head }
        if !probation.isEmpty { return probation.head }
        return protected.isEmpty ? window.head : protected.head
    }

    @inline(__always)
    @inlinable package mutating func evictMain() -> Int32 {
        let victim = mainVictim()
        leave(victim)
        return victim
    }

    @inline(__always)
    @inlinable package mutating func join(_ slot: Int32, _ target: Segment) {
        segment[slot] = target
        let cost = costs[slot]
        switch target {
        case .window:
            window.append(slot, in: links)
            windowCost += cost
        case .probation:
            probation.append(slot, in: links)
            probationCost += cost
        case .protected:
            protected.append(slot, in: links)
            protectedCost += cost
        case .none:
            preconditionFailure("W-TinyLFU: joining no list")
        }
    }

    @inline(__always)
    @inlinable package mutating func leave(_ slot: Int32) {
        let cost = costs[slot]
        switch segment[slot] {
        case .window:
            window.remove(slot, in: links)
            windowCost -= cost
        case .probation:
            probation.remove(slot, in: links)
            probationCost -= cost
        case .protected:
            protected.remove(slot, in: links)
            protectedCost -= cost
        case .none:
            preconditionFailure("W-TinyLFU: slot \(slot) is in no list")
        }
        segment[slot] = .none
    }
}
