import CacheEngine
import ClientModel

/// Recommends a client's image-cache defaults by what the app's users pay for a miss: the bytes
/// they download and the time they wait. It picks the smallest disk tier, then the smallest memory
/// tier in front of it, that costs them no more than a margin over the best any candidate within
/// the budgets reaches, summed (bytes) or averaged (p95) over the traces.
///
/// Every candidate is replayed as a client (`Replay.simulate(_:client:)`: relaunches empty memory
/// and rebuild the disk as the real pipeline does), so what is recommended is what the client
/// will do. On a trace held in memory, a disk lifetime that cannot run out within the trace is
/// replayed once, as the same tier without one (`firstEqual`): the figures are the same.
///
/// 1. **Disk.** Each policy × lifetime × capacity up to the disk budget runs as a disk-only
///    client. A candidate passes when it downloads at most `bytesMargin` more than the fewest bytes
///    any candidate downloads (a relative margin: near a hit ratio of 92 %, one point is an eighth
///    of the misses) and its p95 latency is within `latencyMargin` of the lowest. The
///    recommendation is the smallest passing capacity; among those, the fewest bytes, then the
///    lowest p95, then the shorter lifetime, then the name.
/// 2. **Memory.** With that disk tier fixed, each policy × capacity up to the memory budget runs
///    in front of it. A candidate must keep the whole client within the disk stage's bounds (a
///    memory tier changes what reaches the disk); among those, what memory buys is answers
///    without a disk read, so a candidate passes when the share of requests it leaves to the disk
///    and the network is at most `memoryMargin` more than the best memory tier leaves. The
///    smallest passing capacity is picked; ties go to the larger share, then fewer bytes, then
///    the lower p95, then the name.
public enum Tuner {
    public struct Request: Sendable {
        public var memoryBudget: Int
        public var diskBudget: Int
        /// How many more bytes than the fewest any candidate downloads a pick may cost, as a share
        /// of them (0.05: 5 % more).
        public var bytesMargin: Double
        /// How far above the lowest p95 latency any candidate reaches a pick's may be, in ms.
        public var latencyMargin: Double
        /// How large a share of the requests a memory tier may leave to the disk and the network,
        /// relative to what the best memory tier leaves (0.05: 5 % more).
        public var memoryMargin: Double
        public var policies: [PolicyKind]
        /// Disk lifetimes to try (ms); nil is none. Memory tiers get none: a relaunch empties them.
        public var diskTTLs: [Int64?]
        public var network: NetworkProfile
        /// The smallest capacities tried (a point of the grid `capacities(upTo:from:)` walks):
        /// a tier that cannot hold a few of the app's images is no candidate.
        public var smallestDisk: Int
        public var smallestMemory: Int

        public init(
            memoryBudget: Int, diskBudget: Int, bytesMargin: Double = 0.05, latencyMargin: Double = 0.5,
            memoryMargin: Double = 0.05,
            policies: [PolicyKind] = PolicyKind.online.filter { $0 != .ttl },
            diskTTLs: [Int64?] = [nil, 86_400_000, 7 * 86_400_000, 30 * 86_400_000], network: NetworkProfile = .wifi,
            smallestDisk: Int = Tuner.smallestCapacity, smallestMemory: Int = Tuner.smallestCapacity
        ) {
            self.memoryBudget = memoryBudget
            self.diskBudget = diskBudget
            self.bytesMargin = bytesMargin
            self.latencyMargin = latencyMargin
            self.memoryMargin = memoryMargin
            self.policies = policies.filter { !$0.needsFuture }
            self.diskTTLs = diskTTLs.isEmpty ? [nil] : diskTTLs
            self.network = network
            self.smallestDisk = smallestDisk
            self.smallestMemory = smallestMemory
        }
    }

    /// One candidate tier and how its client did: ratios and latency averaged over the traces,
    /// bytes summed.
    public struct Candidate: Sendable, Equatable {
        public var tier: TierConfiguration
        public var hitRatio: Double
        public var byteHitRatio: Double
        /// The share of requests the memory tier served (0 for a disk-only client).
        public var memoryShare: Double
        public var latencyP95: Double
        public var bytesDownloaded: Int
    }

