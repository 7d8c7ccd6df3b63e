import CacheEngine

/// LRU's whole miss-ratio curve from one pass over the trace (Mattson, Gecsei, Slutz and Traiger,
/// "Evaluation techniques for storage hierarchies", IBM Systems Journal, 1970), streamed.
///
/// After every request an LRU cache of capacity `C` holds the longest most-recent prefix of the
/// LRU stack whose costs fit in `C`: a hit moves an entry within that prefix, and a miss puts the
/// new entry on top and evicts from the bottom until the total fits. So a request hits exactly
/// when its *demand* — its own cost plus the costs of the distinct objects requested since its
/// previous request — is at most `C`. Demands come from a Fenwick tree over logical time that
/// marks each object's latest request with its cost; when the clock reaches the end of the tree,
/// the marks are renumbered from 0 (a compaction), so the tree holds about twice the distinct
/// objects, whatever the number of requests.
///
/// Two rules of the engine keep this exact:
/// - An object costlier than the capacity is refused and never enters the stack. Capacities that
///   have refused the same objects so far share one stack (a group); when an object first comes
///   that some of a group's capacities refuse and others take, the group splits in two, each
///   with a copy of the stack (until then their stacks were the same).
/// - A relaunch empties a memory tier: requests after it see no object requested before it.
///
/// In bytes mode an object must keep one size; when one does not, the pass stops and says so
/// (`CellOutput.unstackable`), and LRU is replayed instead.
final class LRUStackPass {
    private let capacities: [Int]
    private let sizeMode: SizeMode
    private let tier: TierKind
    private let scale: Double
    private let name: String
    // Dense object ids, and each object's cost (its first size, or 1 in unit mode).
    private var ids: SlotIndex<UInt64>
    private var costs: [Int] = []
    private var groups: [StackGroup]
    private var broken = false
    private var requests = 0
    private var bytesRequested = 0

    /// - Parameter scale: the share of the objects the trace is a spatial sample of (SHARDS):
    ///   distances are scaled up by `1 / scale`.
    init(capacities: [Int], sizeMode: SizeMode, tier: TierKind, scale: Double = 1, context: CellContext) {
        precondition(!capacities.isEmpty && capacities == Array(Set(capacities)).sorted(), "ascending capacities")
        self.capacities = capacities
        self.sizeMode = sizeMode
        self.tier = tier
        self.scale = scale
        name = context.name
        ids = SlotIndex(minimumCapacity: 1 << 12)
        groups = [StackGroup(capacities: 0..<capacities.count)]
    }

    func replay(_ batch: RequestBatch) {
        var nextEvent = 0
        for index in 0..<batch.count {
            while nextEvent < batch.events.count, batch.events[nextEvent].position <= batch.start + index {
                apply(batch.events[nextEvent])
                nextEvent += 1
            }
            let size = batch.sizes[index]
            requests &+= 1
            bytesRequested &+= size
            guard !broken else { continue }
            let key = batch.keys[index]
            let object: Int
            if let known = ids.slot(for: key) {
                object = Int(known)
                if sizeMode == .bytes && costs[object] != size {
                    broken = true
                    continue
                }
            } else {
                object = costs.count
                ids.insert(key, slot: Int32(object))
                let cost = sizeMode == .unit ? 1 : size
                costs.append(cost)
                for group in groups { group.addObject() }
                split(for: cost)
            }
            let cost = costs[object]
            for group in groups where cost <= capacities[group.capacities.lowerBound] {
                group.request(object, cost: cost, size: size, capacities: capacities, scale: scale, costs: costs)
            }
        }
        for event in batch.events[nextEvent...] { apply(event) }
    }

    private func apply(_ event: TraceEvent) {
        guard event.kind == .relaunch, tier == .memory else { return }
        for group in groups { group.startEpoch() }
    }

    /// Splits the groups some of whose capacities refuse an object of `cost` and others take.
    private func split(for cost: Int) {
        var index = 0
        while index < groups.count {
            let group = groups[index]
            let firstTaking =
                capacities[group.capacities].partitioningIndex { $0 >= cost } + group.capacities.lowerBound
            if firstTaking > group.capacities.lowerBound && firstTaking < group.capacities.upperBound {
                groups.insert(group.split(at: firstTaking), at: index + 1)
                index += 1
            }
            index += 1
        }
    }

