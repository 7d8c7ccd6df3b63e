/// How one point of a miss-ratio curve was computed.
public enum CurveMethod: Sendable, Equatable, CustomStringConvertible {
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
public struct CurvePoint: Sendable, Equatable {
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
/// in one pass and every other point replayed, all in parallel.
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
    }

    /// Whether LRU's curve on `trace` comes from one stack pass (else LRU is replayed per
    /// capacity): always in unit mode; in bytes mode when every object keeps one size.
    public static func stackApplies(to trace: Trace, sizeMode: SizeMode) -> Bool {
        LRUStack.applies(to: trace, sizeMode: sizeMode)
    }

    /// One unit of work: a stack pass gives a whole curve, a replay one point.
    enum Job: Sendable {
        case stack(PolicyKind)
        case replay(PolicyKind, capacity: Int)
    }

    /// The curve points, policy by policy in the order asked, each policy's capacities ascending.
    ///
    /// LRU runs as one stack-distance pass when that is exact: no TTL, and in bytes mode every
    /// object keeps one size (otherwise the engine's stored size and the stack's disagree, and
    /// the points are replayed instead). `sampleRate` samples objects by a hash of their key.
    ///
    /// - Parameters:
    ///   - progress: called after each job with (finished, total).
    public static func compute(
        _ trace: Trace,
        _ request: Request,
        workers: Int = ParallelSweep.defaultWorkers,
        progress: (@Sendable (_ finished: Int, _ total: Int) -> Void)? = nil
    ) -> [CurvePoint] {
        let capacities = Array(Set(request.capacities)).sorted()
        precondition(capacities.allSatisfy { $0 > 0 }, "a capacity is at least 1")
        let sampled = request.sampleRate.map { SpatialSample(trace, rate: $0) }
        let stackable = LRUStack.applies(to: trace, sizeMode: request.sizeMode)

        let jobs = request.policies.flatMap { policy -> [Job] in
            policy == .lru && stackable ? [.stack(policy)] : capacities.map { .replay(policy, capacity: $0) }
        }
        let total = jobs.count
        let curves = ParallelSweep.map(jobs.count, workers: workers, progress: { progress?($0, total) }) { index in
            switch jobs[index] {
            case .stack:
                if let sampled {
                    return LRUStack.points(
                        sampled.trace, capacities: capacities, sizeMode: request.sizeMode, tier: request.tier,
                        scale: sampled.rate
                    ).map { sampled.estimate($0, of: trace) }
                }
                return LRUStack.points(trace, capacities: capacities, sizeMode: request.sizeMode, tier: request.tier)
            case .replay(let policy, let capacity):
                let configuration = { (capacity: Int) in
                    RunConfiguration(policy: policy, capacity: capacity, sizeMode: request.sizeMode, tier: request.tier)
                }
                guard let sampled else {
                    return [CurvePoint(Replay.simulate(trace, configuration(capacity), latency: false))]
                }
                let scaled = max(1, Int((Double(capacity) * sampled.rate).rounded()))
                var point = CurvePoint(
                    Replay.simulate(sampled.trace, configuration(scaled), latency: false),
                    method: .sampledSimulation(rate: sampled.rate))
                point.capacity = capacity
                return [sampled.estimate(point, of: trace)]
            }
        }
        return curves.flatMap { $0 }
    }
}

/// The objects whose hashed key falls under a threshold: SHARDS's spatial sampling (Waldspurger,
/// Park, Garthwaite and Ahmad, "Efficient MRC Construction with SHARDS", FAST 2015). Every
/// request of a sampled object is kept, so reuse within the sample is the trace's reuse.
struct SpatialSample: Sendable {
    let rate: Double
    let trace: Trace

    init(_ full: Trace, rate: Double) {
        precondition(rate > 0 && rate <= 1, "a sample rate is in (0, 1]")
        self.rate = rate
        // Keep keys whose 53-bit hash is under rate × 2^53.
        let threshold = UInt64((rate * 9_007_199_254_740_992).rounded(.down))
        var sample = Trace(name: full.name, keyNames: full.keyNames)
        var nextEvent = 0
        for position in 0..<full.count {
            // Events keep their place relative to the sampled requests.
            while nextEvent < full.events.count, full.events[nextEvent].position <= position {
                sample.appendEvent(full.events[nextEvent].kind, time: full.events[nextEvent].time)
                nextEvent += 1
            }
            let key = full.keys[position]
            if Self.hash(key) >> 11 < threshold {
                sample.append(time: full.times[position], key: key, size: full.sizes[position])
            }
        }
        for event in full.events[nextEvent...] { sample.appendEvent(event.kind, time: event.time) }
        trace = sample
    }

