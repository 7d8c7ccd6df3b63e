import ArgumentParser
import CacheLab

struct TraceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trace",
        abstract: "Make and inspect traces.",
        subcommands: [GenerateTrace.self, TraceStats.self]
    )
}

struct GenerateTrace: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write a generated trace in cachelab's or libCacheSim's formats.",
        discussion: """
            Scenarios:
              recipe-scroll  one person scrolling a 63-recipe list over ten days (the default of `cachelab run`)
              zipf           independent requests with Zipf popularity (--requests, --objects, --alpha)
            The same scenario and seed always give a byte-identical file.
            """
    )

    enum Scenario: String, CaseIterable, ExpressibleByArgument {
        case recipeScroll = "recipe-scroll"
        case zipf
    }

    @Option(help: "Which generator to run.")
    var scenario: Scenario = .recipeScroll

    @Option(help: "Seed; the same seed gives the same trace.")
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("File to write.", valueName: "path"))
    var out: String

    @Option(
        help:
            "Format to write. Default: cachelab's own (keeps URLs and events), or libCacheSim's txt or oracle-general when --out ends in .txt or .oracleGeneral.bin; libCacheSim's csv only when asked."
    )
    var format: TraceFormat?

    @Option(help: "zipf: number of requests.")
    var requests = 1_000_000

    @Option(help: "zipf: number of distinct objects.")
    var objects = 100_000

    @Option(help: "zipf: skew (0 = uniform; 0.6 to 1.2 is typical of web objects).")
    var alpha = 0.9

    func validate() throws {
        guard requests > 0, objects > 0 else { throw ValidationError("--requests and --objects must be positive") }
        guard alpha >= 0, alpha.isFinite else { throw ValidationError("--alpha must be a number ≥ 0") }
    }

    func run() throws {
        let trace: Trace
        switch scenario {
        case .recipeScroll: trace = RecipeScrollScenario(seed: seed).makeTrace()
        case .zipf: trace = SyntheticTrace.zipf(requests: requests, objects: objects, alpha: alpha, seed: seed)
        }
        // A .csv name alone keeps cachelab's format: it is CSV too, and libCacheSim's CSV would
        // drop the URLs and the events.
        let inferred = TraceFormat.inferred(fromPath: out)
        let chosen = format ?? (inferred == .csv ? .cachelab : inferred ?? .cachelab)
        do {
            try TraceWriter.write(trace, format: chosen, to: out)
        } catch {
            throw CLIError("cannot write \(out): \(error)")
        }
        Output.status("wrote \(trace.count) requests and \(trace.events.count) events to \(out) (\(chosen.rawValue))")
    }
}

struct TraceStats: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Print a trace's requests, unique objects and working set."
    )

    @Argument(help: ArgumentHelp("Trace file (default: the built-in scenario).", valueName: "path"))
    var path: String?

    @OptionGroup var reading: TraceReadingOptions

    func run() throws {
        let trace = try reading.load(path: path)
        let statistics = TraceStatistics(trace)
        let rows = [
            ["trace", trace.name],
            ["requests", String(statistics.requests)],
            ["unique objects", String(statistics.uniqueObjects)],
            ["working set bytes", String(statistics.workingSetBytes)],
            ["bytes requested", String(statistics.bytesRequested)],
            ["events", String(statistics.events)],
        ]
        print(rows.map { $0[0].padding(18) + $0[1] }.joined(separator: "\n"))
    }
}
