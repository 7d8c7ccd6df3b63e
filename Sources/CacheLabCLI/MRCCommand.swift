import ArgumentParser
import CacheEngine
import CacheLab

struct MRCCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mrc",
        abstract: "Miss-ratio curves: every policy asked for, at many capacities, one CSV line per (policy, capacity).",
        discussion: """
            Capacities are a list (--capacity 1%,2%,5%,10MB) or a range: --from, --to and --points, \
            spaced evenly on a log scale (or --spacing linear). The default is 20 points from 1% to \
            100% of the trace's working set.

            LRU's curve comes from one pass over the trace: a request hits a cache of capacity C \
            exactly when its own size plus the sizes of the distinct objects requested since its \
            previous request is at most C (its stack distance), so every capacity is read off the \
            same pass, and equals `cachelab run --policy lru` at each of them (method "stack"). In \
            bytes mode that needs every object to keep one size; when a trace's sizes change, LRU \
            is replayed per capacity like the other policies (method "simulated").

            --sample-rate R keeps only the objects whose hashed id falls in a share R of the hash \
            space (SHARDS, Waldspurger et al., FAST 2015): LRU's distances are scaled by 1/R, other \
            policies replay the sample through a cache R times smaller. Error against the exact \
            curve is in the DocC article Using cachelab; 0.01 suits traces of tens of millions of requests.

            Every curve comes from one pass over the trace (a stack pass for LRU, a cache per \
            capacity for the others, all fed chunk by chunk), the caches spread over the cores \
            (--jobs), with progress when stderr is a terminal. A trace file is streamed, plain or \
            .zst; capacities given as shares (the default range) cost a pass to measure the working \
            set first. The stack pass keeps about 40 bytes per distinct object; in bytes mode, if \
            an object's size changes, LRU's points are replayed in a second pass. \
            \(HelpText.nextUses)

            Example: cachelab mrc --policy lru,s3fifo,arc --trace traces/feed-10k.csv --format csv
            """
    )

    @Option(help: ArgumentHelp("Policies, comma-separated, or 'all'.", valueName: "name[,name...]"))
    var policy = "lru"

    @OptionGroup(title: "Capacities") var capacities: CapacityOptions

    @Option(help: "Count capacity in bytes, or in objects (every object costs 1).")
    var sizeMode: SizeMode = .bytes

    @Option(help: "disk survives relaunches; memory is emptied by each relaunch event.")
    var tier: TierKind = .disk

    @Option(
        help: ArgumentHelp(
            "Sample this share of the objects (0 < rate ≤ 1), e.g. 0.01, for big traces (SHARDS).", valueName: "rate"))
    var sampleRate: Double?

    @Option(help: ArgumentHelp("Trace file (default: the built-in recipe-list scenario).", valueName: "path"))
    var trace: String?

    @OptionGroup var reading: TraceReadingOptions

    @OptionGroup var jobs: JobOptions

    @Option(help: "Output: a table for people or CSV for scripts (stdout then holds only CSV).")
    var format: OutputFormat = .table

    @Option(
        help: ArgumentHelp(
            "Write the output to this file instead of stdout (whole or not at all: never a partial file).",
            valueName: "path"))
    var out: String?

    @OptionGroup(title: "Sharding: a sweep split over a cluster's tasks") var sharding: ShardOptions

    @Option(
        help: ArgumentHelp(
            "With --shard (or a job array's environment): the folder the shard's cells go to, for `cachelab merge`.",
            valueName: "path"))
    var outDir: String?

    func validate() throws {
        _ = try ListOptions.policies(policy)
        try OutputPath.checkFile(out, option: "--out")
        if let sampleRate, !(sampleRate > 0 && sampleRate <= 1) {
            throw ValidationError("--sample-rate must be greater than 0 and at most 1, e.g. 0.01")
        }
    }

    func run() async throws {
        capacities.notes(sizeMode: sizeMode).forEach(Output.status)
        let source = try reading.source(path: trace)
        let request = MissRatioCurve.Request(
            policies: try ListOptions.policies(policy), capacities: [], sizeMode: sizeMode, tier: tier,
            sampleRate: sampleRate)
        let plan = try request.sweep(
            source, capacities: try capacities.list(defaultPoints: 20), command: Output.commandLine(),
            output: format.rawValue)
        if let shard = try sharding.resolved() {
            guard let outDir else { throw CLIError("a shard writes its cells to a folder: give --out-dir") }
            return try await Execution.shard(plan, shard, outDir: outDir, jobs: jobs, what: "mrc")
        }
        let sampleRate = sampleRate
        let outputs = try await Execution.sweep(plan, jobs: jobs, what: "mrc") { name, statistics in
            Execution.describe(name, statistics)
            if let sampleRate, sampleRate < 1, Double(statistics.uniqueObjects) * sampleRate < 1_000 {
                Output.status(
                    "warning: --sample-rate \(sampleRate) keeps about \(Int(Double(statistics.uniqueObjects) * sampleRate)) of \(statistics.uniqueObjects) objects; SHARDS needs thousands in its sample, so expect errors well over 0.05 (README: Miss-ratio curves)"
                )
            }
        }
        try format.write(plan.manifest.curve(outputs), to: out)
    }
}
