import ArgumentParser
import CacheLab

/// The traces a sweep runs on (`compare`, `tune`): files given with `--trace`, streamed, or the
/// scroll scenarios generated at `--seed` (at seed 1, byte for byte the committed
/// `traces/NAME.csv`).
struct TraceSetOptions: ParsableArguments {
    @Option(
        name: .customLong("trace"),
        help: ArgumentHelp(
            "A trace file (any format, plain or .zst) or a recording's folder; repeat for several (default: the scroll scenarios).",
            valueName: "path"))
    var traces: [String] = []

    @Option(
        help: ArgumentHelp(
            "Scroll scenarios to generate when no --trace is given, comma-separated, or 'all': \(ScrollScenario.presets.map(\.name).joined(separator: ", ")).",
            valueName: "name[,name...]"))
    var scenario = "all"

    @Option(help: "Seed of the generated scenarios.")
    var seed: UInt64 = 1

    @OptionGroup(title: "Reading --trace files") var file: TraceFileOptions

    func validate() throws {
        _ = try scenarios()
        if !traces.isEmpty, scenario != "all" {
            throw ValidationError("give either --trace files or --scenario names, not both")
        }
        if traces.isEmpty, file.traceFormat != nil || file.columns != nil || file.computeNextUses {
            throw ValidationError("--trace-format, --columns and --compute-next-uses apply to --trace files")
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

    /// The traces: files as streams, generated scenarios in memory (named after the scenario).
    func sources() throws -> [TraceSource] {
        guard traces.isEmpty else {
            return try traces.map { try file.source(path: $0) }
        }
        return try scenarios().map { scenario in
            var trace = scenario.makeTrace()
            trace.name = scenario.name
            return TraceSource(trace)
        }
    }
}
