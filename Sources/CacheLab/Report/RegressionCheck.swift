import CacheEngine
import ClientModel

/// The regression gate: a baseline of simulated runs (a CSV with the columns of
/// `cachelab run --format csv`, such as `compare.csv`) is replayed again and each run compared
/// with what it recorded. A hit ratio or byte hit ratio that drops, or a p95 latency that rises,
/// beyond the tolerance is a regression.
///
/// The simulator is deterministic, so on unchanged code every figure comes back exactly; any
/// difference is a change in a policy, the engine, the latency model or the trace generator.
public enum RegressionCheck {
    /// How much worse a run may get before the gate fails.
    public struct Tolerance: Sendable, Equatable {
        /// The largest drop in hit ratio or byte hit ratio accepted, in absolute terms
        /// (0.001 is a tenth of a percentage point).
        public var ratio: Double
        /// The largest rise of the p95 latency accepted, relative (0.05 is 5 %).
        public var latency: Double

        public init(ratio: Double = 0.001, latency: Double = 0.05) {
            self.ratio = ratio
            self.latency = latency
        }
    }

    /// One run of the baseline: its line in the file, its configuration and what it recorded.
    public struct Entry: Sendable, Equatable {
        public var line: Int
        public var trace: String
        public var configuration: RunConfiguration
        public var requests: Int
        public var hits: Int
        public var bytesRequested: Int
        public var bytesHit: Int
        /// Milliseconds, as the CSV wrote it (three decimals).
        public var latencyP95: Double

        public var hitRatio: Double { requests == 0 ? 0 : Double(hits) / Double(requests) }
        public var byteHitRatio: Double { bytesRequested == 0 ? 0 : Double(bytesHit) / Double(bytesRequested) }
    }

    /// A measure of one run that moved beyond the tolerance, for the worse or the better.
    public struct Finding: Sendable, Equatable {
        public enum Measure: String, Sendable {
            case requests = "requests"
            case hitRatio = "hit ratio"
            case byteHitRatio = "byte hit ratio"
            case latencyP95 = "p95 latency"
        }

        public var entry: Entry
        public var measure: Measure
        public var before: Double
        public var after: Double
        /// A regression (fails the gate) rather than an improvement.
        public var isWorse: Bool
    }

