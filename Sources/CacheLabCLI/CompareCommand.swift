import ArgumentParser
import CacheLab
import LiveReplay

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

    @Option(help: "Network profile of the latency model.")
    var network: NetworkProfile = .wifi

    @Flag(
        help:
            "Also replay each policy at the middle capacity through the real client against an in-process fixture server, and chart its wall-clock latency (NAME-live-latency.svg; rows with mode live in the CSV)."
    )
    var live = false

    @Option(help: ArgumentHelp("With --live: latency the server adds to every response.", valueName: "ms"))
    var serverLatency = 0

    @Option(
        help: ArgumentHelp(
            "With --live: requests in flight at most, as a list's visible rows load.", valueName: "count"))
    var concurrency = 8

    @Option(help: ArgumentHelp("Directory for compare.csv, the charts and README.md.", valueName: "path"))
    var outDir = "results/compare"

    @Option(help: "Replays at once (default: every core).")
    var jobs = ParallelSweep.defaultWorkers

    @Flag(help: "No progress bar, even on a terminal.")
    var noProgress = false

    func validate() throws {
        _ = try policies()
        _ = try ttls()
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
        guard serverLatency >= 0 else { throw ValidationError("--server-latency is milliseconds ≥ 0") }
        if serverLatency != 0 || concurrency != 8, !live {
            throw ValidationError("--server-latency and --concurrency need --live")
        }
        guard concurrency >= 1 else { throw ValidationError("--concurrency must be at least 1, e.g. 8") }
        if live, sizeMode == .unit {
            throw ValidationError("--live counts bytes: --size-mode unit is for the simulator only")
        }
    }

    func policies() throws -> [PolicyKind] {
        try ListOptions.policies(policy).filter { !$0.needsFuture }
    }

    /// The lifetimes asked for, in milliseconds; nil is "none".
    func ttls() throws -> [Int64?] { try ListOptions.ttls(ttl) }

    func run() throws {
        var subjects: [Comparison.Subject] = []
        for trace in try traceSet.load() {
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
        let results = try Comparison.run(subjects, request, workers: jobs, progress: bar.update)
        let seconds = Output.monotonicSeconds() - start
        Output.status("\(results.count) replays in \(Report.decimal(seconds, places: 2)) s")

        let rankings = Comparison.rankings(results)
        try Output.result(ComparisonReport.table(rankings), to: nil)
        let liveRuns = live ? try replayLive(subjects, request) : []

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
    private func replayLive(_ subjects: [Comparison.Subject], _ request: Comparison.Request) throws -> [RunResult] {
        var options = LiveOptions()
        options.serverConfiguration.latency = .milliseconds(serverLatency)
        options.concurrency = concurrency
        options.connectionsPerHost = min(concurrency, 64)
        var runs: [RunResult] = []
        for subject in subjects where !subject.capacities.isEmpty {
            let capacity = subject.capacities[subject.capacities.count / 2]
            for policy in request.policies {
                let tier = TierConfiguration(
                    policy: policy, capacity: capacity, ttl: request.ttls[0], ttlMode: request.ttlMode)
                let client = ClientConfiguration(
                    name: policy.rawValue, memory: nil, disk: tier, sizeMode: .bytes, network: request.network)
                let measured = try waitFor { [options] in
                    try await LiveReplay.run(subject.source.trace!, client: client, options: options)
                }
                // The client's simulation (a disk tier rebuilt at relaunch) is what live must equal.
                let simulated = Replay.simulate(subject.source.trace!, client: client, outcomes: true)
                let agreeing = zip(measured.run.outcomes, simulated.outcomes).count { $0 == $1 }
                Output.status(
                    "live \(subject.source.trace!.name) \(policy.rawValue) at \(capacity) B: \(Report.grouped(subject.source.trace!.count)) requests in \(Report.decimal(measured.seconds, places: 2)) s, p95 \(Report.decimal(measured.run.latency.p95, places: 2)) ms, \(measured.failures) failed; outcome equal to the simulated client's for \(Report.grouped(agreeing)) of \(Report.grouped(subject.source.trace!.count))"
                )
                runs.append(measured.run)
            }
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
