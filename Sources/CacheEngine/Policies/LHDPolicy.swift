/// Evicts, of 8 entries sampled at random and the 8 last admitted, the one of lowest hit density:
/// the hits an entry of its class and age can still expect, per byte and per unit of time it
/// will stay.
///
/// LHD (N. Beckmann, H. Chen and A. Cidon, "LHD: Improving Cache Hit Rate by Maximizing Hit
/// Density", NSDI 2018) as libCacheSim's `LHD` runs it, in single precision where it does:
/// - An entry's **age** is the updates (hits and insertions) since its last one, coarsened by a
///   shift (10 at first) and capped at 19,999; its **class**, of 16, comes from the sum of its last
///   two hit ages. Hits and evictions are counted per class and age.
/// - Its **hit density** is its class's density at its age divided by its size, plus 1 while it
///   is an explorer (1 insertion or hit in 32, drawn, while a budget of 1 % of the capacity lasts,
///   during the first 50 reconfigurations); at the last age, the lowest there is.
/// - Every 2^20 updates the counts decay by 0.9 and the densities are remodelled from them; the
///   6th and 26th time, the age shift adapts to the number of entries.
/// - Each eviction draws 8 entries (32 after 51 reconfigurations), with replacement, from the
///   entries in arrival order (an evicted one's place taken by the last), and also weighs the
///   last 8 newcomers that ranked below the running average of victims' densities.
///
/// Every insertion and hit draws once (the explorer), every eviction 8 times. A hit takes the
/// request's size, as libCacheSim's LHD does (`resizesOnHit`). Miss counts match libCacheSim's
/// exactly.
///
/// - Complexity: O(1) access and insert, O(8) evict; a reconfiguration, every 2^20 updates, is
///   O(16 × 20,000).
/// - Invariant: `order[0..<count]` holds exactly the live slots, each at `position[slot]`.
public struct LHDPolicy: ResizingPolicy, RandomizedPolicy {
    public static let libCacheSimName: String? = "LHD"
    public static let drawsRandomly = true
    public static let summary =
        "lowest hit density of 8 sampled and the 8 last admitted (libCacheSim LHD)"
    public static let relativeCost = 2.5

    @usableFromInline package static let maximumAge = 20_000
    @usableFromInline package static let classes = 16
    @usableFromInline package static let exploreInverseProbability: UInt64 = 32
    @usableFromInline package static let updatesPerReconfiguration = 1 << 20
    @usableFromInline package static let decay: Float = 0.9
    @usableFromInline package static let admissions = 8

    /// A newcomer that ranked below the average victim: its key, and its slot while stored (nil
    /// in a place never filled).
    @usableFromInline package struct Newcomer {
        @usableFromInline package var key: UInt64
        @usableFromInline package var slot: Int32?

        @inlinable package init(key: UInt64, slot: Int32?) {
            self.key = key
            self.slot = slot
        }
    }

    @usableFromInline package var random = LehmerRandom()
    @usableFromInline package let keys = SlotArray<UInt64>(count: 0, filling: 0)
    @usableFromInline package let costs = SlotArray<Int>(count: 0, filling: 0)
    /// Each slot's index in `order`; -1 while the slot is not listed (never handed out).
    @usableFromInline package let position = SlotArray<Int32>(count: 0, filling: -1)
    /// The live slots in libCacheSim's tag order: arrivals at the end, an evicted slot's place
    /// taken by the last.
    @usableFromInline package let order = SlotArray<Int32>(count: 0, filling: -1)
    @usableFromInline package var count = 0
    // Each entry's tag.
    @usableFromInline package let stamp = SlotArray<UInt64>(count: 0, filling: 0)
    @usableFromInline package let lastHitAge = SlotArray<UInt64>(count: 0, filling: 0)
    @usableFromInline package let lastLastHitAge = SlotArray<UInt64>(count: 0, filling: 0)
    @usableFromInline package let tagSize = SlotArray<Float>(count: 0, filling: 0)
    @usableFromInline package let explorer = SlotArray<Bool>(count: 0, filling: false)
    // Per class and age (class × maximumAge + age).
    @usableFromInline package let hits = SlotArray<Float>(count: classes * maximumAge, filling: 0)
    @usableFromInline package let evictions = SlotArray<Float>(count: classes * maximumAge, filling: 0)
    @usableFromInline package let densities: SlotArray<Float>
    @usableFromInline package let newcomers = SlotArray<Newcomer>(
        count: admissions, filling: Newcomer(key: 0, slot: nil))
    @usableFromInline package var newcomerHead = 0
    @usableFromInline package var timestamp: UInt64 = 0
    @usableFromInline package var ageShift = 10
    @usableFromInline package var updatesToReconfiguration = updatesPerReconfiguration
    @usableFromInline package var reconfigurations = 0
    @usableFromInline package var explorerBudget: Int64
    @usableFromInline package var averageVictimDensity: Float = 0
    @usableFromInline package var averageObjects: Float = 0
    @usableFromInline package var averageObjectsMass: Float = 0

