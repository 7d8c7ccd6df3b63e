import ArgumentParser
import CacheLab

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Rank policies on several traces at many sizes: one CSV, charts and a report in results/.",
        discussion: """
            Runs every policy asked for (default: all) at every capacity (default: 12 log-spaced \
            points from 1% to 100% of each trace's working set) and lifetime (--ttl) on every \
            trace, in parallel, plus Belady's offline optimum at each capacity as the ceiling. \
            With no --trace it uses the eight committed scroll scenarios (generated with --seed, \
            equal byte for byte to traces/NAME.csv at seed 1).

            Prints, per trace, the policies ranked by their mean share of Belady's hits over the \
            capacities, and writes to --out-dir:
              compare.csv                  one row per run (the columns of `run --format csv`, opt_ratio filled)
              README.md                    the rankings and the charts, for a browser or GitHub
              NAME-miss-ratio.svg          miss ratio against capacity, one line per policy
              NAME-byte-hit-ratio.svg      byte hit ratio against capacity
              NAME-latency.svg             the latency distribution at the middle capacity

            Example: cachelab compare --policy lru,sieve,s3fifo,wtinylfu --ttl none,1d --out-dir /tmp/cmp
            """
    )

    @Option(
        name: .customLong("trace"),
        help: ArgumentHelp(
            "A trace file to compare on; repeat for several (default: the scroll scenarios).", valueName: "path"))
    var traces: [String] = []

    @Option(
        help: ArgumentHelp(
            "Scroll scenarios to generate when no --trace is given, comma-separated, or 'all': \(ScrollScenario.presets.map(\.name).joined(separator: ", ")).",
            valueName: "name[,name...]"))
    var scenario = "all"

    @Option(help: "Seed of the generated scenarios.")
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("Policies to rank, comma-separated, or 'all' (Belady always runs, as the ceiling)."))
    var policy = "all"

    @OptionGroup(title: "Capacities (per trace)") var capacities: CapacityOptions

    @Option(
        help: ArgumentHelp(
            "Entry lifetimes to try, comma-separated: none, or durations (1h, 7d); each policy runs at each.",
            valueName: "none|duration[,...]"))
    var ttl = "none"

    @Option(help: "Start the lifetime at insertion (fixed) or at the last use (sliding).")
    var ttlMode: TTLMode = .fixed

    @Option(help: "Count capacity in bytes, or in objects (every object costs 1).")
    var sizeMode: SizeMode = .bytes

    @Option(help: "disk survives relaunches; memory is emptied by each relaunch event.")
    var tier: TierKind = .disk

    @Option(help: "Network profile of the latency model.")
    var network: NetworkProfile = .wifi

    @Option(help: ArgumentHelp("Directory for compare.csv, the charts and README.md.", valueName: "path"))
    var outDir = "results/compare"

    @Option(help: "Replays at once (default: every core).")
    var jobs = ParallelSweep.defaultWorkers

    @Flag(help: "No progress bar, even on a terminal.")
    var noProgress = false

    func validate() throws {
        _ = try policies()
        _ = try ttls()
        _ = try scenarios()
        if !traces.isEmpty, scenario != "all" {
            throw ValidationError("give either --trace files or --scenario names, not both")
        }
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
    }

    func policies() throws -> [PolicyKind] {
        try ListOptions.policies(policy).filter { !$0.needsFuture }
    }

    /// The lifetimes asked for, in milliseconds; nil is "none".
    func ttls() throws -> [Int64?] {
        try ttl.split(separator: ",").map { item -> Int64? in
            let text = item.trimmingCharacters()
            if text == "none" { return nil }
            do { return try Quantity.milliseconds(parsing: text) } catch {
                throw ValidationError("--ttl: \(error), or none")
            }
        }
    }

    func scenarios() throws -> [ScrollScenario] {
        if scenario == "all" { return ScrollScenario.presets.compactMap { ScrollScenario.named($0.name, seed: seed) } }
        return try scenario.split(separator: ",").map { name in
            guard let found = ScrollScenario.named(name.trimmingCharacters(), seed: seed) else {
                throw ValidationError(
                    "unknown scenario '\(name)'; choose from \(ScrollScenario.presets.map(\.name).joined(separator: ", ")), or all"
                )
            }
            return found
        }
    }

    func run() throws {
        var subjects: [Comparison.Subject] = []
        let loaded: [Trace]
        if traces.isEmpty {
            loaded = try scenarios().map { scenario in
                var trace = scenario.makeTrace()
                trace.name = scenario.name
                return trace
            }
        } else {
            loaded = try traces.map { try TraceLoading.load(path: $0, format: nil, columns: nil) }
        }
        for trace in loaded {
            let statistics = TraceStatistics(trace)
            let sizes = try capacities.resolved(statistics, sizeMode: sizeMode, defaultPoints: 12)
            subjects.append(Comparison.Subject(trace: trace, capacities: sizes))
        }
        let request = Comparison.Request(
            policies: try policies(), ttls: try ttls(), ttlMode: ttlMode, sizeMode: sizeMode, tier: tier,
            network: network)
        let runs = subjects.reduce(0) { $0 + $1.capacities.count } * (1 + request.policies.count * request.ttls.count)
        Output.status(
            "comparing \(request.policies.count) policies × \(request.ttls.count) lifetimes on \(subjects.count) traces: \(runs) replays on \(jobs) cores"
        )

        let start = Output.monotonicSeconds()
        let bar = ProgressBar("compare", enabled: !noProgress && ProgressBar.onTerminal)
        let results = Comparison.run(subjects, request, workers: jobs, progress: bar.update)
        let seconds = Output.monotonicSeconds() - start
        Output.status("\(results.count) replays in \(Report.decimal(seconds, places: 2)) s")

        let rankings = Comparison.rankings(results)
        try Output.result(ComparisonReport.table(rankings), to: nil)

        try Directory.create(outDir)
        let csv = "compare.csv"
        var files = [ComparisonReport.File(name: csv, contents: Report.csv(results))]
        files += rankings.flatMap(ComparisonReport.charts)
        files.append(
            ComparisonReport.File(
                name: "README.md",
                contents: ComparisonReport.markdown(rankings, command: Self.commandLine(), csv: csv)))
        for file in files { try Output.result(file.contents, to: outDir + "/" + file.name) }
        Output.status("wrote \(files.count) files to \(outDir)/ (README.md embeds the charts)")
    }

    /// The command line as typed, for the report's first line.
    static func commandLine() -> String {
        (["cachelab"] + CommandLine.arguments.dropFirst()).joined(separator: " ")
    }
}

/// Directories the CLI writes into.
enum Directory {
    /// Creates `path` and its missing parents (as `mkdir -p`).
    static func create(_ path: String) throws {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component + "/"
            if mkdir(prefix, 0o755) != 0, errno != EEXIST {
                throw CLIError("cannot create \(prefix): \(String(cString: strerror(errno)))")
            }
        }
    }
}
