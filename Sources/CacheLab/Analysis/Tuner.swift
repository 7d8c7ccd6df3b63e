import CacheEngine
import ClientModel

/// Recommends a client's image-cache defaults: the smallest disk tier, then the smallest memory
/// tier in front of it, whose policy (and lifetime) comes within a margin of the best any
/// candidate reaches within the budget, averaged over the traces.
///
/// Every candidate is replayed as a client (`Replay.simulate(_:client:)`: relaunches empty memory
/// and rebuild the disk as the real pipeline does), so what is recommended is what the client
/// will do.
///
/// 1. **Disk.** Each policy × lifetime × capacity up to the disk budget runs as a disk-only
///    client. The best is the highest mean hit ratio over the traces at any capacity in the
///    budget. The recommendation is the smallest capacity at which some candidate comes within
///    `margin` of it; among those, the highest mean byte hit ratio (bytes saved), then the lowest
///    mean p95 latency, then the name.
/// 2. **Memory.** With that disk tier fixed, each policy × capacity up to the memory budget runs
///    in front of it. The measure is the share of requests memory serves (the fastest answers);
///    the same rule picks the smallest capacity within `margin` of the best, ties by overall
///    byte hit ratio, then p95.
public enum Tuner {
    public struct Request: Sendable {
        public var memoryBudget: Int
        public var diskBudget: Int
        /// How far below the best a recommendation may be, in hit-ratio points (0.01 = 1 point).
        public var margin: Double
        public var policies: [PolicyKind]
        /// Disk lifetimes to try (ms); nil is none. Memory tiers get none: a relaunch empties them.
        public var diskTTLs: [Int64?]
        public var network: NetworkProfile

        public init(
            memoryBudget: Int, diskBudget: Int, margin: Double = 0.01,
            policies: [PolicyKind] = PolicyKind.online.filter { $0 != .ttl },
            diskTTLs: [Int64?] = [nil, 86_400_000, 7 * 86_400_000, 30 * 86_400_000], network: NetworkProfile = .wifi
        ) {
            self.memoryBudget = memoryBudget
            self.diskBudget = diskBudget
            self.margin = margin
            self.policies = policies.filter { !$0.needsFuture }
            self.diskTTLs = diskTTLs.isEmpty ? [nil] : diskTTLs
            self.network = network
        }
    }

    /// One candidate tier and how it did, averaged over the traces.
    public struct Candidate: Sendable, Equatable {
        public var tier: TierConfiguration
        /// Disk stage: the hit ratio; memory stage: the share of requests memory served.
        public var score: Double
        public var hitRatio: Double
        public var byteHitRatio: Double
        public var latencyP95: Double
        public var bytesDownloaded: Int
    }

    /// What the tuner recommends, and the evidence.
    public struct Recommendation: Sendable, Equatable {
        public var request: Request.Summary
        public var traces: [String]
        public var disk: Candidate
        public var memory: Candidate
        /// The best disk and memory candidates within the budgets (what `margin` is measured from).
        public var bestDisk: Candidate
        public var bestMemory: Candidate
        /// The best candidate of each disk policy (any lifetime) at the recommended disk capacity.
        public var diskAtCapacity: [Candidate]
        /// The best memory candidate of each policy at the recommended memory capacity.
        public var memoryAtCapacity: [Candidate]
        /// The recommended client, ready to use.
        public var client: ClientConfiguration
    }

    /// The capacities tried: 1, 1.5, 2, 3, 4, 6 … × 32 KiB, up to and including `budget`.
    public static func capacities(upTo budget: Int) -> [Int] {
        var result: [Int] = []
        var base = 32 * 1024
        while base <= budget {
            result.append(base)
            if base + base / 2 <= budget { result.append(base + base / 2) }
            base *= 2
        }
        if result.last != budget { result.append(budget) }
        return result.filter { $0 >= 1 }
    }

    /// Tunes on `traces`, held in memory; `progress` gets runs finished and runs in all for each
    /// stage.
    public static func tune(
        _ traces: [Trace], _ request: Request, workers: Int = ParallelSweep.defaultWorkers,
        progress: (@Sendable (_ stage: String, _ finished: Int, _ total: Int) -> Void)? = nil
    ) -> Recommendation {
        // Traces in memory cannot fail to read.
        try! tune(traces.map { TraceSource($0) }, request, workers: workers, progress: progress)
    }

