import CacheEngine
import ClientModel

/// A comparison: every policy at every capacity (and lifetime) on every trace, each run also
/// measured against Belady's offline optimum at the same capacity, all in parallel.
///
/// The runs are ordinary simulated replays (`Replay.simulate`, modelled latency included), so a
/// row of a comparison equals `cachelab run` with the same options; Belady runs once per trace and
/// capacity and is both a row of its own (the ceiling) and the denominator of every other row's
/// `optRatio`.
public enum Comparison {
    /// What to compare on each trace.
    public struct Request: Sendable {
        /// Policies to rank (Belady, the reference, runs whether listed or not).
        public var policies: [PolicyKind]
        /// Entry lifetimes in milliseconds of trace time; `nil` in the list runs the policy's
        /// default (no expiry except for `ttl`).
        public var ttls: [Int64?]
        public var ttlMode: TTLMode
        public var sizeMode: SizeMode
        public var tier: TierKind
        public var network: NetworkProfile
        /// Admission filters in front of each policy; `nil` in the list runs it without one.
        /// Belady, the ceiling, runs without one.
        public var admissions: [AdmissionFilter?]

        public init(
            policies: [PolicyKind], ttls: [Int64?] = [nil], ttlMode: TTLMode = .fixed, sizeMode: SizeMode = .bytes,
            tier: TierKind = .disk, network: NetworkProfile = .wifi, admissions: [AdmissionFilter?] = [nil]
        ) {
            self.policies = policies.filter { !$0.needsFuture }
            self.ttls = ttls.isEmpty ? [nil] : ttls
            self.admissions = admissions.isEmpty ? [nil] : admissions
            self.ttlMode = ttlMode
            self.sizeMode = sizeMode
            self.tier = tier
            self.network = network
        }
    }

    /// One trace and the capacities to run it at.
    public struct Subject: Sendable {
        public var source: TraceSource
        public var capacities: CapacityList

        public init(source: TraceSource, capacities: CapacityList) {
            self.source = source
            self.capacities = capacities
        }

        /// Capacities in bytes, or objects in unit mode; each ≥ 1.
        public init(source: TraceSource, capacities: [Int]) {
            self.init(source: source, capacities: .list(capacities.map(CapacitySpec.absolute)))
        }

        public init(trace: Trace, capacities: [Int]) {
            self.init(source: TraceSource(trace), capacities: capacities)
        }
    }

    /// The runs of `request` on each subject, in a stable order (trace, capacity ascending, then
    /// Belady and each policy × lifetime as asked), each with `optimalHits` set. Each trace is
    /// read once: every run on it is a cell of one plan.
    ///
    /// - Parameters:
    ///   - subjects: the traces and the capacities to run each at.
    ///   - request: the policies, lifetimes, admission filters and limits.
    ///   - workers: cores replaying at once.
    ///   - observer: hears each plan's progress through its trace, and its timing.
    public static func run(
        _ subjects: [Subject], _ request: Request, workers: Int = ParallelSweep.defaultWorkers,
        observer: PlanObserver = PlanObserver()
    ) throws -> [RunResult] {
        let plan = try sweep(subjects, request, command: "")
        return plan.manifest.runs(try plan.outputs(workers: workers, observer: observer))
    }

    /// The comparison as a sweep (`cachelab compare`, on one machine or in shards): on each
    /// trace, at each capacity, Belady (the ceiling) then each policy at each lifetime.
    ///
    /// - Parameters:
    ///   - subjects: the traces and the capacities to run each at.
    ///   - request: the policies, lifetimes, admission filters and limits.
    ///   - command: the command line the report quotes.
    public static func sweep(_ subjects: [Subject], _ request: Request, command: String) throws(TraceError) -> SweepPlan
    {
        var cells: [SweepCell] = []
        for (trace, subject) in subjects.enumerated() {
            for slot in 0..<subject.capacities.count {
                let capacity = subject.capacities.key(slot)
                func cell(
                    _ policy: PolicyKind, ttl: Int64?, admission: AdmissionFilter? = nil, role: SweepManifest.Entry.Role
                ) -> SweepCell {
                    let configuration = RunConfiguration(
                        policy: policy, capacity: 0, sizeMode: request.sizeMode, ttl: ttl, ttlMode: request.ttlMode,
                        network: request.network, tier: request.tier, admission: admission)
                    let entry = SweepManifest.Entry(
                        trace: trace, slot: slot, role: role,
                        key: SweepCell.key(configuration, capacity: capacity, latency: true))
                    return .simulate(
                        configuration, capacities: subject.capacities, index: slot, latency: true, entry: entry)
                }
                cells.append(cell(.belady, ttl: nil, role: .optimum))
                for policy in request.policies {
                    for ttl in request.ttls {
                        for admission in request.admissions {
                            cells.append(cell(policy, ttl: ttl, admission: admission, role: .run))
                        }
                    }
                }
            }
        }
        return try SweepPlan(
            kind: .compare, command: command, sortsCapacities: true, sources: subjects.map(\.source), cells: cells)
    }