    @inlinable public init(configuration: CacheConfiguration) {
        explorerBudget = Int64(Float(configuration.capacity) * Float(0.01))
        densities = SlotArray(copying: Self.prior)
    }

    /// libCacheSim's prior hit densities, "GDSF-like": (class + 1) / (age + 1), its classes of
    /// application 1 being 16 to 31; class by class, age by age. Worked out once (320,000
    /// divisions) and copied into each cache.
    @usableFromInline package static let prior: [Float] = (0..<classes).flatMap { row in
        (0..<maximumAge).map { age in Float(Double(row + classes + 1) / Double(age + 1)) }
    }

    @inlinable public mutating func share(_ random: LehmerRandom) { self.random = random }

    @inlinable public mutating func grow(to slotCount: Int) {
        keys.grow(to: slotCount, filling: 0)
        costs.grow(to: slotCount, filling: 0)
        position.grow(to: slotCount, filling: -1)
        order.grow(to: slotCount, filling: -1)
        stamp.grow(to: slotCount, filling: 0)
        lastHitAge.grow(to: slotCount, filling: 0)
        lastLastHitAge.grow(to: slotCount, filling: 0)
        tagSize.grow(to: slotCount, filling: 0)
        explorer.grow(to: slotCount, filling: false)
    }

    @inline(__always)
    @inlinable public mutating func inserted(_ slot: Int32, key: UInt64, cost: Int) {
        keys[slot] = key
        costs[slot] = cost
        position[slot] = Int32(count)
        order[count] = slot
        count += 1
        lastLastHitAge[slot] = UInt64(Self.maximumAge)
        lastHitAge[slot] = 0
        tagSize[slot] = 0
        explorer[slot] = false
        // A newcomer remembered under its key finds it again wherever it is stored now.
        for index in 0..<Self.admissions where newcomers[index].key == key { newcomers[index].slot = slot }
        update(slot, isNew: true)
    }

    @inline(__always)
    @inlinable public mutating func resized(_ slot: Int32, cost: Int) { costs[slot] = cost }

    @inline(__always)
    @inlinable public mutating func accessed(_ slot: Int32) { update(slot, isNew: false) }

    @inlinable public mutating func removed(_ slot: Int32, key: UInt64) { take(position[slot]) }

    @inlinable public mutating func evict() -> Int32? {
        let samples = reconfigurations > 50 ? 32 : 8
        // The samples' places first, then their slots, then their densities: nothing changes
        // between two samples, so this ranks what sampling and ranking in turn would, while the
        // loads overlap (each place's slot, then that slot's tag, requested once it is known).
        var places = InlineArray<32, Int32>(repeating: 0)
        for sample in 0..<samples {
            let index = Int(random.next() % UInt64(count))
            places[sample] = Int32(index)
            order.prefetch(index)
        }
        var slots = InlineArray<32, Int32>(repeating: 0)
        for sample in 0..<samples {
            let slot = order[Int(places[sample])]
            slots[sample] = slot
            stamp.prefetch(Int(slot))
            lastHitAge.prefetch(Int(slot))
            lastLastHitAge.prefetch(Int(slot))
            tagSize.prefetch(Int(slot))
            explorer.prefetch(Int(slot))
        }
        var victim: Int?
        var lowest = Float.greatestFiniteMagnitude
        let first = Int(places[0])
        for sample in 0..<samples {
            let density = hitDensity(slots[sample])
            if density < lowest {
                victim = Int(places[sample])
                lowest = density
            }
        }
        for index in 0..<Self.admissions {
            let newcomer = newcomers[index]
            guard let slot = newcomer.slot, position[slot] >= 0, keys[slot] == newcomer.key else { continue }
            let density = hitDensity(slot)
            if density < lowest {
                victim = Int(position[slot])
                lowest = density
            }
        }
        // Densities are finite below the largest Float unless an entry costs 0, which a trace
        // never stores (libCacheSim drops size-0 requests): then the first sample goes.
        let chosen = victim ?? first
        averageVictimDensity = Self.decay * averageVictimDensity + (Float(1) - Self.decay) * lowest
        let slot = order[chosen]
        let row = hitAgeClass(slot)
        evictions[row * Self.maximumAge + age(slot)] += 1
        if explorer[slot] { explorerBudget = Int64(Float(explorerBudget) + tagSize[slot]) }
        take(chosen)
        return slot
    }