    /// Tunes on the traces `sources` read, each read once per stage: every candidate of a stage
    /// is a cell of one plan per trace.
    public static func tune(
        _ sources: [TraceSource], _ request: Request, workers: Int = ParallelSweep.defaultWorkers,
        progress: (@Sendable (_ stage: String, _ finished: Int, _ total: Int) -> Void)? = nil,
        observer: PlanObserver = PlanObserver()
    ) throws(TraceError) -> Recommendation {
        precondition(!sources.isEmpty && !request.policies.isEmpty, "Tuner: traces and policies to tune")
        // Stage 1: disk-only clients.
        var diskTiers: [TierConfiguration] = []
        for capacity in capacities(upTo: request.diskBudget) {
            for policy in request.policies {
                for ttl in request.diskTTLs {
                    // A tier without a lifetime has no lifetime mode: `.fixed`, the default.
                    diskTiers.append(
                        TierConfiguration(
                            policy: policy, capacity: capacity, ttl: ttl, ttlMode: ttl == nil ? .fixed : .sliding))
                }
            }
        }
        let diskCandidates = try evaluate(
            diskTiers.map { ($0, ClientConfiguration(name: "disk", memory: nil, disk: $0, network: request.network)) },
            sources, workers: workers, progress: { progress?("disk", $0, $1) }, observer: observer
        ) { run in run.hitRatio }
        let (disk, bestDisk) = pick(diskCandidates, margin: request.margin)

        // Stage 2: memory tiers in front of the chosen disk.
        var memoryTiers: [TierConfiguration] = []
        for capacity in capacities(upTo: request.memoryBudget) {
            for policy in request.policies where policy != .size {
                memoryTiers.append(TierConfiguration(policy: policy, capacity: capacity))
            }
        }
        let memoryCandidates = try evaluate(
            memoryTiers.map {
                ($0, ClientConfiguration(name: "memory", memory: $0, disk: disk.tier, network: request.network))
            },
            sources, workers: workers, progress: { progress?("memory", $0, $1) }, observer: observer
        ) { run in run.requests == 0 ? 0 : Double(run.memoryHits) / Double(run.requests) }
        let (memory, bestMemory) = pick(memoryCandidates, margin: request.margin)

        return Recommendation(
            request: request.summary, traces: sources.map(\.name), disk: disk, memory: memory, bestDisk: bestDisk,
            bestMemory: bestMemory, diskAtCapacity: bestPerPolicy(diskCandidates, capacity: disk.tier.capacity),
            memoryAtCapacity: bestPerPolicy(memoryCandidates, capacity: memory.tier.capacity),
            client: ClientConfiguration(
                name: "recommended", memory: memory.tier, disk: disk.tier, network: request.network))
    }

    /// Each tier's client replayed on every trace and averaged, in parallel; `score` says what
    /// counts.
    private static func evaluate(
        _ tiers: [(tier: TierConfiguration, client: ClientConfiguration)], _ sources: [TraceSource],
        workers: Int, progress: @escaping @Sendable (Int, Int) -> Void,
        observer: PlanObserver, score: @escaping @Sendable (RunResult) -> Double
    ) throws(TraceError) -> [Candidate] {
        let byTrace = try RunPlan.execute(
            tiers.map { .client($0.client) }, on: sources, workers: workers, progress: progress,
            observer: observer)
        let count = Double(sources.count)
        return tiers.indices.map { index in
            let mine = byTrace.map { $0[index].run }
            return Candidate(
                tier: tiers[index].tier,
                score: mine.map(score).reduce(0, +) / count,
                hitRatio: mine.map(\.hitRatio).reduce(0, +) / count,
                byteHitRatio: mine.map(\.byteHitRatio).reduce(0, +) / count,
                latencyP95: mine.map(\.latency.p95).reduce(0, +) / count,
                bytesDownloaded: mine.map(\.bytesDownloaded).reduce(0, +))
        }
    }

    /// The recommended candidate and the best one: the smallest capacity within `margin` of the
    /// best score, ties broken by `breaksTie`.
    static func pick(_ candidates: [Candidate], margin: Double) -> (pick: Candidate, best: Candidate) {
        let best = candidates.max { a, b in
            a.score != b.score ? a.score < b.score : a.tier.capacity > b.tier.capacity
        }!
        let passing = candidates.filter { $0.score >= best.score - margin - 1e-12 }
        let smallest = passing.map(\.tier.capacity).min()!
        let pick = passing.filter { $0.tier.capacity == smallest }.min(by: breaksTie)!
        return (pick, best)
    }

    /// The tie order among candidates close enough to count as equal: the higher byte hit ratio,
    /// the lower p95, the shorter lifetime (a lifetime that never fires bounds staleness for
    /// free), the name.
    private static func breaksTie(_ a: Candidate, _ b: Candidate) -> Bool {
        if a.byteHitRatio != b.byteHitRatio { return a.byteHitRatio > b.byteHitRatio }
        if a.latencyP95 != b.latencyP95 { return a.latencyP95 < b.latencyP95 }
        if (a.tier.ttl ?? .max) != (b.tier.ttl ?? .max) { return (a.tier.ttl ?? .max) < (b.tier.ttl ?? .max) }
        return a.tier.policy.rawValue < b.tier.policy.rawValue
    }

    /// Each policy's best lifetime at `capacity`: the highest score, ties as `pick` breaks them.
    private static func bestPerPolicy(_ candidates: [Candidate], capacity: Int) -> [Candidate] {
        var best: [PolicyKind: Candidate] = [:]
        for candidate in candidates where candidate.tier.capacity == capacity {
            if let current = best[candidate.tier.policy],
                current.score > candidate.score || (current.score == candidate.score && !breaksTie(candidate, current))
            {
                continue
            }
            best[candidate.tier.policy] = candidate
        }
        return best.values.sorted { a, b in
            a.score != b.score ? a.score > b.score : a.tier.policy.rawValue < b.tier.policy.rawValue
        }
    }
}

extension Tuner.Request {
    /// The request's numbers, for the report.
    public struct Summary: Sendable, Equatable {
        public var memoryBudget: Int
        public var diskBudget: Int
        public var margin: Double
        public var policies: [PolicyKind]
        public var diskTTLs: [Int64?]
    }

    var summary: Summary {
        Summary(
            memoryBudget: memoryBudget, diskBudget: diskBudget, margin: margin, policies: policies, diskTTLs: diskTTLs)
    }
}
