/// How one point of a miss-ratio curve was computed.
public enum CurveMethod: Sendable, Equatable, Codable, CustomStringConvertible {
    /// A replay of the policy at that capacity (`Replay.simulate`).
    case simulated
    /// Read off LRU's stack distances, all capacities from one pass: equal to the replay.
    case stackDistance
    /// SHARDS: LRU's stack distances of a spatially hashed sample of the objects, scaled.
    case sampledStackDistance(rate: Double)
    /// A replay of the sampled objects through a cache scaled down by the same rate (a
    /// miniature simulation, for policies without a stack property).
    case sampledSimulation(rate: Double)

    public var description: String {
        switch self {
        case .simulated: "simulated"
        case .stackDistance: "stack"
        case .sampledStackDistance(let rate): "shards(\(rate))"
        case .sampledSimulation(let rate): "mini(\(rate))"
        }
    }
}

/// One point of a miss-ratio curve: a policy at a capacity.
public struct CurvePoint: Sendable, Equatable, Codable {
    public var trace: String
    public var policy: PolicyKind
    /// Bytes, or objects in unit mode.
    public var capacity: Int
    public var sizeMode: SizeMode
    public var method: CurveMethod
    /// All requests of the trace (a sampled point estimates its counts for all of them).
    public var requests: Int
    public var hits: Int
    public var bytesRequested: Int
    public var bytesHit: Int

    public var misses: Int { requests - hits }
    public var hitRatio: Double { requests == 0 ? 0 : Double(hits) / Double(requests) }
    public var missRatio: Double { requests == 0 ? 0 : Double(misses) / Double(requests) }
    public var byteHitRatio: Double { bytesRequested == 0 ? 0 : Double(bytesHit) / Double(bytesRequested) }
    public var byteMissRatio: Double { bytesRequested == 0 ? 0 : 1 - byteHitRatio }

    public init(
        trace: String, policy: PolicyKind, capacity: Int, sizeMode: SizeMode, method: CurveMethod,
        requests: Int, hits: Int, bytesRequested: Int, bytesHit: Int
    ) {
        self.trace = trace
        self.policy = policy
        self.capacity = capacity
        self.sizeMode = sizeMode
        self.method = method
        self.requests = requests
        self.hits = hits
        self.bytesRequested = bytesRequested
        self.bytesHit = bytesHit
    }

    /// The point a replay measured.
    public init(_ result: RunResult, method: CurveMethod = .simulated) {
        self.init(
            trace: result.trace, policy: result.configuration.policy, capacity: result.cache.capacity,
            sizeMode: result.cache.sizeMode, method: method, requests: result.requests, hits: result.hits,
            bytesRequested: result.bytesRequested, bytesHit: result.bytesHit)
    }
}

/// Miss-ratio curves: every (policy, capacity) of a sweep, with LRU read off its stack distances
/// in one pass and every other point replayed, all in one pass over the trace (a run plan).
public enum MissRatioCurve {
    /// What to sweep.
    public struct Request: Sendable {
        public var policies: [PolicyKind]
        /// Capacities in bytes, or objects in unit mode; each at least 1.
        public var capacities: [Int]
        public var sizeMode: SizeMode
        /// `.memory` empties the cache at every relaunch event.
        public var tier: TierKind
        /// Sample this share of the objects (SHARDS) instead of reading every request; nil: exact.
        public var sampleRate: Double?

        public init(
            policies: [PolicyKind], capacities: [Int], sizeMode: SizeMode = .bytes, tier: TierKind = .disk,
            sampleRate: Double? = nil
        ) {
            self.policies = policies
            self.capacities = capacities
            self.sizeMode = sizeMode
            self.tier = tier
            self.sampleRate = sampleRate
        }

