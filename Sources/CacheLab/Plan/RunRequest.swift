import CacheEngine
import ClientModel

/// What `cachelab run` asks for, before any trace is read: policies at capacities (which may be
/// shares of the working set), or clients of two tiers. `plan(on:)` turns it into a run on this
/// machine (one pass over the trace, two when the working set must be measured);
/// `sweep(on:command:output:)` into a sweep whose cells can be split into shards, its manifest
/// reading the outputs back in the order asked for.
public struct RunRequest: Sendable {
    public var policies: [PolicyKind]
    public var capacities: CapacityList
    public var sizeMode: SizeMode
    /// Entry lifetime in milliseconds; nil = the policy's default.
    public var ttl: Int64?
    public var ttlMode: TTLMode
    public var trimRatio: Double?
    public var network: NetworkProfile
    public var tier: TierKind
    /// Model each request's latency (else the loop does only the cache's work).
    public var latency: Bool
    /// Also run Belady's optimum at each capacity and report each run's share of its hits.
    public var versusOptimum: Bool
    /// Two-tier clients to replay instead of the policies, when not empty.
    public var clients: [ClientRequest]
    /// What the clients' memory tiers charge for an image (decoded bitmaps by default).
    public var memoryCost: MemoryCost
    /// The admission filter in front of every policy, a single tier's or each tier of a client.
    public var admission: AdmissionFilter?

    public init(
        policies: [PolicyKind], capacities: CapacityList, sizeMode: SizeMode = .bytes, ttl: Int64? = nil,
        ttlMode: TTLMode = .fixed, trimRatio: Double? = nil, network: NetworkProfile = .wifi, tier: TierKind = .disk,
        latency: Bool = true, versusOptimum: Bool = false, clients: [ClientRequest] = [],
        memoryCost: MemoryCost = .decoded, admission: AdmissionFilter? = nil
    ) {
        self.policies = policies
        self.capacities = capacities
        self.sizeMode = sizeMode
        self.ttl = ttl
        self.ttlMode = ttlMode
        self.trimRatio = trimRatio
        self.network = network
        self.tier = tier
        self.latency = latency
        self.versusOptimum = versusOptimum
        self.clients = clients
        self.memoryCost = memoryCost
        self.admission = admission
    }

    /// Whether a capacity is a share of the working set, so the trace's statistics are needed
    /// (a pass over the trace) before the plan can be made.
    public var needsStatistics: Bool {
        if !clients.isEmpty { return clients.contains(where: \.needsStatistics) }
        return capacities.needsStatistics
    }

    /// The capacities in the run's units: a list in the order asked, a range ascending and
    /// distinct.
    public func resolvedCapacities(_ statistics: TraceStatistics?) throws(CapacityListError) -> [Int] {
        if case .range = capacities { return try capacities.resolved(for: statistics, mode: sizeMode) }
        return try (0..<capacities.count).map { index throws(CapacityListError) in
            try capacities.resolve(index, for: statistics, mode: sizeMode)
        }
    }

    /// A single-tier run of `policy`, its capacity to be filled in.
    private func configuration(_ policy: PolicyKind, capacity: Int = 0) -> RunConfiguration {
        RunConfiguration(
            policy: policy, capacity: capacity, sizeMode: sizeMode, ttl: ttl, ttlMode: ttlMode, trimRatio: trimRatio,
            network: network, tier: tier, admission: admission)
    }

    /// The clients asked for, their capacities resolved.
    public func clientConfigurations(_ statistics: TraceStatistics?) throws -> [ClientConfiguration] {
        try clients.map { request in try request.configuration(self, statistics) }
    }

    /// Every run as a client of one tier or two, for the live replay (the real pipeline runs
    /// clients): a single-tier run is a client with that tier alone.
    public func liveClients(_ statistics: TraceStatistics?) throws -> [ClientConfiguration] {
        guard clients.isEmpty else { return try clientConfigurations(statistics) }
        return try resolvedCapacities(statistics).flatMap { capacity in
            policies.map { policy in
                let tier = TierConfiguration(
                    policy: policy, capacity: capacity, ttl: ttl, ttlMode: ttlMode, trimRatio: trimRatio,
                    admission: admission)
                return ClientConfiguration(
                    name: policy.rawValue, memory: self.tier == .memory ? tier : nil,
                    disk: self.tier == .disk ? tier : nil, sizeMode: sizeMode, network: network)
            }
        }
    }

    /// One run of the request, its capacity still as asked.
    enum Part {
        case client(ClientRequest, slot: Int)
        /// A single tier at the capacity of `slot`; Belady's with `optimum` (`versusOptimum`).
        case single(RunConfiguration, slot: Int, latency: Bool, optimum: Bool)

        var placement: RunResult.Placement {
            switch self {
            case .client(_, let slot): RunResult.Placement(slot: slot)
            case .single(_, let slot, _, let optimum): RunResult.Placement(slot: slot, isOptimum: optimum)
            }
        }
    }

    /// The runs in cell order: each client; or, capacity by capacity, each policy, and with
    /// `versusOptimum` Belady at that capacity (the optimum of its runs).
    var parts: [Part] {
        guard clients.isEmpty else { return clients.enumerated().map { .client($1, slot: $0) } }
        return (0..<capacities.count).flatMap { slot in
            var parts = policies.map { Part.single(configuration($0), slot: slot, latency: latency, optimum: false) }
            if versusOptimum {
                let optimum = RunConfiguration(
                    policy: .belady, capacity: 0, sizeMode: sizeMode, network: network, tier: tier)
                parts.append(.single(optimum, slot: slot, latency: false, optimum: true))
            }
            return parts
        }
    }

