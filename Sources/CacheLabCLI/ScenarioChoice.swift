import ArgumentParser
import CacheLab

/// The generated scenario a command replays when no trace file is given: its name and seed shown,
/// the knobs that adjust it behind --help-hidden (`trace generate --help` shows them).
struct ScenarioChoice: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Generated scenario (`cachelab trace generate --help` describes each), or zipf.",
            valueName: "name"))
    var scenario = ScrollScenario.defaultName

    @Option(help: "Seed; the same scenario and seed give the same trace.")
    var seed: UInt64 = 1

    @OptionGroup(visibility: .hidden) var knobs: ScenarioKnobs

    func validate() throws { _ = try knobs.scrollScenario(scenario, seed: seed) }

    /// The generated trace: a Zipf trace streams; a scroll scenario is made in memory.
    func makeSource() throws -> TraceSource { try knobs.makeSource(scenario, seed: seed) }
}