    /// What a client may cost its users and still pass: the disk stage's best plus the margins.
    public struct Bounds: Sendable, Equatable {
        /// The fewest bytes any disk candidate downloads, and the lowest p95 any reaches (ms).
        public var fewestBytes: Int
        public var lowestP95: Double
        /// The most a passing client may download, and its highest p95 (ms).
        public var bytes: Int
        public var p95: Double

        func admits(_ candidate: Candidate) -> Bool {
            candidate.bytesDownloaded <= bytes && candidate.latencyP95 <= p95 + 1e-9
        }
    }

    /// What the tuner recommends, and the evidence.
    public struct Recommendation: Sendable, Equatable {
        public var request: Request.Summary
        public var traces: [String]
        public var disk: Candidate
        public var memory: Candidate
        /// What the picks were held to.
        public var bounds: Bounds
        /// The best disk candidate (fewest bytes) and the best memory candidate (largest share
        /// served, within `bounds`): what the margins are measured from.
        public var bestDisk: Candidate
        public var bestMemory: Candidate
        /// The curves the picks were made from: the best candidate at each capacity tried.
        public var diskCurve: [Candidate]
        public var memoryCurve: [Candidate]
        /// The best candidate of each disk policy (any lifetime) at the recommended disk capacity.
        public var diskAtCapacity: [Candidate]
        /// The best memory candidate of each policy at the recommended memory capacity.
        public var memoryAtCapacity: [Candidate]
        /// Every candidate of each stage (the memory stage's, in front of the chosen disk).
        public var diskCandidates: [Candidate]
        public var memoryCandidates: [Candidate]
        /// The recommended client, ready to use.
        public var client: ClientConfiguration
    }

    /// Where the grid of capacities starts.
    public static let smallestCapacity = 32 * 1024

    /// The capacities tried: 1, 1.5, 2, 3, 4, 6 … × 32 KiB, from `smallest` up to and including
    /// `budget`.
    public static func capacities(upTo budget: Int, from smallest: Int = smallestCapacity) -> [Int] {
        var result: [Int] = []
        var base = smallestCapacity
        while base <= budget {
            result.append(base)
            if base + base / 2 <= budget { result.append(base + base / 2) }
            base *= 2
        }
        if result.last != budget { result.append(budget) }
        return result.filter { $0 >= max(smallest, 1) || $0 == budget }
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
        for capacity in capacities(upTo: request.diskBudget, from: request.smallestDisk) {
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
            sources, workers: workers, progress: { progress?("disk", $0, $1) }, observer: observer)
        let bounds = bounds(diskCandidates, request)
        let (disk, bestDisk) = pickDisk(diskCandidates, within: bounds)

        // Stage 2: memory tiers in front of the chosen disk.
        var memoryTiers: [TierConfiguration] = []
        for capacity in capacities(upTo: request.memoryBudget, from: request.smallestMemory) {
            for policy in request.policies where policy != .size {
                memoryTiers.append(TierConfiguration(policy: policy, capacity: capacity))
            }
        }
        let memoryCandidates = try evaluate(
            memoryTiers.map {
                ($0, ClientConfiguration(name: "memory", memory: $0, disk: disk.tier, network: request.network))
            },
            sources, workers: workers, progress: { progress?("memory", $0, $1) }, observer: observer)
        let (memory, bestMemory) = pickMemory(memoryCandidates, within: bounds, margin: request.memoryMargin)

        return Recommendation(
            request: request.summary, traces: sources.map(\.name), disk: disk, memory: memory, bounds: bounds,
            bestDisk: bestDisk, bestMemory: bestMemory,
            diskCurve: curve(diskCandidates, by: fewerBytes),
            memoryCurve: curve(memoryCandidates.filter(bounds.admits), by: moreFromMemory),
            diskAtCapacity: bestPerPolicy(diskCandidates, capacity: disk.tier.capacity, by: fewerBytes),
            memoryAtCapacity: bestPerPolicy(memoryCandidates, capacity: memory.tier.capacity, by: moreFromMemory),
            diskCandidates: diskCandidates, memoryCandidates: memoryCandidates,
            client: ClientConfiguration(
                name: "recommended", memory: memory.tier, disk: disk.tier, network: request.network))
    }

