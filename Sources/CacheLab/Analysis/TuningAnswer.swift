import CacheEngine
import ClientModel

/// One kind of app's answer: the tiers `Tuner` recommends on the kind's traces, the libraries'
/// defaults beside them (each at its own budget, and at the recommended size), and whether the
/// choice of policy matters there.
public struct TuningAnswer: Sendable {
    /// The kind (`AppKind`'s name), or `custom` for traces of one's own.
    public var kind: String
    public var summary: String
    public var recommendation: Tuner.Recommendation
    /// Each trace's working set: every photo once.
    public var workingSets: [Int]
    /// The recommended client, then every preset as its library sizes itself on the device.
    public var atOwnBudget: [ClientSummary]
    /// Every preset with the recommended tiers' capacities: what its policies, lifetimes and
    /// reactions to app events do at the same size.
    public var atRecommendedSize: [ClientSummary]

    public init(
        kind: String, summary: String, recommendation: Tuner.Recommendation, workingSets: [Int],
        atOwnBudget: [ClientSummary], atRecommendedSize: [ClientSummary]
    ) {
        self.kind = kind
        self.summary = summary
        self.recommendation = recommendation
        self.workingSets = workingSets
        self.atOwnBudget = atOwnBudget
        self.atRecommendedSize = atRecommendedSize
    }

    /// Tunes on `sources` and replays the recommendation and the presets (sized for `device`)
    /// beside it; `progress` gets the tuner's stages.
    public static func make(
        kind: String, summary: String, sources: [TraceSource], request: Tuner.Request, device: DeviceProfile,
        workers: Int = ParallelSweep.defaultWorkers,
        progress: (@Sendable (_ stage: String, _ finished: Int, _ total: Int) -> Void)? = nil,
        observer: PlanObserver = PlanObserver()
    ) throws(TraceError) -> TuningAnswer {
        let recommendation = try Tuner.tune(
            sources, request, workers: workers, progress: progress, observer: observer)
        let presets = ClientPreset.allCases.map { $0.configuration(device: device, network: request.network) }
        let memory = recommendation.memory.tier.capacity
        let disk = recommendation.disk.tier.capacity
        let clients =
            [recommendation.client] + presets + presets.map { $0.resized(memory: memory, disk: disk) }
        let summaries = try ClientSummary.summarize(clients, on: sources, workers: workers)
        let workingSets = sources.map { $0.trace.map { TraceStatistics($0).workingSetBytes } ?? 0 }
        return TuningAnswer(
            kind: kind, summary: summary, recommendation: recommendation, workingSets: workingSets,
            atOwnBudget: Array(summaries[...presets.count]), atRecommendedSize: Array(summaries[(presets.count + 1)...])
        )
    }

    /// The recommended client's figures.
    public var recommended: ClientSummary { atOwnBudget[0] }

    /// The disk policies that tie at the recommended capacity: each policy's best lifetime that
    /// downloads at most `bytesMargin` more than the best at that capacity, with a p95 within
    /// `latencyMargin` of the best's; the best first.
    public var diskTies: [Tuner.Candidate] {
        let atCapacity = recommendation.diskAtCapacity
        guard let best = atCapacity.first else { return [] }
        let request = recommendation.request
        return atCapacity.filter {
            Double($0.bytesDownloaded) <= Double(best.bytesDownloaded) * (1 + request.bytesMargin)
                && $0.latencyP95 <= best.latencyP95 + request.latencyMargin + 1e-9
        }
    }

    /// The memory policies that tie at the recommended memory capacity: each leaves at most
    /// `memoryMargin` more requests to the disk and the network than the best at that capacity,
    /// within the disk stage's bounds; the best first.
    public var memoryTies: [Tuner.Candidate] {
        let atCapacity = recommendation.memoryAtCapacity.filter(recommendation.bounds.admits)
        guard let best = atCapacity.first else { return [] }
        let leftOver = (1 - best.memoryShare) * (1 + recommendation.request.memoryMargin)
        return atCapacity.filter { 1 - $0.memoryShare <= leftOver + 1e-12 }
    }

    /// At one disk capacity: the best disk-only client and LRU's (its best lifetime), the policy
    /// every library's disk runs.
    public struct PolicyWorth: Sendable, Equatable {
        public var capacity: Int
        public var best: Tuner.Candidate
        public var lru: Tuner.Candidate

        /// What the best saves of the bytes LRU downloads (0.05: 5 % fewer).
        public var saving: Double {
            lru.bytesDownloaded == 0 ? 0 : 1 - Double(best.bytesDownloaded) / Double(lru.bytesDownloaded)
        }
    }

    /// The best policy against LRU at every disk capacity tried (none when LRU was not tried).
    public var policyWorth: [PolicyWorth] {
        let byCapacity = Dictionary(grouping: recommendation.diskCandidates, by: \.tier.capacity)
        return byCapacity.keys.sorted().compactMap { capacity in
            let candidates = byCapacity[capacity]!
            guard let best = candidates.min(by: Tuner.fewerBytes),
                let lru = candidates.filter({ $0.tier.policy == .lru }).min(by: Tuner.fewerBytes)
            else { return nil }
            return PolicyWorth(capacity: capacity, best: best, lru: lru)
        }
    }

    /// The disk capacities at which the best policy saves at least `bytesMargin` of the bytes
    /// LRU downloads: where the choice of policy is worth making.
    public var policyMatters: [PolicyWorth] {
        let margin = recommendation.request.bytesMargin
        return policyWorth.filter { $0.saving >= margin - 1e-12 }
    }
}
