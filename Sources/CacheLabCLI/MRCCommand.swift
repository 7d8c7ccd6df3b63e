import ArgumentParser
import CacheLab

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

struct MRCCommand: ParsableCommand {
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
            curve is in the README; 0.01 suits traces of tens of millions of requests.

            Every replay runs in parallel on all cores (--jobs), with a progress bar when stderr is \
            a terminal.

            Example: cachelab mrc --policy lru,s3fifo,arc --trace traces/feed-10k.csv --format csv
            """
    )

    @Option(help: ArgumentHelp("Policies, comma-separated, or 'all'.", valueName: "name[,name...]"))
    var policy = "lru"

    @Option(
        help: ArgumentHelp(
            "Capacities, comma-separated: bytes (4096), units (20MB, 512KiB), objects in unit mode, or shares of the working set (10%).",
            valueName: "size[,size...]"))
    var capacity: String?

    @Option(help: ArgumentHelp("Smallest capacity of the range (default 1%).", valueName: "size"))
    var from: String?

    @Option(help: ArgumentHelp("Largest capacity of the range (default 100%).", valueName: "size"))
    var to: String?

    @Option(help: "Capacities in the range, both ends included.")
    var points = 20

    @Option(help: "Space the range's capacities evenly on a log or a linear scale.")
    var spacing: Spacing = .log

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

    @Option(help: "Replays at once (default: every core).")
    var jobs = ParallelSweep.defaultWorkers

    @Flag(help: "No progress bar, even on a terminal.")
    var noProgress = false

    @Option(help: "Output: a table for people or CSV for scripts (stdout then holds only CSV).")
    var format: OutputFormat = .table

    @Option(help: ArgumentHelp("Write the output to this file instead of stdout.", valueName: "path"))
    var out: String?

    enum Spacing: String, CaseIterable, ExpressibleByArgument {
        case log
        case linear
    }

    func validate() throws {
        _ = try ListOptions.policies(policy)
        if capacity != nil, from != nil || to != nil {
            throw ValidationError("give either --capacity or a range (--from/--to/--points), not both")
        }
        if let capacity { _ = try ListOptions.capacities(capacity) }
        if let from { _ = try ListOptions.capacity(from, option: "--from") }
        if let to { _ = try ListOptions.capacity(to, option: "--to") }
        guard points >= 1 else { throw ValidationError("--points must be at least 1") }
        if let sampleRate, !(sampleRate > 0 && sampleRate <= 1) {
            throw ValidationError("--sample-rate must be greater than 0 and at most 1, e.g. 0.01")
        }
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
    }

    func run() throws {
        let loaded = try reading.load(path: trace)
        let statistics = TraceStatistics(loaded)
        Output.status(
            "trace \(loaded.name): \(statistics.requests) requests, \(statistics.uniqueObjects) objects, working set \(statistics.workingSetBytes) bytes"
        )
        let capacities = try resolvedCapacities(statistics)
        let policies = try ListOptions.policies(policy)
        let request = MissRatioCurve.Request(
            policies: policies, capacities: capacities, sizeMode: sizeMode, tier: tier, sampleRate: sampleRate)
        if let sampleRate, sampleRate < 1, Double(statistics.uniqueObjects) * sampleRate < 1_000 {
            Output.status(
                "warning: --sample-rate \(sampleRate) keeps about \(Int(Double(statistics.uniqueObjects) * sampleRate)) of \(statistics.uniqueObjects) objects; SHARDS needs thousands in its sample, so expect errors well over 0.05 (README: Miss-ratio curves)"
            )
        }
        if policies.contains(.lru), !MissRatioCurve.stackApplies(to: loaded, sizeMode: sizeMode) {
            Output.status("lru: object sizes change within this trace, so its points are replayed one by one")
        }

        let start = Output.monotonicSeconds()
        let bar = ProgressBar("mrc", enabled: !noProgress && ProgressBar.onTerminal)
        let points = MissRatioCurve.compute(loaded, request, workers: jobs, progress: bar.update)
        let seconds = Output.monotonicSeconds() - start
        Output.status(
            "\(points.count) points (\(policies.count) policies × \(capacities.count) capacities) in \(Report.decimal(seconds, places: 2)) s on \(jobs) cores"
        )
        let text = format == .csv ? Report.curveCSV(points) : Report.curveTable(points)
        try Output.result(text, to: out)
        if let out { Output.status("wrote \(out)") }
    }

    /// The capacities asked for, resolved for this trace, ascending and distinct.
    func resolvedCapacities(_ statistics: TraceStatistics) throws -> [Int] {
        let specs: [CapacitySpec]
        if let capacity {
            specs = try ListOptions.capacities(capacity)
        } else {
            var low = try ListOptions.capacity(from ?? "1%", option: "--from").resolved(for: statistics, mode: sizeMode)
            // The default's 1 % rounds to nothing on a small trace in unit mode: start at 1.
            if from == nil { low = max(low, 1) }
            let high = try ListOptions.capacity(to ?? "100%", option: "--to").resolved(for: statistics, mode: sizeMode)
            guard low >= 1 else {
                throw ValidationError("--from \(from ?? "1%") is 0 for this trace; give a larger share or a size")
            }
            guard high >= low else { throw ValidationError("--to must not be smaller than --from") }
            specs = Self.range(from: low, to: high, points: points, spacing: spacing).map { .absolute($0) }
        }
        var resolved: [Int] = []
        for spec in specs {
            let amount = spec.resolved(for: statistics, mode: sizeMode)
            guard amount >= 1 else {
                throw ValidationError("--capacity \(spec) is 0 for this trace; give a larger share or a size")
            }
            resolved.append(amount)
        }
        return Array(Set(resolved)).sorted()
    }

    /// `points` capacities from `low` to `high`, both included, evenly spaced on the scale asked
    /// for and rounded to the nearest (duplicates, on small ranges, are dropped by the caller).
    static func range(from low: Int, to high: Int, points: Int, spacing: Spacing) -> [Int] {
        guard points > 1, high > low else { return [low] }
        return (0..<points).map { index in
            if index == points - 1 { return high }
            let fraction = Double(index) / Double(points - 1)
            switch spacing {
            case .linear:
                return low + Int((Double(high - low) * fraction).rounded())
            case .log:
                return max(low, Int((Double(low) * pow(Double(high) / Double(low), fraction)).rounded()))
            }
        }
    }
}