    /// Each tier's client replayed on every trace, in parallel: ratios and p95 averaged, bytes
    /// summed. On a trace held in memory, clients that can only replay alike (`firstEqual`) are
    /// replayed once, the others given its result.
    private static func evaluate(
        _ tiers: [(tier: TierConfiguration, client: ClientConfiguration)], _ sources: [TraceSource],
        workers: Int, progress: @escaping @Sendable (Int, Int) -> Void,
        observer: PlanObserver
    ) throws(TraceError) -> [Candidate] {
        let clients = tiers.map(\.client)
        var byTrace: [[RunResult]] = []
        for source in sources {
            let first = firstEqual(clients, span: source.trace.map(span))
            let replayed = clients.indices.filter { first[$0] == $0 }
            let outputs = try RunPlan(source: source, cells: replayed.map { .client(clients[$0]) })
                .execute(workers: workers, observer: observer).outputs
            var results = [RunResult?](repeating: nil, count: clients.count)
            for (position, index) in replayed.enumerated() { results[index] = outputs[position].run }
            byTrace.append(first.map { results[$0]! })
            progress(byTrace.count * clients.count, sources.count * clients.count)
        }
        let count = Double(sources.count)
        return tiers.indices.map { index in
            let mine = byTrace.map { $0[index] }
            return Candidate(
                tier: tiers[index].tier,
                hitRatio: mine.map(\.hitRatio).reduce(0, +) / count,
                byteHitRatio: mine.map(\.byteHitRatio).reduce(0, +) / count,
                memoryShare: mine.map { $0.requests == 0 ? 0 : Double($0.memoryHits) / Double($0.requests) }
                    .reduce(0, +) / count,
                latencyP95: mine.map { $0.latency?.p95 ?? 0 }.reduce(0, +) / count,
                bytesDownloaded: mine.map(\.bytesDownloaded).reduce(0, +))
        }
    }

    /// Trace time from the first request to the last request or event, in milliseconds.
    static func span(_ trace: Trace) -> Int64 {
        guard let start = trace.times.min(), let end = trace.times.max() else { return 0 }
        return max(end, trace.events.map(\.time).max() ?? end) - start
    }

    /// Trace time past `span` within which a request's download may still end (and its image be
    /// stored): far above any network profile's slowest photo.
    static let downloadSlack: Int64 = 3_600_000

    /// For each client, the index of the first client that replays exactly alike on a trace of
    /// `span` milliseconds (itself when none does; each itself when the span is unknown). A
    /// lifetime longer than the span and `downloadSlack` cannot run out within the trace, so a
    /// tier with it replays as the same tier with none: the same hits, bytes and latencies.
    static func firstEqual(_ clients: [ClientConfiguration], span: Int64?) -> [Int] {
        guard let span else { return Array(clients.indices) }
        func effective(_ tier: TierConfiguration?) -> TierConfiguration? {
            guard var tier, let ttl = tier.ttl, ttl > span + downloadSlack else { return tier }
            tier.ttl = nil
            tier.ttlMode = .fixed
            return tier
        }
        var effectiveClients: [ClientConfiguration] = []
        var byTiers: [String: [Int]] = [:]
        var first: [Int] = []
        for (index, client) in clients.enumerated() {
            var alike = client
            alike.memory = effective(client.memory)
            alike.disk = effective(client.disk)
            effectiveClients.append(alike)
            // Only clients of the same policies and capacities can be alike: compared within those.
            let group = [client.memory, client.disk].map { "\($0?.policy.rawValue ?? "-") \($0?.capacity ?? 0)" }
                .joined(separator: " ")
            if let match = byTiers[group]?.first(where: { effectiveClients[$0] == alike }) {
                first.append(match)
            } else {
                first.append(index)
                byTiers[group, default: []].append(index)
            }
        }
        return first
    }

    /// The disk stage's best bytes and p95, and the most a passing client may cost.
    static func bounds(_ candidates: [Candidate], _ request: Request) -> Bounds {
        let fewestBytes = candidates.map(\.bytesDownloaded).min()!
        let lowestP95 = candidates.map(\.latencyP95).min()!
        return Bounds(
            fewestBytes: fewestBytes, lowestP95: lowestP95,
            bytes: Int((Double(fewestBytes) * (1 + request.bytesMargin)).rounded(.down)),
            p95: lowestP95 + request.latencyMargin)
    }

    /// The recommended disk and the best one: the smallest capacity within `bounds`, ties to fewer
    /// bytes; the best is the one that downloads the fewest bytes.
    static func pickDisk(_ candidates: [Candidate], within bounds: Bounds) -> (pick: Candidate, best: Candidate) {
        let best = candidates.min(by: fewerBytes)!
        return (smallest(candidates.filter(bounds.admits), by: fewerBytes) ?? best, best)
    }