    /// SplitMix64's finalizer: spreads consecutive ids over all 64 bits.
    static func hash(_ key: UInt64) -> UInt64 {
        var z = key &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The sampled point's counts scaled to the whole trace, with SHARDS's adjustment: a sample
    /// holds more or fewer requests than `rate` of the trace, mostly because it caught more or
    /// fewer of the few very popular objects, whose requests are nearly all hits. So the
    /// difference from the expected count is counted as hits (at distance 0): without it, a 1 %
    /// sample of a Zipf trace that misses its hottest objects overstates the miss ratio by 0.1–0.2.
    func estimate(_ point: CurvePoint, of full: Trace) -> CurvePoint {
        var bytesRequested = 0
        for size in full.sizes { bytesRequested &+= size }
        func scaled(_ hits: Int, sampled: Int, total: Int) -> Int {
            let expected = Double(total) * rate
            guard expected > 0 else { return 0 }
            let adjusted = Double(hits) + expected - Double(sampled)
            return Int((min(max(adjusted / expected, 0), 1) * Double(total)).rounded())
        }
        var estimate = point
        estimate.trace = full.name
        estimate.requests = full.count
        estimate.bytesRequested = bytesRequested
        estimate.hits = scaled(point.hits, sampled: point.requests, total: full.count)
        estimate.bytesHit = scaled(point.bytesHit, sampled: point.bytesRequested, total: bytesRequested)
        return estimate
    }
}

/// LRU's whole miss-ratio curve from one pass over the trace (Mattson, Gecsei, Slutz and Traiger,
/// "Evaluation techniques for storage hierarchies", IBM Systems Journal, 1970).
///
/// After every request an LRU cache of capacity `C` holds the longest most-recent prefix of the
/// LRU stack whose costs fit in `C`: a hit moves an entry within that prefix, and a miss puts the
/// new entry on top and evicts from the bottom until the total fits. So a request hits exactly
/// when its *demand* — its own cost plus the costs of the distinct objects requested since its
/// previous request — is at most `C`. Demands come from a Fenwick tree over request positions
/// that marks each object's latest request with its cost (see `ReuseProfile`).
///
/// Two rules of the engine keep this exact:
/// - An object costlier than the capacity is refused and never enters the stack. Capacities are
///   taken in groups that refuse the same objects, one pass per group (usually one: most traces'
///   largest object is smaller than the smallest capacity asked for).
/// - A relaunch empties a memory tier: requests after it see no object requested before it.
enum LRUStack {
    /// Whether stack distances give exactly what the engine does: in bytes mode, an entry keeps
    /// the size it was stored with, so every object must have one size.
    static func applies(to trace: Trace, sizeMode: SizeMode) -> Bool {
        guard sizeMode == .bytes else { return true }
        var sizes: [UInt64: Int] = [:]
        for position in 0..<trace.count {
            let size = trace.sizes[position]
            if let known = sizes.updateValue(size, forKey: trace.keys[position]), known != size { return false }
        }
        return true
    }

