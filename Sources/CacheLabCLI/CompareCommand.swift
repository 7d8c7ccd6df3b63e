import ArgumentParser
import CacheEngine
import CacheLab
import ClientModel
import LiveReplay
import LiveServer

struct CompareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Rank policies on several traces at many sizes: one CSV, charts and a report in results/.",
        discussion: """
            Runs every policy asked for (default: all) at every capacity (default: 12 log-spaced \
            points from 1% to 100% of each trace's working set) and lifetime (--ttl) on every \
            trace, plus Belady's offline optimum at each capacity, in one pass per trace (files \
            streamed, plain or .zst). With no --trace it uses the eleven scroll scenarios. Prints, \
            per trace, the policies ranked by mean hit ratio over the capacities, with their mean \
            share of Belady's hits (cachelab topic opt-ratio; Belady's cost: topic next-uses), and \
            writes to --out-dir:
              compare.csv                one row per run (the columns of `run --format csv`)
              README.md                  the rankings and the charts
              NAME-miss-ratio.svg        miss ratio against capacity
              NAME-byte-hit-ratio.svg    byte hit ratio against capacity
              NAME-latency.svg           the latency distribution at the middle capacity
              NAME-live-latency.svg      with --live: the real client's (cachelab topic live)
            With no --out-dir: results/compare for the scroll scenarios (the committed one), \
            compare/NAME for --trace files; a folder holding another comparison is refused before \
            any replay, unless --force. --help-hidden also shows the live replay's and the \
            sharding options (a sweep split over a cluster's tasks, then `cachelab merge`).

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

    @Option(help: "Lifetime from insertion (fixed) or last use (sliding).")
    var ttlMode: TTLMode = .fixed

    @OptionGroup(title: "Admission") var admission: AdmissionOptions

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

    @OptionGroup(title: "Live replay (--live)", visibility: .hidden) var liveReplay: LiveReplayOptions

    @Option(
        help: ArgumentHelp(
            "Directory for compare.csv, the charts and README.md (default: results/compare for the scroll scenarios, compare/NAME for --trace files); with --shard, for the shard's cells (then `cachelab merge` it).",
            valueName: "path"))
    var outDir: String?

    @Flag(
        help:
            "Replace a comparison of other traces in --out-dir (without it, such a folder is refused before any replay)."
    )
    var force = false

    @Flag(help: "Draw every policy in the charts (default: at most 7, the best by rank and LRU, beside Belady's).")
    var allSeries = false

    @OptionGroup var jobs: JobOptions

    @OptionGroup(title: "Sharding: a sweep split over a cluster's tasks", visibility: .hidden) var sharding:
        ShardOptions

    func validate() throws {
        if let offline = try ListOptions.policies(policy).first(where: \.needsFuture), policy != "all" {
            throw ValidationError(
                "\(offline.rawValue) is not ranked: Belady's optimum runs on every trace as the ceiling; name online policies"
            )
        }
        if let outDir { try OutputPath.checkFolder(outDir, option: "--out-dir") }
        _ = try policies()
        _ = try ttls()
        if liveReplay.isSet, !live {
            throw ValidationError("--concurrency, --timeout and the server options need --live")
        }
        if live, sizeMode == .unit {
            throw ValidationError("--live counts bytes: --size-mode unit is for the simulator only")
        }
        if live, sharding.shard != nil || sharding.shardCount != nil {
            throw ValidationError("--live replays through the real client on this machine: it cannot be sharded")
        }
    }

    func policies() throws -> [PolicyKind] {
        try ListOptions.policies(policy).filter { !$0.needsFuture }
    }

    /// The lifetimes asked for, in milliseconds; nil is "none".
    func ttls() throws -> [Int64?] { try ListOptions.ttls(ttl) }

    func run() async throws {
        capacities.notes(sizeMode: sizeMode).forEach(Output.status)
        let sources = try traceSet.sources()
        let traces = sources.map(\.name)
        let outDir = ComparisonFolder.resolve(self.outDir, traces: traces, fromFiles: !traceSet.traces.isEmpty)
        let request = Comparison.Request(
            policies: try policies(), ttls: try ttls(), ttlMode: ttlMode, sizeMode: sizeMode, tier: tier,
            network: network.network, admissions: try admission.filters())
        let capacities = try capacities.list(defaultPoints: 12)
        let plan = try Comparison.sweep(
            sources.map { Comparison.Subject(source: $0, capacities: capacities) }, request,
            command: Output.commandLine())
        if let shard = try sharding.resolved() {
            guard !live else {
                throw CLIError("--live replays through the real client on this machine: it cannot be sharded")
            }
            return try await Execution.shard(plan, shard, outDir: outDir, jobs: jobs, what: "compare")
        }
        try OutputPath.checkFolder(outDir, option: "--out-dir")
        try ComparisonFolder.check(outDir, traces: traces, force: force)
        Output.detail(
            "comparing \(Report.counted(request.policies.count, "policy", plural: "policies")) × \(Report.counted(request.ttls.count, "lifetime")) × \(Report.counted(request.admissions.count, "admission filter")) on \(Report.counted(sources.count, "trace")): \(Report.counted(plan.cells.count, "replay")) (Belady's included), one pass per trace, on \(Report.counted(jobs.jobs, "core"))"
        )
        let results = plan.manifest.runs(try await Execution.sweep(plan, jobs: jobs, what: "compare"))
        let liveRuns = live ? try await replayLive(sources, Comparison.rankings(results), request) : []
        try Emitter.comparison(
            results, liveRuns: liveRuns, command: plan.manifest.command, outDir: outDir, allSeries: allSeries)
    }

    /// Each policy (at its first lifetime) at each trace's middle capacity, replayed through the
    /// real pipeline: a disk tier on a temporary SQLite file, an in-process fixture server.
    private func replayLive(
        _ sources: [TraceSource], _ rankings: [Comparison.Ranking], _ request: Comparison.Request
    ) async throws -> [RunResult] {
        let options = try liveReplay.options()
        var runs: [RunResult] = []
        for (source, ranking) in zip(sources, rankings) where !ranking.capacities.isEmpty {
            let trace = try TraceLoading.load(source)
            let capacity = ranking.capacities[ranking.capacities.count / 2]
            let clients = request.policies.map { policy in
                ClientConfiguration(
                    name: policy.rawValue, memory: nil,
                    disk: TierConfiguration(
                        policy: policy, capacity: capacity, ttl: request.ttls[0], ttlMode: request.ttlMode,
                        admission: request.admissions[0]),
                    sizeMode: .bytes, network: request.network)
            }
            let verified = try await LiveServer.verify(
                trace, clients: clients, options: options, configuration: try liveReplay.serverConfiguration()
            ) { run in
                let measured = run.live
                Output.status(
                    "live \(trace.name) \(measured.run.label) at \(capacity) B: \(Report.grouped(trace.count)) requests in \(Report.decimal(measured.seconds, places: 2)) s, p95 \(Report.decimal(Report.latency(of: measured.run).p95, places: 2)) ms, \(measured.failures) failed; \(Emitter.describe(run.agreement))"
                )
            }
            runs += verified.map(\.live.run)
        }
        return runs
    }

}