    /// The recommended memory tier and the best one: among the candidates that keep the client
    /// within `bounds`, the smallest capacity that leaves at most `margin` more requests to the
    /// disk and the network than the best does, ties to the larger share served. If no memory tier
    /// keeps the client within bounds, the one that downloads the fewest bytes.
    static func pickMemory(
        _ candidates: [Candidate], within bounds: Bounds, margin: Double
    ) -> (pick: Candidate, best: Candidate) {
        let admitted = candidates.filter(bounds.admits)
        guard let best = admitted.min(by: moreFromMemory) else {
            let fewest = candidates.min(by: fewerBytes)!
            return (fewest, fewest)
        }
        let leftOver = (1 - best.memoryShare) * (1 + margin)
        let passing = admitted.filter { 1 - $0.memoryShare <= leftOver + 1e-12 }
        return (smallest(passing, by: moreFromMemory)!, best)
    }

    /// The candidate of the smallest capacity, ties broken by `better`.
    private static func smallest(_ candidates: [Candidate], by better: (Candidate, Candidate) -> Bool) -> Candidate? {
        guard let capacity = candidates.map(\.tier.capacity).min() else { return nil }
        return candidates.filter { $0.tier.capacity == capacity }.min(by: better)
    }

    /// The disk order: fewer bytes downloaded, then the lower p95, then the common tail.
    static func fewerBytes(_ a: Candidate, _ b: Candidate) -> Bool {
        if a.bytesDownloaded != b.bytesDownloaded { return a.bytesDownloaded < b.bytesDownloaded }
        if a.latencyP95 != b.latencyP95 { return a.latencyP95 < b.latencyP95 }
        return breaksTie(a, b)
    }

    /// The memory order: the larger share served from memory, then fewer bytes, then the lower p95,
    /// then the common tail.
    static func moreFromMemory(_ a: Candidate, _ b: Candidate) -> Bool {
        if a.memoryShare != b.memoryShare { return a.memoryShare > b.memoryShare }
        return fewerBytes(a, b)
    }

    /// The tail of both orders: the smaller capacity, the shorter lifetime (a lifetime that never
    /// fires bounds staleness for free), the name.
    private static func breaksTie(_ a: Candidate, _ b: Candidate) -> Bool {
        if a.tier.capacity != b.tier.capacity { return a.tier.capacity < b.tier.capacity }
        if (a.tier.ttl ?? .max) != (b.tier.ttl ?? .max) { return (a.tier.ttl ?? .max) < (b.tier.ttl ?? .max) }
        return a.tier.policy.rawValue < b.tier.policy.rawValue
    }

    /// The best candidate at each capacity, smallest capacity first.
    private static func curve(_ candidates: [Candidate], by better: (Candidate, Candidate) -> Bool) -> [Candidate] {
        Dictionary(grouping: candidates, by: \.tier.capacity).values
            .map { $0.min(by: better)! }
            .sorted { $0.tier.capacity < $1.tier.capacity }
    }

    /// Each policy's best (lifetime) at `capacity`, best first.
    static func bestPerPolicy(
        _ candidates: [Candidate], capacity: Int, by better: (Candidate, Candidate) -> Bool
    ) -> [Candidate] {
        Dictionary(grouping: candidates.filter { $0.tier.capacity == capacity }, by: \.tier.policy).values
            .map { $0.min(by: better)! }
            .sorted(by: better)
    }
}

extension Tuner.Request {
    /// The request's numbers, for the report.
    public struct Summary: Sendable, Equatable {
        public var memoryBudget: Int
        public var diskBudget: Int
        public var bytesMargin: Double
        public var latencyMargin: Double
        public var memoryMargin: Double
        public var policies: [PolicyKind]
        public var diskTTLs: [Int64?]
        public var network: NetworkProfile
        public var smallestDisk: Int
        public var smallestMemory: Int
    }

    var summary: Summary {
        Summary(
            memoryBudget: memoryBudget, diskBudget: diskBudget, bytesMargin: bytesMargin,
            latencyMargin: latencyMargin, memoryMargin: memoryMargin, policies: policies, diskTTLs: diskTTLs,
            network: network, smallestDisk: smallestDisk, smallestMemory: smallestMemory)
    }
}