        /// The sweep of these curves on `source`: LRU as one stack pass, every other point a
        /// replay; `capacities` overrides the request's list (a range, shares of the working set).
        public func sweep(
            _ source: TraceSource, capacities list: CapacityList? = nil, command: String = "", output: String = ""
        ) throws(TraceError) -> SweepPlan {
            let list = list ?? .list(capacities.map(CapacitySpec.absolute))
            let sample = sampleRate.map { " sample=\($0)" } ?? ""
            let request = self
            var cells: [SweepCell] = []
            for policy in policies {
                let probe = RunConfiguration(policy: policy, capacity: 0, sizeMode: sizeMode, tier: tier)
                if policy == .lru {
                    let keys = (0..<list.count).map(list.key).joined(separator: ",")
                    let entry = SweepManifest.Entry(
                        trace: 0, slot: -1, role: .curve,
                        key: SweepCell.key(probe, capacity: "stack[\(keys)]", latency: false, extra: sample))
                    cells.append(
                        SweepCell(
                            entry: entry, needsStatistics: needsStatistics(list), needsFuture: false,
                            weight: request.sampled(.lruStack(capacities: [1], sizeMode: sizeMode, tier: tier)).weight,
                            make: { statistics in
                                let capacities = try list.resolved(for: statistics, mode: request.sizeMode)
                                return request.sampled(
                                    .lruStack(capacities: capacities, sizeMode: request.sizeMode, tier: request.tier))
                            },
                            fallback: { statistics in
                                try list.resolved(for: statistics, mode: request.sizeMode).map { capacity in
                                    var configuration = probe
                                    configuration.capacity = capacity
                                    return request.sampled(.simulate(configuration, latency: false))
                                }
                            }))
                    continue
                }
                for slot in 0..<list.count {
                    let entry = SweepManifest.Entry(
                        trace: 0, slot: slot, role: .curve,
                        key: SweepCell.key(probe, capacity: list.key(slot), latency: false, extra: sample))
                    cells.append(
                        SweepCell(
                            entry: entry, needsStatistics: needsStatistics(list), needsFuture: policy.needsFuture,
                            weight: request.sampled(.simulate(probe, latency: false)).weight
                        ) { statistics in
                            var configuration = probe
                            configuration.capacity = try list.resolve(slot, for: statistics, mode: request.sizeMode)
                            return request.sampled(.simulate(configuration, latency: false))
                        })
                }
            }
            return try SweepPlan(
                kind: .mrc, command: command, output: output, sortsCapacities: true, sources: [source], cells: cells)
        }

        /// A sample's size is checked against the trace's objects, so a sampled curve measures them.
        private func needsStatistics(_ list: CapacityList) -> Bool {
            list.needsStatistics || sampleRate != nil
        }

        private func sampled(_ cell: RunCell) -> RunCell {
            sampleRate.map { .sampled(rate: $0, cell) } ?? cell
        }
    }

    /// The curve points, policy by policy in the order asked, each policy's capacities ascending,
    /// of a trace held in memory.
    ///
    /// LRU runs as one stack-distance pass when that is exact: in bytes mode every object must
    /// keep one size (otherwise the engine's stored size and the stack's disagree); when one does
    /// not, LRU's points are replayed in a second pass. `sampleRate` samples objects by a hash of
    /// their key.
    ///
    /// - Parameters:
    ///   - trace: the requests.
    ///   - request: the policies and capacities.
    ///   - workers: cores replaying at once.
    ///   - progress: the pass's progress through the trace.
    public static func compute(
        _ trace: Trace, _ request: Request, workers: Int = ParallelSweep.defaultWorkers,
        progress: (@Sendable (PlanProgress) -> Void)? = nil
    ) -> [CurvePoint] {
        // A trace in memory cannot fail to read.
        try! compute(TraceSource(trace), request, workers: workers, observer: PlanObserver(progress: progress))
    }

    /// The curve points of the trace `source` reads, read once (twice when LRU's sizes change);
    /// `observer` hears each pass's progress and timing.
    public static func compute(
        _ source: TraceSource, _ request: Request, workers: Int = ParallelSweep.defaultWorkers,
        observer: PlanObserver = PlanObserver()
    ) throws(TraceError) -> [CurvePoint] {
        precondition(request.capacities.allSatisfy { $0 > 0 }, "a capacity is at least 1")
        let plan = try request.sweep(source)
        do {
            return plan.manifest.curve(try plan.outputs(workers: workers, observer: observer))
        } catch let error as TraceError {
            throw error
        } catch {
            // Absolute capacities resolve without a trace; only reading can fail.
            preconditionFailure("a curve of absolute capacities failed: \(error)")
        }
    }
}

/// SHARDS's spatial sampling (Waldspurger, Park, Garthwaite and Ahmad, "Efficient MRC
/// Construction with SHARDS", FAST 2015): the objects whose hashed key falls under a threshold.
/// Every request of a sampled object is kept, so reuse within the sample is the trace's reuse.
enum SpatialSample {
    /// Whether `key` is in a sample of `rate` of the objects: its 53-bit hash is under
    /// rate × 2^53.
    @inline(__always)
    static func contains(_ key: UInt64, threshold: UInt64) -> Bool {
        hash(key) >> 11 < threshold
    }

    static func threshold(rate: Double) -> UInt64 {
        precondition(rate > 0 && rate <= 1, "a sample rate is in (0, 1]")
        return UInt64((rate * 9_007_199_254_740_992).rounded(.down))
    }