    /// Whether the report lists capacities ascending, a capacity met twice once (a range), or as
    /// asked (a list).
    var sortsCapacities: Bool {
        guard clients.isEmpty, case .range = capacities else { return false }
        return true
    }

    /// The run on this machine, before any trace is read: `Plan.execute` measures the working set
    /// when a capacity is a share of it (a pass over a file; a trace in memory costs none), then
    /// replays every cell in one more pass.
    public func plan(on source: TraceSource) -> Plan { Plan(request: self, source: source) }

    /// The cells of one pass over a trace whose statistics are known (nil when `needsStatistics`
    /// is false).
    ///
    /// - Throws: `CapacityListError` or `RunRequestError` when a capacity cannot be resolved.
    func cells(_ statistics: TraceStatistics?) throws -> [RunCell] {
        try parts.map { part throws -> RunCell in
            switch part {
            case .client(let client, _):
                return .client(try client.configuration(self, statistics))
            case .single(var configuration, let slot, let latency, _):
                configuration.capacity = try capacities.resolve(slot, for: statistics, mode: sizeMode)
                return .simulate(configuration, latency: latency)
            }
        }
    }

    /// A run on this machine: the trace's statistics when a capacity needs them, then every cell in
    /// one plan over the trace, each result put where the report lists it.
    public struct Plan: Sendable {
        public let request: RunRequest
        public let source: TraceSource

        /// What a run gave.
        public struct Outcome: Sendable {
            /// The trace's statistics: measured when a capacity needed them, or the trace's in
            /// memory; nil otherwise.
            public var statistics: TraceStatistics?
            /// The pass that measured them over a file, if one was made.
            public var statisticsPass: PlanOutcome?
            /// The pass that replayed the cells.
            public var replay: PlanOutcome
            /// The cells replayed.
            public var cells: Int
            /// The runs in the order the report lists them (Belady's for `versusOptimum` inside
            /// their policies' rows).
            public var results: [RunResult]
            /// Belady's runs for `versusOptimum`, one per capacity.
            public var optimum: [RunResult]
        }

        /// Measures the working set if it must, then replays, on the calling thread and threads of
        /// its own (call it off the concurrency pool).
        ///
        /// - Parameters:
        ///   - workers: the threads replaying cells (the reading thread besides).
        ///   - stopwatch: the caller's clock, for the passes' timing (the lab reads none).
        ///   - progress: each pass's progress; the statistics pass's in phase `.workingSet`.
        /// - Throws: `TraceError` when the trace cannot be read; `CapacityListError` or
        ///   `RunRequestError` when a capacity cannot be resolved.
        public func execute(
            workers: Int = ParallelSweep.defaultWorkers, stopwatch: RunPlan.Stopwatch? = nil,
            progress: (@Sendable (PlanProgress) -> Void)? = nil
        ) throws -> Outcome {
            var statistics: TraceStatistics?
            var statisticsPass: PlanOutcome?
            if request.needsStatistics || source.trace != nil {
                (statistics, statisticsPass) = try TraceStatistics.measure(
                    source, workers: workers, stopwatch: stopwatch, progress: progress)
            }
            let cells = try request.cells(statistics)
            let replay = try RunPlan(source: source, cells: cells).execute(
                workers: workers, stopwatch: stopwatch, progress: progress)
            let placements = request.parts.map(\.placement)
            let runs = replay.outputs.map(\.run)
            return Outcome(
                statistics: statistics, statisticsPass: statisticsPass, replay: replay, cells: cells.count,
                results: RunResult.arranged(
                    runs, placed: placements, sortsCapacities: request.sortsCapacities, listsOptimum: false),
                optimum: zip(placements, runs).filter { $0.0.isOptimum }.map(\.1))
        }
    }

    static func resolve(
        _ spec: CapacitySpec, _ statistics: TraceStatistics?, _ mode: SizeMode, what: String
    ) throws(RunRequestError) -> Int {
        let amount: Int
        switch spec {
        case .absolute(let value):
            amount = value
        case .percentOfWorkingSet:
            guard let statistics else {
                preconditionFailure("RunRequest: a share of the working set needs the trace's statistics")
            }
            amount = spec.resolved(for: statistics, mode: mode)
            guard amount > 0 else {
                throw .zeroCapacity(what: what, spec: spec, workingSet: statistics.workingSet(in: mode), sizeMode: mode)
            }
        }
        return amount
    }
}

/// Why a run request cannot be planned for a trace.
public enum RunRequestError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A share of the working set rounds to nothing on this trace.
    case zeroCapacity(what: String, spec: CapacitySpec, workingSet: Int, sizeMode: SizeMode)

    public var description: String {
        switch self {
        case .zeroCapacity(let what, let spec, let workingSet, let mode):
            let unit = mode == .unit ? "objects" : "bytes"
            return
                "\(what) \(spec) of this trace's working set (\(workingSet) \(unit)) is 0 \(unit); give a larger share or an absolute capacity"
        }
    }
}
