import CacheEngine
import ClientModel

/// What one run measured: one row of a report.
public struct RunResult: Sendable, Equatable, Codable {
    public var trace: String
    /// What ran, for the `policy` column: the policy's name, or the client preset's.
    public var label: String
    public var configuration: RunConfiguration
    /// The limits actually enforced (policy defaults filled in).
    public var cache: CacheConfiguration
    public var requests = 0
    public var hits = 0
    public var misses = 0
    /// Sum of every request's own size.
    public var bytesRequested = 0
    /// Sum of the sizes of the requests that hit.
    public var bytesHit = 0
    /// Bytes fetched from the origin (every miss downloads its object).
    public var bytesDownloaded = 0
    public var evictions = 0
    public var expirations = 0
    /// Misses the admission filter refused (all tiers of a client), stored nowhere.
    public var notAdmitted = 0
    /// App relaunches replayed (a memory tier is emptied by each).
    public var relaunches = 0
    /// Hits served by the memory tier and by the disk tier (`hits` is their sum). A single-tier
    /// run counts its hits in its own tier.
    public var memoryHits = 0
    public var diskHits = 0
    /// Every request's latency: modelled by the simulator, measured by a live run (`nil` when the
    /// run did not model it, `--no-latency`).
    public var latency: LatencySummary?
    /// What ran and how, with what only that kind of run measures.
    public var kind: Kind
    /// With `--vs-opt`: the hits of Belady's optimum on the same trace, capacity, size mode and
    /// tier, set when a report is arranged (`arranged`); `nil` when not asked.
    public var optimalHits: Int?

    public init(trace: String, configuration: RunConfiguration) {
        self.trace = trace
        self.label = configuration.policy.rawValue
        self.configuration = configuration
        self.cache = configuration.cacheConfiguration
        self.kind = .tier(TierMeasurements())
    }

    /// A client run: the columns of the single-tier report describe its disk tier (or its memory
    /// tier when it has no disk).
    public init(trace: String, client: ClientConfiguration) {
        let main = client.disk ?? client.memory!
        self.trace = trace
        self.label = client.name
        self.kind = .client(ClientMeasurements(configuration: client))
        self.configuration = RunConfiguration(
            policy: main.policy, capacity: main.capacity, sizeMode: client.sizeMode, ttl: main.ttl,
            ttlMode: main.ttlMode, trimRatio: main.trimRatio, network: client.network,
            tier: client.disk == nil ? .memory : .disk, admission: main.admission)
        self.cache = configuration.cacheConfiguration
    }

    /// Requests that waited for a download another request had started: a client's
    /// (`ClientMeasurements.delayedHits`), none for a single tier. Every request is a hit, a
    /// miss or one of these.
    public var delayedHits: Int { client?.delayedHits ?? 0 }

    public var hitRatio: Double { requests == 0 ? 0 : Double(hits) / Double(requests) }
    public var missRatio: Double { requests == 0 ? 0 : Double(misses) / Double(requests) }
    public var byteHitRatio: Double {
        bytesRequested == 0 ? 0 : Double(bytesHit) / Double(bytesRequested)
    }
    /// This run's hit ratio ÷ the optimum's (`optimalHits`); 1 when neither hit anything. Above 1
    /// is possible in byte mode, where Belady's rule is not optimal for objects of unequal size.
    public var optRatio: Double? {
        guard let optimalHits else { return nil }
        if optimalHits == 0 { return hits == 0 ? 1 : nil }
        return Double(hits) / Double(optimalHits)
    }
    /// Bytes the cache kept off the network.
    public var bytesSaved: Int { bytesRequested - bytesDownloaded }

    /// The admission filters, as `--admission` names them: the run's, or each tier's of a client
    /// (`memory:bloom disk:adaptsize`); empty when none.
    public var admissionLabel: String {
        guard let client else { return configuration.admission?.description ?? "" }
        return [("memory", client.memory), ("disk", client.disk)].compactMap { name, tier in
            tier?.admission.map { "\(name):\($0)" }
        }.joined(separator: " ")
    }
}

extension RunResult {
    /// Where a run sits in a report: its trace, its capacity's slot (slots numbered in the order
    /// the capacities were asked), and whether it is Belady's optimum at that slot's capacity.
    public struct Placement: Sendable, Equatable {
        public var trace: Int
        public var slot: Int
        public var isOptimum: Bool

        public init(trace: Int = 0, slot: Int, isOptimum: Bool = false) {
            self.trace = trace
            self.slot = slot
            self.isOptimum = isOptimum
        }
    }

    /// Runs in report order, from runs in cell order: grouped by trace and slot in the order first
    /// met; with `sortsCapacities`, slots ascending by capacity, and a slot whose capacity an
    /// earlier slot of the same trace had is left out; each run given its slot's optimum hits. The
    /// optimum's own run is a row only with `listsOptimum` (a comparison lists it).
    public static func arranged(
        _ runs: [RunResult], placed placements: [Placement], sortsCapacities: Bool, listsOptimum: Bool
    ) -> [RunResult] {
        precondition(runs.count == placements.count, "one placement per run")
        struct Slot {
            var trace: Int
            var capacity: Int
            var runs: [Int]
        }
        var slots: [Slot] = []
        var slotOf: [Int: [Int: Int]] = [:]
        for (index, placement) in placements.enumerated() {
            if let found = slotOf[placement.trace]?[placement.slot] {
                slots[found].runs.append(index)
            } else {
                slotOf[placement.trace, default: [:]][placement.slot] = slots.count
                slots.append(Slot(trace: placement.trace, capacity: runs[index].cache.capacity, runs: [index]))
            }
        }
        if sortsCapacities {
            slots = slots.enumerated().sorted { a, b in
                (a.element.trace, a.element.capacity, a.offset) < (b.element.trace, b.element.capacity, b.offset)
            }.map(\.element)
            var seen = Set<[Int]>()
            slots = slots.filter { seen.insert([$0.trace, $0.capacity]).inserted }
        }
        var arranged: [RunResult] = []
        for slot in slots {
            let optimum = slot.runs.first { placements[$0].isOptimum }.map { runs[$0].hits }
            for index in slot.runs where listsOptimum || !placements[index].isOptimum {
                var result = runs[index]
                result.optimalHits = optimum
                arranged.append(result)
            }
        }
        return arranged
    }
}
