import ArgumentParser
import CacheLab
import LiveReplay
import LiveServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

struct CompareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Rank policies on several traces at many sizes: one CSV, charts and a report in results/.",
        discussion: """
            Runs every policy asked for (default: all) at every capacity (default: 12 log-spaced \
            points from 1% to 100% of each trace's working set) and lifetime (--ttl) on every \
            trace, plus Belady's offline optimum at each capacity as the ceiling. Each trace is read \
            once: every run on it is a cache fed chunk by chunk in one pass, the caches spread over \
            the cores (--jobs). Files are streamed, plain or .zst (shares of the working set cost a \
            first pass). With no --trace it uses the eight committed scroll scenarios (generated \
            with --seed, equal byte for byte to traces/NAME.csv at seed 1).

            \(HelpText.nextUses) --live replays each policy once more through the real client; \
            \(HelpText.liveHoldsTrace)

            Prints, per trace, the policies ranked by their mean share of Belady's hits over the \
            capacities, and writes to --out-dir:
              compare.csv                  one row per run (the columns of `run --format csv`, opt_ratio filled)
              README.md                    the rankings and the charts, for a browser or GitHub
              NAME-miss-ratio.svg          miss ratio against capacity, one line per policy
              NAME-byte-hit-ratio.svg      byte hit ratio against capacity
              NAME-latency.svg             the latency distribution at the middle capacity (modelled)
              NAME-live-latency.svg        with --live: the real client's, measured over loopback

            Example: cachelab compare --policy lru,sieve,s3fifo,wtinylfu --ttl none,1d --out-dir /tmp/cmp
            """
    )

    @OptionGroup var traceSet: TraceSetOptions

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

    @OptionGroup var network: NetworkOptions

    @Flag(
        help:
            "Also replay each policy at the middle capacity through the real client against an in-process fixture server, and chart its wall-clock latency (NAME-live-latency.svg; rows with mode live in the CSV)."
    )
    var live = false

    @OptionGroup(title: "Live replay (--live)") var liveReplay: LiveReplayOptions

    @Option(help: ArgumentHelp("Directory for compare.csv, the charts and README.md.", valueName: "path"))
    var outDir = "results/compare"

    @OptionGroup var jobs: JobOptions

    func validate() throws {
        _ = try policies()
        _ = try ttls()
        if liveReplay.isSet, !live {
            throw ValidationError("--concurrency, --timeout and the server options need --live")
        }
        if live, sizeMode == .unit {
            throw ValidationError("--live counts bytes: --size-mode unit is for the simulator only")
        }
    }

    func policies() throws -> [PolicyKind] {
        try ListOptions.policies(policy).filter { !$0.needsFuture }
    }

    /// The lifetimes asked for, in milliseconds; nil is "none".
    func ttls() throws -> [Int64?] { try ListOptions.ttls(ttl) }

    func run() async throws {
        let sources = try traceSet.sources()
        var subjects: [Comparison.Subject] = []
        for source in sources {
            let statistics =
                capacities.needsStatistics || source.trace != nil
                ? try await Execution.statistics(source, jobs: jobs) : nil
            let sizes = try capacities.resolved(statistics, sizeMode: sizeMode, defaultPoints: 12)
            subjects.append(Comparison.Subject(source: source, capacities: sizes))
        }
        let request = Comparison.Request(
            policies: try policies(), ttls: try ttls(), ttlMode: ttlMode, sizeMode: sizeMode, tier: tier,
            network: network.network)
        let runs = subjects.reduce(0) { $0 + $1.capacities.count } * (1 + request.policies.count * request.ttls.count)
        Output.status(
            "comparing \(request.policies.count) policies × \(request.ttls.count) lifetimes on \(subjects.count) traces: \(runs) replays, one pass per trace, on \(jobs.jobs) cores"
        )

        let bar = ProgressBar("compare", enabled: jobs.showsProgress)
        let totals = PlanTotals()
        let planned = subjects
        let results = try await Execution.blocking { () throws(TraceError) in
            try Comparison.run(
                planned, request, workers: jobs.jobs, progress: bar.update, observer: totals.observer(bar))
        }
        bar.finish()
        Output.status("compare: " + totals.line(workers: jobs.jobs))

        let rankings = Comparison.rankings(results)
        try Output.result(ComparisonReport.table(rankings), to: nil)
        let liveRuns = live ? try await replayLive(subjects, request) : []

        try Directory.create(outDir)
        let csv = "compare.csv"
        var files = [ComparisonReport.File(name: csv, contents: Report.csv(results + liveRuns))]
        files += rankings.flatMap(ComparisonReport.charts)
        let liveCharts = rankings.compactMap { ranking in
            ComparisonReport.liveChart(ranking.trace, runs: liveRuns.filter { $0.trace == ranking.trace })
        }
        files += liveCharts
        files.append(
            ComparisonReport.File(
                name: "README.md",
                contents: ComparisonReport.markdown(
                    rankings, command: Self.commandLine(), csv: csv, extraCharts: liveCharts.map(\.name))))
        for file in files { try Output.result(file.contents, to: outDir + "/" + file.name) }
        Output.status("wrote \(files.count) files to \(outDir)/ (README.md embeds the charts)")
    }

    /// Each policy (at its first lifetime) at each trace's middle capacity, replayed through the
    /// real pipeline: a disk tier on a temporary SQLite file, an in-process fixture server.
    private func replayLive(_ subjects: [Comparison.Subject], _ request: Comparison.Request) async throws -> [RunResult]
    {
        let options = try liveReplay.options()
        var runs: [RunResult] = []
        for subject in subjects where !subject.capacities.isEmpty {
            let trace = try TraceLoading.load(subject.source)
            let capacity = subject.capacities[subject.capacities.count / 2]
            let clients = request.policies.map { policy in
                ClientConfiguration(
                    name: policy.rawValue, memory: nil,
                    disk: TierConfiguration(
                        policy: policy, capacity: capacity, ttl: request.ttls[0], ttlMode: request.ttlMode),
                    sizeMode: .bytes, network: request.network)
            }
            let verified = try await LiveServer.verify(
                trace, clients: clients, options: options, configuration: try liveReplay.serverConfiguration()
            ) { run in
                let measured = run.live
                Output.status(
                    "live \(trace.name) \(measured.run.label) at \(capacity) B: \(Report.grouped(trace.count)) requests in \(Report.decimal(measured.seconds, places: 2)) s, p95 \(Report.decimal(measured.run.latency.p95, places: 2)) ms, \(measured.failures) failed; \(RunCommand.describe(run.agreement))"
                )
            }
            runs += verified.map(\.live.run)
        }
        return runs
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
