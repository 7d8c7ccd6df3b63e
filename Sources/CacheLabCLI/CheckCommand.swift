import ArgumentParser
import CacheLab

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Regression gate: replay a baseline's runs and fail if any got worse.",
        discussion: """
            Reads a baseline CSV (the columns of `run --format csv`; `compare` writes one), \
            replays every run on the same trace with the same policy, capacity, lifetime, tier and \
            network (the runs on one trace in one pass over it), and compares: a hit ratio or byte hit ratio more than --tolerance below the \
            baseline's, or a p95 latency more than --latency-tolerance above it, is a regression. \
            Prints a table of what moved (worse first) and exits 1 on any regression, 0 otherwise. \
            The simulator is deterministic: on unchanged code every figure comes back exactly.

            A run's trace is found by its name: a scroll scenario ("daily-reader", or \
            "daily-reader(seed=7)"), else a file at that path or in --trace-dir, streamed (plain or \
            .zst). A baseline's Belady rows need next uses: \(HelpText.nextUses)

            To change the baseline on purpose (a better policy, a new scenario), rerun with \
            --update: it rewrites the file from the current code, same runs in the same order, and \
            the diff of the file is the change to review and commit.

            Example: cachelab check --baseline results/baseline.csv
            """
    )

    @Option(help: ArgumentHelp("The baseline CSV.", valueName: "path"))
    var baseline = "results/baseline.csv"

    @Option(
        help: ArgumentHelp(
            "Largest drop in hit ratio or byte hit ratio accepted, absolute (0.001 = 0.1 point).", valueName: "ratio"))
    var tolerance = 0.001

    @Option(help: ArgumentHelp("Largest rise of p95 latency accepted, relative (0.05 = 5%).", valueName: "ratio"))
    var latencyTolerance = 0.05

    @Option(help: ArgumentHelp("Where to look for trace files named in the baseline.", valueName: "path"))
    var traceDir = "traces"

    @Flag(help: "Rewrite the baseline from the current code instead of checking it.")
    var update = false

    @OptionGroup(title: "Reading trace files the baseline names") var file: TraceFileOptions

    @OptionGroup var jobs: JobOptions

    func validate() throws {
        guard tolerance >= 0, latencyTolerance >= 0 else { throw ValidationError("tolerances must be 0 or more") }
    }

    func run() async throws {
        let text: String
        do { text = try Self.read(baseline) } catch { throw CLIError("cannot read the baseline \(baseline): \(error)") }
        let entries: [RegressionCheck.Entry]
        do { entries = try RegressionCheck.entries(csv: text, file: baseline) } catch { throw CLIError("\(error)") }
        guard !entries.isEmpty else { throw CLIError("\(baseline) holds no runs") }

        var traces: [String: TraceSource] = [:]
        for entry in entries where traces[entry.trace] == nil {
            traces[entry.trace] = try trace(named: entry.trace, line: entry.line)
        }
        let bar = ProgressBar("check", enabled: jobs.showsProgress)
        let totals = PlanTotals()
        let sources = traces
        var current = try await Execution.blocking { () throws(TraceError) in
            try RegressionCheck.replay(
                entries, traces: sources, workers: jobs.jobs, progress: bar.update, observer: totals.observer(bar))
        }
        bar.finish()
        Output.detail("check \(baseline): " + totals.line(workers: jobs.jobs))

        if update {
            // Each rerun keeps the optimum the baseline row was measured against, where it has one.
            let optima = Self.optima(entries, current)
            for index in current.indices { current[index].optimalHits = optima[index] }
            try Output.result(Report.csv(current), to: baseline)
            Output.status("rewrote \(baseline) from the current code: review its diff and commit it")
            return
        }
        let tolerance = RegressionCheck.Tolerance(ratio: tolerance, latency: latencyTolerance)
        let findings = RegressionCheck.findings(entries, current, tolerance: tolerance)
        let worse = findings.filter(\.isWorse)
        if !findings.isEmpty { try Output.result(RegressionCheck.table(findings), to: nil) }
        let summary =
            "\(entries.count) runs checked against \(baseline): \(worse.count) worse, \(findings.count - worse.count) better beyond the tolerance (hit ratios \(Report.decimal(tolerance.ratio * 100, places: 2)) points, p95 \(Report.decimal(tolerance.latency * 100, places: 0))%)"
        guard worse.isEmpty else {
            Output.status("FAIL: " + summary)
            throw ExitCode(1)
        }
        Output.status(
            "ok: " + summary
                + (findings.isEmpty ? "" : "; to keep the improvements, rerun with --update and commit the baseline"))
    }

    /// For each entry, the hits of the Belady run on its trace and capacity in `current`, if
    /// the baseline has one (as `compare`'s does).
    static func optima(_ entries: [RegressionCheck.Entry], _ current: [RunResult]) -> [Int?] {
        var belady: [String: Int] = [:]
        func key(_ entry: RegressionCheck.Entry) -> String {
            "\(entry.trace)|\(entry.configuration.capacity)|\(entry.configuration.sizeMode)|\(entry.configuration.tier)"
        }
        for (entry, run) in zip(entries, current) where entry.configuration.policy == .belady {
            belady[key(entry)] = run.hits
        }
        return entries.map { belady[key($0)] }
    }

    /// The trace a baseline names: a scroll scenario (in memory), or a file (streamed).
    func trace(named name: String, line: Int) throws -> TraceSource {
        if let scenario = ScrollScenario.named(name) {
            var trace = scenario.makeTrace()
            trace.name = name
            return TraceSource(trace)
        }
        if let open = name.firstIndex(of: "("), name.hasSuffix(")"),
            let seed = UInt64(name[open...].dropFirst("(seed=".count).dropLast()),
            name[open...].hasPrefix("(seed="), let scenario = ScrollScenario.named(String(name[..<open]), seed: seed)
        {
            return TraceSource(scenario.makeTrace())
        }
        for path in [name, traceDir + "/" + name] where access(path, R_OK) == 0 {
            return try file.source(path: path)
        }
        throw CLIError(
            "\(baseline):\(line): trace '\(name)' is neither a scroll scenario (\(ScrollScenario.presets.map(\.name).joined(separator: ", "))) nor a file here or in \(traceDir)/"
        )
    }

    static func read(_ path: String) throws -> String {
        guard let file = fopen(path, "r") else { throw CLIError(String(cString: strerror(errno))) }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count > 0 { bytes += buffer[0..<count] }
            if count < buffer.count { break }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