    /// The runs of a baseline CSV.
    ///
    /// - Throws: `BaselineError` naming the file and line of a row that is not a single-tier
    ///   simulated run, or of a missing column or a value that does not parse.
    public static func entries(csv text: String, file: String) throws(BaselineError) -> [Entry] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.hasSuffix("\r") ? $0.dropLast() : $0
        }
        guard let headerLine = lines.first, !headerLine.isEmpty else {
            throw BaselineError(
                file: file, line: 1, message: "the file is empty; expected a header of run's CSV columns")
        }
        let header = splitCSV(headerLine)
        var column: [String: Int] = [:]
        for (index, name) in header.enumerated() { column[name] = index }
        let needed: [ReportColumn] = [
            .trace, .policy, .sizeMode, .capacityBytes, .ttlSeconds, .ttlMode, .trimRatio, .network, .tier,
            .requests, .hits, .bytesRequested, .bytesHit, .latencyP95, .mode,
        ]
        for name in needed.map(\.rawValue) where column[name] == nil {
            throw BaselineError(file: file, line: 1, message: "no \(name) column; a baseline has run's CSV columns")
        }
        var entries: [Entry] = []
        for (offset, text) in lines.enumerated().dropFirst() where !text.isEmpty {
            let line = offset + 1
            let fields = splitCSV(text)
            func field(_ name: ReportColumn) -> String {
                let index = column[name.rawValue]!
                return index < fields.count ? fields[index] : ""
            }
            func parse<Value>(_ name: ReportColumn, _ make: (String) -> Value?) throws(BaselineError) -> Value {
                guard let value = make(field(name)) else {
                    throw BaselineError(
                        file: file, line: line, message: "\(name.rawValue) '\(field(name))' is not valid")
                }
                return value
            }
            guard field(.mode) == RunMode.sim.rawValue else {
                throw BaselineError(
                    file: file, line: line, message: "mode '\(field(.mode))': the gate replays simulated runs only")
            }
            guard let policy = PolicyKind(rawValue: field(.policy)) else {
                throw BaselineError(
                    file: file, line: line,
                    message: "policy '\(field(.policy))' is not a single-tier policy; the gate replays single-tier runs"
                )
            }
            let ttl: Int64? =
                field(.ttlSeconds).isEmpty
                ? nil : try parse(.ttlSeconds) { Double($0).map { Int64(($0 * 1000).rounded()) } }
            var admission: AdmissionFilter?
            if column[ReportColumn.admission.rawValue] != nil, !field(.admission).isEmpty {
                admission = try parse(.admission) { try? AdmissionFilter(parsing: $0) }
            }
            let configuration = RunConfiguration(
                policy: policy, capacity: try parse(.capacityBytes) { Int($0) },
                sizeMode: try parse(.sizeMode) { SizeMode(rawValue: $0) },
                ttl: ttl, ttlMode: ttl == nil ? .fixed : try parse(.ttlMode) { TTLMode(rawValue: $0) },
                trimRatio: try parse(.trimRatio) { Double($0) },
                network: try parse(.network) { NetworkProfile(rawValue: $0) },
                tier: try parse(.tier) { TierKind(rawValue: $0) }, admission: admission)
            entries.append(
                Entry(
                    line: line, trace: field(.trace), configuration: configuration,
                    requests: try parse(.requests) { Int($0) }, hits: try parse(.hits) { Int($0) },
                    bytesRequested: try parse(.bytesRequested) { Int($0) }, bytesHit: try parse(.bytesHit) { Int($0) },
                    latencyP95: try parse(.latencyP95) { Double($0) }))
        }
        return entries
    }

    /// What moved beyond `tolerance`, run by run (`current[i]` is the rerun of `entries[i]`).
    /// A run whose request count changed reports only that: its trace is not the baseline's.
    public static func findings(_ entries: [Entry], _ current: [RunResult], tolerance: Tolerance) -> [Finding] {
        precondition(entries.count == current.count, "RegressionCheck: one rerun per baseline entry")
        var findings: [Finding] = []
        for (entry, run) in zip(entries, current) {
            guard entry.requests == run.requests else {
                findings.append(
                    Finding(
                        entry: entry, measure: .requests, before: Double(entry.requests), after: Double(run.requests),
                        isWorse: true))
                continue
            }
            for (measure, before, after) in [
                (Finding.Measure.hitRatio, entry.hitRatio, run.hitRatio),
                (.byteHitRatio, entry.byteHitRatio, run.byteHitRatio),
            ] where abs(after - before) > tolerance.ratio {
                findings.append(
                    Finding(entry: entry, measure: measure, before: before, after: after, isWorse: after < before))
            }
            // The CSV keeps three decimals: compare at that precision.
            let after = (Report.latency(of: run).p95 * 1000).rounded() / 1000
            let before = entry.latencyP95
            if abs(after - before) > tolerance.latency * max(before, 0.001) {
                findings.append(
                    Finding(entry: entry, measure: .latencyP95, before: before, after: after, isWorse: after > before))
            }
        }
        return findings
    }

    /// The findings as a table: what got worse first, then what got better.
    public static func table(_ findings: [Finding]) -> String {
        var rows = [["", "line", "trace", "policy", "capacity", "ttl", "measure", "baseline", "now", "change"]]
        for finding in findings.filter(\.isWorse) + findings.filter({ !$0.isWorse }) {
            let entry = finding.entry
            let change: String
            let value: (Double) -> String
            switch finding.measure {
            case .requests:
                value = { Report.grouped(Int($0)) }
                change = "trace changed"
            case .hitRatio, .byteHitRatio:
                value = { Report.percent($0) }
                change = Report.decimal((finding.after - finding.before) * 100, places: 2) + " points"
            case .latencyP95:
                value = { Report.decimal($0, places: 3) + " ms" }
                change = Report.percent(finding.before == 0 ? 0 : finding.after / finding.before - 1)
            }
            rows.append([
                finding.isWorse ? "WORSE" : "better", String(entry.line), entry.trace,
                entry.configuration.policy.rawValue,
                entry.configuration.sizeMode == .unit
                    ? "\(Report.grouped(entry.configuration.capacity)) objects"
                    : Report.bytes(entry.configuration.capacity),
                entry.configuration.ttl.map { Quantity.durationLabel(milliseconds: $0) } ?? "none",
                finding.measure.rawValue, value(finding.before), value(finding.after), change,
            ])
        }
        return Report.render(rows)
    }

    /// One CSV line's fields (RFC 4180 quotes: `"a,b"` is one field, `""` inside is a quote).
    static func splitCSV(_ line: Substring) -> [String] {
        var fields: [String] = []
        var field = ""
        var quoted = false
        var iterator = line.makeIterator()
        while let character = iterator.next() {
            if quoted {
                if character == "\"" {
                    // A doubled quote is a literal quote; a single one ends the quoted part.
                    var lookahead = iterator
                    if lookahead.next() == "\"" {
                        field.append("\"")
                        iterator = lookahead
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(character)
                }
            } else if character == "\"" {
                quoted = true
            } else if character == "," {
                fields.append(field)
                field = ""
            } else {
                field.append(character)
            }
        }
        fields.append(field)
        return fields
    }
}

/// A baseline file that cannot be checked: which file, which line, and why.
public struct BaselineError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var message: String

    public var description: String { "\(file):\(line): \(message)" }
}

extension RegressionCheck {
    /// The baseline's runs replayed by the current code, in the baseline's order: the runs on one
    /// trace are the cells of one plan, so each trace is read once.
    ///
    /// - Parameters:
    ///   - entries: the baseline's runs.
    ///   - traces: the trace each entry names, by name.
    ///   - workers: cores replaying at once.
    ///   - progress: runs finished and runs in all, after each trace.
    ///   - observer: hears each plan's progress through its trace, and its timing.
    public static func replay(
        _ entries: [Entry], traces: [String: TraceSource], workers: Int = ParallelSweep.defaultWorkers,
        progress: (@Sendable (_ finished: Int, _ total: Int) -> Void)? = nil,
        observer: PlanObserver = PlanObserver()
    ) throws(TraceError) -> [RunResult] {
        var order: [String] = []
        var byTrace: [String: [Int]] = [:]
        for (index, entry) in entries.enumerated() {
            if byTrace[entry.trace] == nil { order.append(entry.trace) }
            byTrace[entry.trace, default: []].append(index)
        }
        var results = [RunResult?](repeating: nil, count: entries.count)
        var finished = 0
        for name in order {
            guard let source = traces[name] else { preconditionFailure("RegressionCheck.replay: no trace \(name)") }
            let indices = byTrace[name]!
            let plan = RunPlan(source: source, cells: indices.map { .simulate(entries[$0].configuration) })
            let outputs = try plan.execute(workers: workers, observer: observer).outputs
            for (index, output) in zip(indices, outputs) {
                var result = output.run
                result.trace = name
                results[index] = result
            }
            finished += indices.count
            progress?(finished, entries.count)
        }
        return results.map { $0! }
    }
}
