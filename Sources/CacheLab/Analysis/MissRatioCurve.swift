import CacheEngine

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
