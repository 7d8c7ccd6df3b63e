import CacheEngine

/// What a sweep computes, as its cell files and `cachelab merge` know it: the traces (by identity,
/// not path), every cell in the order the report lists them, and how the report is made. It is
/// written beside the cells (`sweep.json`), the same from every task of a sweep, so a merge needs
/// neither the traces nor the command line.
///
/// A cell's file is named by a hash of what determines its result (`fileName(_:)`): the trace's
/// identity, the cell's key (configuration and capacity as asked) and the result format's version.
public struct SweepManifest: Sendable, Equatable, Codable {
    /// The version of the cells' format. Cells written by a cachelab with another version are not
    /// read (a merge refuses them; a task says to start a new folder).
    /// 2: a run's client counts, outcomes and latency are parts present only where they apply.
    /// 3: a run says its kind (one tier, a client, live) and carries only that kind's parts.
    public static let formatVersion = 3

    /// The command that made the sweep.
    public enum Kind: String, Sendable, Codable {
        case compare
        case mrc
        case run
    }

    /// One cell: where it sits in the report and what it computes.
    public struct Entry: Sendable, Equatable, Hashable, Codable {
        /// What a cell's output is to the report.
        public enum Role: String, Sendable, Codable {
            /// A run, a row of the report.
            case run
            /// Belady's optimum at its slot's capacity: the denominator of every run's opt_ratio
            /// there (a row of its own in a comparison).
            case optimum
            /// Points of a miss-ratio curve.
            case curve
        }

        /// The trace it runs on (an index into `traces`).
        public var trace: Int
        /// Cells of one trace with the same slot run at the same capacity; the order of slots is
        /// the order capacities were asked in.
        public var slot: Int
        public var role: Role
        /// What determines its result besides the trace, in words.
        public var key: String

        public init(trace: Int, slot: Int, role: Role, key: String) {
            self.trace = trace
            self.slot = slot
            self.role = role
            self.key = key
        }
    }

    public var format = Self.formatVersion
    public var kind: Kind
    /// The command line that made it, without the options that change no result (`--shard`,
    /// `--out-dir`, `--jobs`…): the report quotes it.
    public var command: String
    /// How `run` and `mrc` print their results (`table` or `csv`); empty for a comparison.
    public var output: String
    /// Whether capacities are listed ascending with duplicates folded (a comparison, a curve, a
    /// range), or as asked (a list given to `run`).
    public var sortsCapacities: Bool
    public var traces: [TraceIdentity]
    public var cells: [Entry]

    public init(
        kind: Kind, command: String, output: String = "", sortsCapacities: Bool, traces: [TraceIdentity],
        cells: [Entry]
    ) {
        self.kind = kind
        self.command = command
        self.output = output
        self.sortsCapacities = sortsCapacities
        self.traces = traces
        self.cells = cells
    }

    /// The name of cell `index`'s file.
    public func fileName(_ index: Int) -> String {
        let cell = cells[index]
        let trace = traces[cell.trace]
        let identity = "cachelab cell \(format)\n\(trace.name)\n\(trace.fingerprint)\n\(cell.key)"
        return StableHash.hex(StableHash.fnv1a(identity)) + ".cell.json"
    }

    /// The runs of a comparison or of `run`, in report order, from the cells' outputs (in cell
    /// order): grouped by trace and slot; with `sortsCapacities`, slots ascending by capacity and
    /// a slot whose capacity an earlier one of the same trace had left out; each run given its
    /// slot's optimum hits (a comparison also lists the optimum's own run).
    public func runs(_ outputs: [SweepOutput]) -> [RunResult] {
        precondition(outputs.count == cells.count, "one output per cell")
        precondition(kind != .mrc, "a curve's cells are points, not runs")
        return RunResult.arranged(
            outputs.map(\.run),
            placed: cells.map { RunResult.Placement(trace: $0.trace, slot: $0.slot, isOptimum: $0.role == .optimum) },
            sortsCapacities: sortsCapacities, listsOptimum: kind == .compare)
    }

    /// The points of a miss-ratio curve from the cells' outputs: policy by policy in the order
    /// first met, each policy's capacities ascending, a capacity met twice listed once.
    public func curve(_ outputs: [SweepOutput]) -> [CurvePoint] {
        var policies: [PolicyKind] = []
        var byPolicy: [PolicyKind: [CurvePoint]] = [:]
        for output in outputs {
            for point in output.points {
                if byPolicy[point.policy] == nil { policies.append(point.policy) }
                byPolicy[point.policy, default: []].append(point)
            }
        }
        return policies.flatMap { policy in
            var seen = Set<Int>()
            return byPolicy[policy]!.enumerated().sorted {
                ($0.element.capacity, $0.offset) < ($1.element.capacity, $1.offset)
            }
            .map(\.element).filter { seen.insert($0.capacity).inserted }
        }
    }
}
