#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A sweep: cells on one or more traces (`compare`'s policies × capacities × lifetimes, `mrc`'s
/// curves, `run`'s configurations), each named by what determines its result, so that the sweep
/// can run on one machine or be split into shards run anywhere, its cells kept as files and
/// gathered into the same report.
///
/// Executing cells reads each of their traces once: a trace's cells are one `RunPlan` (after a
/// pass for the working set when a capacity is a share, and one for next uses when Belady runs on
/// a trace that does not carry them).
public struct SweepPlan: Sendable {
    public var manifest: SweepManifest
    /// Where each trace is read from, in the manifest's order.
    public var sources: [TraceSource]
    /// The cells, in the manifest's order.
    public var cells: [SweepCell]
    /// Each trace's size, for balancing shards: bytes of a file, 24 bytes a request otherwise.
    var traceSizes: [Double]

    /// A plan of `cells` on `sources`, each trace's identity taken now (a few blocks of each file).
    ///
    /// - Throws: `TraceError` when a trace file cannot be opened.
    public init(
        kind: SweepManifest.Kind, command: String, output: String = "", sortsCapacities: Bool,
        sources: [TraceSource], cells: [SweepCell]
    ) throws(TraceError) {
        var identities: [TraceIdentity] = []
        var sizes: [Double] = []
        for source in sources {
            identities.append(try TraceIdentity(source))
            sizes.append(Self.size(of: source))
        }
        manifest = SweepManifest(
            kind: kind, command: command, output: output, sortsCapacities: sortsCapacities, traces: identities,
            cells: cells.map(\.entry))
        self.sources = sources
        self.cells = cells
        traceSizes = sizes
    }

    private static func size(of source: TraceSource) -> Double {
        switch source.origin {
        case .file(let path, _, _):
            var info = stat()
            return stat(path, &info) == 0 ? Double(info.st_size) : 1
        case .memory(let trace): return Double(trace.count) * 24
        case .zipf(let parameters): return Double(parameters.requests) * 24
        }
    }

    /// The cells shard `shard` runs, in the plan's order.
    ///
    /// Cells are laid end to end trace by trace and cut into `shard.count` runs of about equal
    /// work (the trace's size × the cell's weight): each shard reads few traces, and a trace is
    /// split only where its work would unbalance the shards. A trace's Belady cells go first and
    /// stay together, so one shard makes its next uses. The same plan always gives the same cut.
    public func cells(in shard: Shard) -> [Int] {
        // Blocks laid end to end: a trace's cells needing the future, then each other cell.
        var blocks: [[Int]] = []
        for trace in sources.indices {
            let cells = self.cells.indices.filter { self.cells[$0].entry.trace == trace }
            let future = cells.filter { self.cells[$0].needsFuture }
            if !future.isEmpty { blocks.append(future) }
            blocks += cells.filter { !self.cells[$0].needsFuture }.map { [$0] }
        }
        let work = blocks.map { block in
            block.map { cells[$0].weight * max(traceSizes[cells[$0].entry.trace], 1) }.reduce(0, +)
        }
        let total = work.reduce(0, +)
        var mine: [Int] = []
        var before = 0.0
        for (block, cells) in blocks.enumerated() {
            let middle = (before + work[block] / 2) / total
            before += work[block]
            if min(Int(middle * Double(shard.count)), shard.count - 1) == shard.index { mine += cells }
        }
        return mine.sorted()
    }

    /// How executing went.
    public struct Outcome: Sendable {
        /// The outputs of the cells asked for, by cell index.
        public var outputs: [Int: SweepOutput]
        /// Cells replayed now, and cells found already in the store.
        public var computed = 0
        public var found = 0
        /// Traces read.
        public var tracesRead = 0
    }

    /// Executes the cells `indices` (all by default), trace by trace.
    ///
    /// With a `store`, a cell whose file is there is read instead of replayed, and each cell
    /// replayed is written there (whole or not at all) once its trace's plan is done; a trace whose
    /// cells are all there is not read.
    ///
    /// - Parameters:
    ///   - indices: the cells to execute (a shard's), all by default.
    ///   - workers: cores replaying at once.
    ///   - observer: hears each plan's progress and timing (the statistics passes' too).
    ///   - store: the folder of cells read and written, if any.
    ///   - report: told each trace's statistics when a pass measured them.
    /// - Throws: `TraceError`, `CapacityListError`, `SweepStoreError`.
    public func execute(
        _ indices: [Int]? = nil, workers: Int = ParallelSweep.defaultWorkers, observer: PlanObserver = PlanObserver(),
        store: SweepStore? = nil, statistics report: (@Sendable (String, TraceStatistics) -> Void)? = nil
    ) throws -> Outcome {
        let indices = indices ?? Array(cells.indices)
        var outcome = Outcome(outputs: [:])
        var byTrace: [Int: [Int]] = [:]
        for index in indices { byTrace[cells[index].entry.trace, default: []].append(index) }
        for trace in byTrace.keys.sorted() {
            var pending: [Int] = []
            for index in byTrace[trace]! {
                if let stored = try store?.read(index, of: manifest) {
                    outcome.outputs[index] = stored
                    outcome.found += 1
                } else {
                    pending.append(index)
                }
            }
            guard !pending.isEmpty else { continue }
            let source = sources[trace]
            var statistics: TraceStatistics?
            if pending.contains(where: { cells[$0].needsStatistics }) {
                statistics = try Self.statistics(source, workers: workers, observer: observer)
                report?(source.name, statistics!)
            }
            let made = try pending.map { try cells[$0].make(statistics) }
            var outputs = try RunPlan(source: source, cells: made).execute(workers: workers, observer: observer).outputs
            for (position, output) in outputs.enumerated() {
                guard case .unstackable = output, let fallback = cells[pending[position]].fallback else { continue }
                // An object's size changed: the stack pass's points are replayed one by one.
                let again = try RunPlan(source: source, cells: fallback(statistics))
                    .execute(workers: workers, observer: observer).outputs
                outputs[position] = .curve(again.map { CurvePoint($0.run) })
            }
            outcome.tracesRead += 1
            for (position, output) in outputs.enumerated() {
                let kept: SweepOutput
                switch output {
                case .run(let result): kept = .run(result)
                case .curve(let points): kept = .curve(points)
                case .unstackable, .statistics:
                    preconditionFailure("a sweep cell gives a run or a curve")
                }
                try store?.write(kept, cell: pending[position], of: manifest)
                outcome.outputs[pending[position]] = kept
                outcome.computed += 1
            }
        }
        return outcome
    }

    /// Every cell's output, in the plan's order, executed here (no store).
    public func outputs(
        workers: Int = ParallelSweep.defaultWorkers, observer: PlanObserver = PlanObserver(),
        statistics: (@Sendable (String, TraceStatistics) -> Void)? = nil
    ) throws -> [SweepOutput] {
        let outcome = try execute(workers: workers, observer: observer, statistics: statistics)
        return cells.indices.map { outcome.outputs[$0]! }
    }

    /// A trace's statistics: counted in place for a trace in memory, else by a pass over it
    /// (heard as progress, not as a plan: the timing lines count the replays).
    static func statistics(
        _ source: TraceSource, workers: Int, observer: PlanObserver
    ) throws(TraceError) -> TraceStatistics {
        try TraceStatistics.measure(
            source, workers: workers, stopwatch: observer.stopwatch, progress: observer.progress
        ).statistics
    }
}