    /// The curve at `capacities` (ascending, distinct, each ≥ 1). With `scale` < 1 the trace is a
    /// spatial sample of that share of the objects, and the distances between requests are scaled
    /// up by `1 / scale` (SHARDS).
    static func points(
        _ trace: Trace, capacities: [Int], sizeMode: SizeMode, tier: TierKind, scale: Double = 1
    ) -> [CurvePoint] {
        precondition(trace.count < Int(Int32.max), "the stack pass handles fewer than 2^31 requests")
        let (objects, unique) = ReuseProfile.denseIDs(trace.keys)
        // Each object's cost, as the engine charges it (constant per object: `applies(to:)`).
        var costs = [Int](repeating: 0, count: unique)
        for position in 0..<trace.count {
            costs[Int(objects[position])] = sizeMode == .unit ? 1 : trace.sizes[position]
        }
        let resets = tier == .memory ? trace.events.filter { $0.kind == .relaunch }.map(\.position) : []
        let method: CurveMethod = scale < 1 ? .sampledStackDistance(rate: scale) : .stackDistance

        var bytesRequested = 0
        for size in trace.sizes { bytesRequested &+= size }
        var points: [CurvePoint] = []
        var groupStart = 0
        let distinctCosts = Array(Set(costs)).sorted()
        while groupStart < capacities.count {
            // Capacities refusing the same objects: no object's cost lies between them.
            let refusedAbove = capacities[groupStart]
            var groupEnd = groupStart + 1
            let firstCostAbove = distinctCosts.partitioningIndex { $0 > refusedAbove }
            let nextCost = firstCostAbove < distinctCosts.count ? distinctCosts[firstCostAbove] : Int.max
            while groupEnd < capacities.count, capacities[groupEnd] < nextCost { groupEnd += 1 }
            let group = Array(capacities[groupStart..<groupEnd])
            let (hits, bytesHit) = pass(
                trace, objects: objects, costs: costs, refusedAbove: refusedAbove, capacities: group, resets: resets,
                scale: scale)
            for (index, capacity) in group.enumerated() {
                points.append(
                    CurvePoint(
                        trace: trace.name, policy: .lru, capacity: capacity, sizeMode: sizeMode, method: method,
                        requests: trace.count, hits: hits[index], bytesRequested: bytesRequested,
                        bytesHit: bytesHit[index]))
            }
            groupStart = groupEnd
        }
        return points
    }

    /// Hits and bytes hit at each of `capacities`, all of which refuse exactly the objects
    /// costing more than `refusedAbove`.
    ///
    /// - Complexity: O(n log n) for `n` requests, plus O(log k) per hit for `k` capacities.
    private static func pass(
        _ trace: Trace, objects: [Int32], costs: [Int], refusedAbove: Int, capacities: [Int], resets: [Int],
        scale: Double
    ) -> (hits: [Int], bytesHit: [Int]) {
        // Hits whose smallest capacity that holds them is capacities[i], then summed upwards.
        var hitsAt = [Int](repeating: 0, count: capacities.count)
        var bytesAt = [Int](repeating: 0, count: capacities.count)
        var latest = [Int32](repeating: -1, count: costs.count)
        var tree = [Int](repeating: 0, count: trace.count + 1)
        var marked = 0
        var epochStart = 0
        var nextReset = 0
        let largest = capacities[capacities.count - 1]
        for position in 0..<trace.count {
            while nextReset < resets.count, resets[nextReset] <= position {
                epochStart = position
                nextReset += 1
            }
            let object = Int(objects[position])
            let cost = costs[object]
            guard cost <= refusedAbove else { continue }
            let previous = Int(latest[object])
            if previous >= 0 {
                if previous >= epochStart {
                    let between = marked - prefixSum(tree, through: previous + 1)
                    let scaled = scale < 1 ? Int((Double(between) / scale).rounded()) : between
                    let demand = cost &+ scaled
                    if demand <= largest {
                        let index = capacities.partitioningIndex { $0 >= demand }
                        hitsAt[index] &+= 1
                        bytesAt[index] &+= trace.sizes[position]
                    }
                }
                add(&tree, at: previous + 1, -cost)
                marked &-= cost
            }
            add(&tree, at: position + 1, cost)
            marked &+= cost
            latest[object] = Int32(position)
        }
        for index in capacities.indices.dropFirst() {
            hitsAt[index] &+= hitsAt[index - 1]
            bytesAt[index] &+= bytesAt[index - 1]
        }
        return (hitsAt, bytesAt)
    }

    @inline(__always)
    private static func prefixSum(_ tree: [Int], through index: Int) -> Int {
        var sum = 0
        var node = index
        while node > 0 {
            sum &+= tree[node]
            node &= node &- 1
        }
        return sum
    }

    @inline(__always)
    private static func add(_ tree: inout [Int], at index: Int, _ amount: Int) {
        var node = index
        while node < tree.count {
            tree[node] &+= amount
            node &+= node & -node
        }
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