    /// SplitMix64's finalizer: spreads consecutive ids over all 64 bits.
    @inline(__always)
    static func hash(_ key: UInt64) -> UInt64 {
        var z = key &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The sampled point's counts scaled to the whole trace (`requests` requests, `bytes`
    /// bytes), with SHARDS's adjustment: a sample holds more or fewer requests than `rate` of the
    /// trace, mostly because it caught more or fewer of the few very popular objects, whose
    /// requests are nearly all hits. So the difference from the expected count is counted as
    /// hits (at distance 0): without it, a 1 % sample of a Zipf trace that misses its hottest
    /// objects overstates the miss ratio by 0.1–0.2.
    static func estimate(_ point: CurvePoint, rate: Double, requests: Int, bytes: Int) -> CurvePoint {
        func scaled(_ hits: Int, sampled: Int, total: Int) -> Int {
            let expected = Double(total) * rate
            guard expected > 0 else { return 0 }
            let adjusted = Double(hits) + expected - Double(sampled)
            return Int((min(max(adjusted / expected, 0), 1) * Double(total)).rounded())
        }
        var estimate = point
        estimate.requests = requests
        estimate.bytesRequested = bytes
        estimate.hits = scaled(point.hits, sampled: point.requests, total: requests)
        estimate.bytesHit = scaled(point.bytesHit, sampled: point.bytesRequested, total: bytes)
        return estimate
    }
}

/// A cell replayed on a spatial sample of the objects: each batch filtered to the sampled
/// requests (events keep their place among them), the inner cell's figures scaled to the whole
/// trace at the end.
final class SampledReplay {
    private let rate: Double
    private let threshold: UInt64
    private let inner: CellReplay
    /// The capacity a `.simulate` cell's points are reported at (the sample ran at `rate` of it).
    private let reportedCapacity: Int?
    private var times: [Int64] = []
    private var keys: [UInt64] = []
    private var sizes: [Int] = []
    private var nextUses: [Int64] = []
    private var events: [TraceEvent] = []
    private var sampled = 0
    private var requests = 0
    private var bytes = 0

    init(rate: Double, inner: CellReplay, reportedCapacity: Int?) {
        self.rate = rate
        threshold = SpatialSample.threshold(rate: rate)
        self.inner = inner
        self.reportedCapacity = reportedCapacity
    }

    func replay(_ batch: RequestBatch) {
        times.removeAll(keepingCapacity: true)
        keys.removeAll(keepingCapacity: true)
        sizes.removeAll(keepingCapacity: true)
        nextUses.removeAll(keepingCapacity: true)
        events.removeAll(keepingCapacity: true)
        let start = sampled
        var nextEvent = 0
        for index in 0..<batch.count {
            while nextEvent < batch.events.count, batch.events[nextEvent].position <= batch.start + index {
                var event = batch.events[nextEvent]
                event.position = start + keys.count
                events.append(event)
                nextEvent += 1
            }
            let key = batch.keys[index]
            requests &+= 1
            bytes &+= batch.sizes[index]
            guard SpatialSample.contains(key, threshold: threshold) else { continue }
            times.append(batch.times[index])
            keys.append(key)
            sizes.append(batch.sizes[index])
            if !batch.nextUses.isEmpty { nextUses.append(batch.nextUses[index]) }
        }
        for var event in batch.events[nextEvent...] {
            event.position = start + keys.count
            events.append(event)
        }
        sampled += keys.count
        times.withUnsafeBufferPointer { times in
            keys.withUnsafeBufferPointer { keys in
                sizes.withUnsafeBufferPointer { sizes in
                    nextUses.withUnsafeBufferPointer { nextUses in
                        events.withUnsafeBufferPointer { events in
                            inner.replay(
                                RequestBatch(
                                    start: start, times: times, keys: keys, sizes: sizes, nextUses: nextUses,
                                    events: events))
                        }
                    }
                }
            }
        }
    }

    func finish() -> CellOutput {
        func estimate(_ point: CurvePoint) -> CurvePoint {
            SpatialSample.estimate(point, rate: rate, requests: requests, bytes: bytes)
        }
        switch inner.finish() {
        case .run(let result):
            var point = CurvePoint(result, method: .sampledSimulation(rate: rate))
            if let reportedCapacity { point.capacity = reportedCapacity }
            return .curve([estimate(point)])
        case .curve(let points):
            return .curve(points.map(estimate))
        case let other:
            return other
        }
    }
}

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
            var object = Int(ids.slot(for: key))
            if object < 0 {
                object = costs.count
                ids.insert(key, slot: Int32(object))
                let cost = sizeMode == .unit ? 1 : size
                costs.append(cost)
                for group in groups { group.addObject() }
                split(for: cost)
            } else if sizeMode == .bytes && costs[object] != size {
                broken = true
                continue
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

extension Array {
    /// The first index whose element satisfies `predicate`, which must be false for a prefix of
    /// the array and true for the rest (binary search); `count` if none does.
    func partitioningIndex(where predicate: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if predicate(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}

extension ArraySlice {
    /// The offset from `startIndex` of the first element satisfying `predicate` (as
    /// `Array.partitioningIndex`).
    func partitioningIndex(where predicate: (Element) -> Bool) -> Int {
        var low = startIndex
        var high = endIndex
        while low < high {
            let middle = (low + high) / 2
            if predicate(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low - startIndex
    }
}