    func finish() -> CellOutput {
        guard !broken else { return .unstackable }
        let method: CurveMethod = scale < 1 ? .sampledStackDistance(rate: scale) : .stackDistance
        var points: [CurvePoint] = []
        for group in groups {
            var hits = 0
            var bytesHit = 0
            for capacity in group.capacities {
                hits &+= group.hitsAt[capacity - group.capacities.lowerBound]
                bytesHit &+= group.bytesAt[capacity - group.capacities.lowerBound]
                points.append(
                    CurvePoint(
                        trace: name, policy: .lru, capacity: capacities[capacity], sizeMode: sizeMode,
                        method: method, requests: requests, hits: hits, bytesRequested: bytesRequested,
                        bytesHit: bytesHit))
            }
        }
        return .curve(points)
    }
}

/// The LRU stack of the capacities that have refused the same objects so far (`LRUStackPass`).
private final class StackGroup {
    /// Indices of the pass's capacities this group serves.
    private(set) var capacities: Range<Int>
    /// Hits (and their bytes) whose smallest capacity that holds them is the group's i-th.
    var hitsAt: [Int]
    var bytesAt: [Int]
    /// Each object's latest request as a logical time, or -1.
    private var latest: [Int32]
    /// The object marked at each logical time, or -1.
    private var owner: [Int32]
    /// The cost marked at each logical time.
    private var tree: FenwickTree<Int>
    private var clock = 0
    private var marked = 0
    /// The logical time the current memory epoch began at (a relaunch of a memory tier).
    private var epochStart = 0

    init(capacities: Range<Int>) {
        self.capacities = capacities
        hitsAt = Array(repeating: 0, count: capacities.count)
        bytesAt = Array(repeating: 0, count: capacities.count)
        latest = []
        owner = Array(repeating: -1, count: 1024)
        tree = FenwickTree(count: 1024)
    }

    private init(copying other: StackGroup, capacities: Range<Int>, counts: Range<Int>) {
        self.capacities = capacities
        // A hit counted at a smaller capacity so far is a hit at these too.
        hitsAt = Array(other.hitsAt[counts])
        bytesAt = Array(other.bytesAt[counts])
        hitsAt[0] &+= other.hitsAt[..<counts.lowerBound].reduce(0, &+)
        bytesAt[0] &+= other.bytesAt[..<counts.lowerBound].reduce(0, &+)
        latest = other.latest
        owner = other.owner
        tree = other.tree
        clock = other.clock
        marked = other.marked
        epochStart = other.epochStart
    }

    /// Keeps the capacities below `index` and returns a group for the rest, with a copy of the
    /// stack.
    func split(at index: Int) -> StackGroup {
        let cut = index - capacities.lowerBound
        let rest = StackGroup(
            copying: self, capacities: index..<capacities.upperBound, counts: cut..<capacities.count)
        capacities = capacities.lowerBound..<index
        hitsAt.removeSubrange(cut...)
        bytesAt.removeSubrange(cut...)
        return rest
    }

    func addObject() { latest.append(-1) }

    func startEpoch() { epochStart = clock }

    @inline(__always)
    func request(_ object: Int, cost: Int, size: Int, capacities all: [Int], scale: Double, costs: [Int]) {
        let previous = Int(latest[object])
        if previous >= 0 {
            if previous >= epochStart {
                let between = marked &- tree.sum(before: previous + 1)
                let scaled = scale < 1 ? Int((Double(between) / scale).rounded()) : between
                let demand = cost &+ scaled
                if demand <= all[capacities.upperBound - 1] {
                    let index = all[capacities].partitioningIndex { $0 >= demand }
                    hitsAt[index] &+= 1
                    bytesAt[index] &+= size
                }
            }
            tree.add(-cost, at: previous)
            marked &-= cost
            owner[previous] = -1
        }
        if clock == owner.count { compact(costs: costs) }
        tree.add(cost, at: clock)
        marked &+= cost
        latest[object] = Int32(clock)
        owner[clock] = Int32(object)
        clock += 1
    }

    /// Renumbers the marks from 0 in a tree twice their number, dropping those of an ended epoch
    /// (no later request looks past them).
    private func compact(costs: [Int]) {
        var live: [Int32] = []
        for time in 0..<clock where owner[time] >= 0 {
            let object = Int(owner[time])
            if time < epochStart {
                latest[object] = -1
                marked &-= costs[object]
            } else {
                live.append(Int32(object))
            }
        }
        let size = max(1024, 2 * (live.count + 1))
        owner = Array(repeating: -1, count: size)
        var amounts = Array(repeating: 0, count: size)
        for (time, object) in live.enumerated() {
            latest[Int(object)] = Int32(time)
            owner[time] = object
            amounts[time] = costs[Int(object)]
        }
        tree = FenwickTree(amounts)
        clock = live.count
        epochStart = 0
    }
}
