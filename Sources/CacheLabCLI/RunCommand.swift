import ArgumentParser
import CacheEngine
import CacheLab
import CacheLabRecorder
import ClientModel
import Foundation
import LiveReplay
import LiveServer

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Replay a trace through one or more cache policies and report hits, bytes and latency.",
        discussion: """
            With no --trace, replays the built-in recipe-list scenario daily-reader at 512KiB. \
            Several policies or capacities give one run each, all in one pass over the trace (a \
            file is streamed, plain or .zst, in constant memory); a share of the working set (10%) \
            costs one more pass to measure it. `cachelab policies` lists the policies; `cachelab \
            topic` explains capacity, size-modes, tiers, presets, opt-ratio, admission, live (the \
            real client: --mode live) and next-uses (what Belady costs). --help-hidden also shows \
            the scenario's knobs and the live replay's, server's, faults' and sharding options.

            Examples:
              cachelab run --trace big.oracleGeneral.zst --policy lru,arc --capacity 1GB,4GB
              cachelab run --trace traces/feed-10k.csv --policy all --capacity 1%,10% --vs-opt
              cachelab run --client all --trace traces/weekly-returner.csv
            """
    )

    @Option(
        help: ArgumentHelp("Policies to run, comma-separated, or 'all' (default: lru).", valueName: "name[,name...]"))
    var policy: String?

    @OptionGroup(title: "Capacities") var capacities: CapacityOptions

    @Option(help: "Count capacity in bytes, or in objects (every object costs 1).")
    var sizeMode: SizeMode = .bytes

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Entry lifetime (300s, 5m, 12h, 7d); works with every policy. 'ttl' defaults to 300s.",
            valueName: "duration"))
    var ttl: String?

    @Option(help: "Lifetime from insertion (fixed) or last use (sliding).")
    var ttlMode: TTLMode = .fixed

    @Option(
        help: ArgumentHelp(
            "On overflow, evict down to this share of the capacity (Nuke 0.7, Kingfisher and SDWebImage 0.5).",
            valueName: "ratio"))
    var trimRatio: Double?

    @Option(
        help: ArgumentHelp(
            "Trace file, or a recording's folder, to replay (default: the built-in recipe-list scenario).",
            valueName: "path"))
    var trace: String?

    @OptionGroup var reading: TraceReadingOptions

    @OptionGroup var network: NetworkOptions

    @Option(help: "Which cache tier the run models: disk survives relaunches, memory is emptied by them.")
    var tier: TierKind = .disk

    @Flag(
        inversion: .prefixedNo,
        help:
            "Model every request's latency (--no-latency: faster on big traces, latency columns 0)."
    )
    var latency = true

    @OptionGroup(title: "Two tiers") var clients: ClientOptions

    @OptionGroup(title: "Admission") var admission: AdmissionOptions

    @Option(
        help: ArgumentHelp(
            "sim: the simulator; live: the real client against a fixture server (cachelab topic live)."))
    var mode: RunMode = .sim

    @OptionGroup(title: "Live replay (--mode live)", visibility: .hidden) var live: LiveRunOptions

    @Flag(
        help:
            "Also run Belady at each capacity and report opt_ratio (cachelab topic opt-ratio)."
    )
    var vsOpt = false

    @OptionGroup var jobs: JobOptions

    @OptionGroup(title: "Sharding: a sweep split over a cluster's tasks", visibility: .hidden) var sharding:
        ShardOptions

    @Option(
        help: ArgumentHelp(
            "With --shard (or a job array's environment): the folder the shard's cells go to, for `cachelab merge`.",
            valueName: "path", visibility: .hidden))
    var outDir: String?

    @Option(help: "Output: a table, or CSV for scripts (stdout then holds only CSV).")
    var format: OutputFormat = .table

    @Option(
        help: ArgumentHelp(
            "Write the output to this file instead of stdout (whole or not at all: never a partial file).",
            valueName: "path"))
    var out: String?

    func validate() throws {
        if let trimRatio, !(trimRatio > 0 && trimRatio <= 1) {
            throw ValidationError("--trim-ratio must be greater than 0 and at most 1, e.g. 0.7")
        }
        if reading.file.columns != nil, trace == nil {
            throw ValidationError("--columns applies to a --trace in libCacheSim's CSV format")
        }
        if policy != nil, clients.isSet {
            throw ValidationError(
                "--policy is a single tier's; with --client or --memory-policy/--disk-policy each tier names its own")
        }
        _ = try policies()
        _ = try ttlMilliseconds()
        _ = try admission.filter()
        try OutputPath.checkFile(out, option: "--out")
        if mode == .sim, live.isSet {
            throw ValidationError(
                "--server, --speed, --concurrency, --store, --record and the server options need --mode live")
        }
        if mode == .live, sizeMode == .unit {
            throw ValidationError("--mode live counts bytes: --size-mode unit is for the simulator only")
        }
        let offline =
            [clients.memoryPolicy, clients.diskPolicy].compactMap { $0 } + (mode == .live ? try policies() : [])
        if let kind = offline.first(where: \.needsFuture) {
            throw ValidationError(Self.needsFutureMessage(kind))
        }
        if vsOpt, clients.isSet || mode == .live {
            throw ValidationError(
                "--vs-opt compares with Belady, which needs each request's next use; it runs only in the simulator (--mode sim, single tier)"
            )
        }
    }

    /// What the CLI says when a policy that needs the future is asked of a client or a live replay.
    static func needsFutureMessage(_ kind: PolicyKind) -> String {
        "\(kind.rawValue) needs the whole trace in advance; it runs only in the simulator (--mode sim, single tier)"
    }

    func run() async throws {
        (capacities.notes(sizeMode: sizeMode) + clients.notes).forEach(Output.status)
        let source = try reading.source(path: trace)
        let request = try runRequest()
        do { try source.checkRereadable() } catch { throw CLIError(error) }
        if mode == .live, sharding.shard != nil || sharding.shardCount != nil {
            throw CLIError("--mode live replays through the real client on this machine: it cannot be sharded")
        }
        if mode == .sim, let shard = try sharding.resolved() {
            guard let outDir else { throw CLIError("a shard writes its cells to a folder: give --out-dir") }
            let plan = try request.sweep(on: source, command: Output.commandLine(), output: format.rawValue)
            return try await Execution.shard(plan, shard, outDir: outDir, jobs: jobs, what: "run")
        }
        if mode == .live { return try await runLive(source, request) }
        let outcome = try await Execution.run(request.plan(on: source), jobs: jobs, what: "run")
        for optimum in outcome.optimum {
            Output.status(
                "belady at \(optimum.cache.capacity) (the optimum for --vs-opt): \(Report.grouped(optimum.hits)) hits")
        }
        try format.write(outcome.results, to: out)
    }

    /// What to replay, from the options.
    func runRequest() throws -> RunRequest {
        RunRequest(
            policies: try policies(),
            capacities: try capacities.list(defaultPoints: 10, defaultList: trace == nil ? "512KiB" : "10%"),
            sizeMode: sizeMode, ttl: try ttlMilliseconds(), ttlMode: ttlMode, trimRatio: trimRatio,
            network: network.network, tier: tier, latency: latency, versusOptimum: vsOpt,
            clients: try clients.requests(), memoryCost: clients.memoryCost, admission: try admission.filter())
    }

    /// Replays every configuration asked for through the real pipeline, one after another.
    private func runLive(_ source: TraceSource, _ request: RunRequest) async throws {
        let trace = try TraceLoading.load(source)
        let statistics = TraceStatistics(trace)
        Output.detail(TraceLoading.describe(source.name, statistics))
        let configurations: [ClientConfiguration]
        do { configurations = try request.liveClients(statistics) } catch { throw CLIError("\(error)") }
        if live.store != nil, configurations.count > 1 {
            throw CLIError("--store keeps one run's disk tier; this asks for \(configurations.count) runs")
        }
        if live.record != nil, configurations.count > 1 {
            throw CLIError("--record records one run; this asks for \(configurations.count) runs")
        }
        var options = try live.options()
        if let folder = live.record {
            do {
                options.recorder = try TraceRecorder(directory: URL(fileURLWithPath: folder))
            } catch {
                throw CLIError("\(error)")
            }
        }
        options.progress = { finished, total in
            if finished % 10_000 == 0 { Output.detail("  \(finished) of \(total) requests") }
        }
        let runs = try await LiveServer.verify(
            trace, clients: configurations, options: options, server: live.server,
            configuration: try live.serverConfiguration(network: configurations[0].network)
        ) { run in
            Output.status(Emitter.describe(run, trace: trace))
        }
        if let recorder = options.recorder {
            let summary = try await recorder.close()
            Output.status(
                "recorded \(summary.records) lookups and events in \(summary.parts.count) part\(summary.parts.count == 1 ? "" : "s") in \(recorder.directory.path)"
            )
        }
        try format.write(runs.map(\.live.run), to: out)
        let notWhole = runs.reduce(0) { $0 + $1.live.notWhole }
        if notWhole > 0 {
            throw CLIError("\(notWhole) answers were not whole images: the pipeline served a partial or corrupt image")
        }
    }

    func policies() throws -> [PolicyKind] {
        // A live replay runs a real client, which cannot run a policy that needs the future.
        try ListOptions.policies(policy ?? "lru", onlineOnly: mode == .live)
    }

    func ttlMilliseconds() throws -> Int64? {
        guard let ttl else { return nil }
        do { return try Quantity.milliseconds(parsing: ttl) } catch { throw ValidationError("--ttl: \(error)") }
    }
}