    @inlinable public mutating func removeAll() {
        for index in 0..<count { position[order[index]] = -1 }
        count = 0
    }

    @inlinable public func checkedSlots() -> [Int32] {
        let slots = (0..<count).map { order[$0] }
        for (index, slot) in slots.enumerated() {
            precondition(
                position[slot] == Int32(index), "LHD: slot \(slot) at \(index) thinks it is at \(position[slot])")
        }
        precondition(Set(slots).count == count, "LHD: a slot listed twice")
        let listed = (0..<position.count).count { position[$0] >= 0 }
        precondition(listed == count, "LHD: \(listed) slots have a position, \(count) listed")
        return slots
    }

    /// The hit density `evict` ranks `slot` by now (for tests).
    @inlinable package func density(_ slot: Int32) -> Float { hitDensity(slot) }

    /// `density`, inlined where the policy ranks: a call would copy the policy onto the stack.
    @inline(__always)
    @inlinable package func hitDensity(_ slot: Int32) -> Float {
        let age = age(slot)
        if age == Self.maximumAge - 1 { return -Float.greatestFiniteMagnitude }
        let density = densities[hitAgeClass(slot) * Self.maximumAge + age] / tagSize[slot]
        return explorer[slot] ? density + 1 : density
    }

    /// The keys in libCacheSim's tag order, which `evict` samples by index (for tests).
    @inlinable package var tagKeys: [UInt64] { (0..<count).map { keys[order[$0]] } }

    /// The keys remembered as newcomers that ranked below the average victim (for tests).
    @inlinable package var newcomerKeys: [UInt64] {
        (0..<Self.admissions).compactMap { newcomers[$0].slot != nil ? newcomers[$0].key : nil }
    }

    // MARK: Tags

    @inline(__always)
    @inlinable package func age(_ slot: Int32) -> Int {
        let age = (timestamp &- stamp[slot]) >> UInt64(ageShift)
        return age >= UInt64(Self.maximumAge) ? Self.maximumAge - 1 : Int(age)
    }

    // The class of the sum of the last two hit ages: 15 for 0, else how many doublings bring it
    // to the maximum age (at most 15).
    @inline(__always)
    @inlinable package func hitAgeClass(_ slot: Int32) -> Int {
        var ages = lastHitAge[slot] &+ lastLastHitAge[slot]
        if ages == 0 { return Self.classes - 1 }
        var log = 0
        while ages < UInt64(Self.maximumAge) && log < Self.classes - 1 {
            ages <<= 1
            log += 1
        }
        return log
    }

    // libCacheSim's update, for an insertion or a hit: the hit counted at the entry's age and
    // class, the tag restamped, the explorer drawn, and a newcomer below the average victim
    // remembered.
    @inline(__always)
    @inlinable package mutating func update(_ slot: Int32, isNew: Bool) {
        if !isNew {
            let age = age(slot)
            hits[hitAgeClass(slot) * Self.maximumAge + age] += 1
            if explorer[slot] { explorerBudget = Int64(Float(explorerBudget) + tagSize[slot]) }
            lastLastHitAge[slot] = lastHitAge[slot]
            lastHitAge[slot] = UInt64(age)
        }
        stamp[slot] = timestamp
        tagSize[slot] = Float(costs[slot])
        let explore = random.next() % Self.exploreInverseProbability == 0
        if explore && explorerBudget > 0 && reconfigurations < 50 {
            explorer[slot] = true
            explorerBudget = Int64(Float(explorerBudget) - tagSize[slot])
        } else {
            explorer[slot] = false
        }
        if isNew && !explore && hitDensity(slot) < averageVictimDensity {
            newcomers[newcomerHead % Self.admissions] = Newcomer(key: keys[slot], slot: slot)
            newcomerHead += 1
        }
        timestamp += 1
        updatesToReconfiguration -= 1
        if updatesToReconfiguration == 0 {
            reconfigure()
            updatesToReconfiguration = Self.updatesPerReconfiguration
            reconfigurations += 1
        }
    }