    /// One policy (at one lifetime) on one trace, summed up over the capacities it ran at.
    public struct Standing: Sendable, Equatable {
        public var policy: PolicyKind
        public var ttl: Int64?
        public var admission: AdmissionFilter?
        /// The mean over capacities of hit ratio ÷ Belady's: 1 is the ceiling everywhere.
        public var meanOptRatio: Double
        public var meanHitRatio: Double
        public var meanByteHitRatio: Double
        /// Results at each capacity, smallest first.
        public var runs: [RunResult]

        /// A name for tables and legends: the policy, its admission filter (`lru+bloom`) and its
        /// lifetime, when set.
        public var label: String {
            var label = policy.rawValue
            if let admission { label += "+\(admission)" }
            if let ttl { label += " ttl \(Quantity.durationLabel(milliseconds: ttl))" }
            return label
        }
    }

    /// The policies on one trace, best first.
    public struct Ranking: Sendable, Equatable {
        public var trace: String
        public var capacities: [Int]
        public var standings: [Standing]
        /// Belady's runs at each capacity, smallest first.
        public var optimum: [RunResult]
    }

    /// What Belady's runs are called in every table, chart and report.
    public static let optimumLabel = "belady (offline optimum)"

    /// Why a policy can pass Belady in bytes mode, said the same way everywhere.
    public static let optimumNote =
        "Belady's offline optimum evicts the object whose next use is furthest away. With objects of one size (unit mode) no cache hits more; with sizes in bytes it is a reference, not a ceiling, because it evicts by next use alone, not by size and next use: a policy that keeps many small photos in the room of one large one can pass it."

    /// How the rankings are ordered, said where they are printed.
    public static let rankingNote =
        "Ranked by mean hit ratio over the capacities (each capacity weighted equally); \"% of Belady\" is the hit ratio as a share of Belady's at the same capacity, averaged the same way."

    /// The policies of `results` ranked on each trace by their mean hit ratio over the capacities
    /// (ties by mean byte hit ratio, then by name), traces in first-seen order: what a reader
    /// expects of a ranking. The mean share of Belady's hits is beside it, not the order: it is
    /// dominated by the smallest capacity, where Belady's hits are few. A capacity at which
    /// Belady hit nothing counts as 1 for a policy that hit nothing too.
    public static func rankings(_ results: [RunResult]) -> [Ranking] {
        var traces: [String] = []
        var byTrace: [String: [RunResult]] = [:]
        for result in results {
            if byTrace[result.trace] == nil { traces.append(result.trace) }
            byTrace[result.trace, default: []].append(result)
        }
        return traces.map { trace in
            let runs = byTrace[trace]!
            let capacities = Array(Set(runs.map(\.cache.capacity))).sorted()
            var order: [String] = []
            var groups: [String: [RunResult]] = [:]
            for run in runs where run.configuration.policy != .belady {
                let key =
                    "\(run.configuration.policy.rawValue)/\(run.configuration.ttl.map(String.init) ?? "-")/\(run.configuration.admission?.description ?? "-")"
                if groups[key] == nil { order.append(key) }
                groups[key, default: []].append(run)
            }
            let standings = order.map { key in
                let group = groups[key]!.sorted { $0.cache.capacity < $1.cache.capacity }
                return Standing(
                    policy: group[0].configuration.policy, ttl: group[0].configuration.ttl,
                    admission: group[0].configuration.admission,
                    meanOptRatio: mean(group.map { $0.optRatio ?? 0 }),
                    meanHitRatio: mean(group.map(\.hitRatio)),
                    meanByteHitRatio: mean(group.map(\.byteHitRatio)), runs: group)
            }
            .sorted { a, b in
                if a.meanHitRatio != b.meanHitRatio { return a.meanHitRatio > b.meanHitRatio }
                if a.meanByteHitRatio != b.meanByteHitRatio { return a.meanByteHitRatio > b.meanByteHitRatio }
                return a.label < b.label
            }
            let optimum = runs.filter { $0.configuration.policy == .belady }.sorted {
                $0.cache.capacity < $1.cache.capacity
            }
            return Ranking(trace: trace, capacities: capacities, standings: standings, optimum: optimum)
        }
    }

    private static func mean(_ values: [Double]) -> Double {
        values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
    }
}