    // Takes the entry at `index` out of the tag order: the last takes its place.
    @inline(__always)
    @inlinable package mutating func take(_ index: Int32) {
        let slot = order[Int(index)]
        count -= 1
        let last = order[count]
        order[Int(index)] = last
        position[last] = index
        position[slot] = -1
    }

    @inline(__always)
    @inlinable package mutating func take(_ index: Int) { take(Int32(index)) }

    // MARK: Reconfiguration

    @inlinable package mutating func reconfigure() {
        for index in 0..<(Self.classes * Self.maximumAge) {
            hits[index] *= Self.decay
            evictions[index] *= Self.decay
        }
        adaptAgeCoarsening()
        for row in 0..<Self.classes { modelHitDensity(row) }
    }

    @inlinable package mutating func adaptAgeCoarsening() {
        averageObjects *= Self.decay
        averageObjectsMass *= Self.decay
        averageObjects += Float(count)
        averageObjectsMass += 1
        let objects = averageObjects / averageObjectsMass
        let optimal = Float(Double(objects) / Double(Float(0.01) * Float(Self.maximumAge)))
        guard reconfigurations == 5 || reconfigurations == 25 else { return }
        var shift = 1
        while Float(1 << shift) < optimal { shift += 1 }
        let delta = shift - ageShift
        ageShift = shift
        averageObjects *= 8
        averageObjectsMass *= 8
        for row in 0..<Self.classes {
            if delta < 0 {
                Self.stretch(hits, row: row, by: -delta)
                Self.stretch(evictions, row: row, by: -delta)
            } else if delta > 0 {
                Self.compress(hits, row: row, by: delta)
                Self.compress(evictions, row: row, by: delta)
            }
        }
    }

    // Ages grow finer by 2^shift: the counts past the new range fold into the last age, and each
    // age takes its share of the coarser age it came from.
    @inlinable package static func stretch(_ counts: SlotArray<Float>, row: Int, by shift: Int) {
        let base = row * maximumAge
        let last = base + maximumAge - 1
        for age in (maximumAge >> shift)..<(maximumAge - 1) { counts[last] += counts[base + age] }
        for age in stride(from: maximumAge - 2, through: 0, by: -1) {
            counts[base + age] = counts[base + (age >> shift)] / Float(1 << shift)
        }
    }

    // Ages grow coarser by 2^shift: each new age sums the 2^shift it covers, the rest are zero.
    @inlinable package static func compress(_ counts: SlotArray<Float>, row: Int, by shift: Int) {
        let base = row * maximumAge
        for age in 0..<(maximumAge >> shift) {
            var sum = counts[base + (age << shift)]
            for offset in 1..<(1 << shift) { sum += counts[base + (age << shift) + offset] }
            counts[base + age] = sum
        }
        for age in (maximumAge >> shift)..<(maximumAge - 1) { counts[base + age] = 0 }
    }

    // The expected hits over the expected lifetime, from each age to the end, for one class.
    @inlinable package func modelHitDensity(_ row: Int) {
        let base = row * Self.maximumAge
        let last = base + Self.maximumAge - 1
        var totalEvents = hits[last] + evictions[last]
        var totalHits = hits[last]
        var lifetime = totalEvents
        for age in stride(from: Self.maximumAge - 2, through: 0, by: -1) {
            totalHits += hits[base + age]
            totalEvents += hits[base + age] + evictions[base + age]
            lifetime += totalEvents
            densities[base + age] = Double(totalEvents) > 1e-5 ? totalHits / lifetime : 0
        }
    }
}
