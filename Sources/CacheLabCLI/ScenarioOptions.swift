import ArgumentParser
import CacheLab

/// Which generated trace to make: a named scroll scenario, adjusted by any of the knobs, or a
/// Zipf trace (`trace generate`, which shows every knob).
struct ScenarioOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Generated scenario: \(ScrollScenario.presets.map(\.name).joined(separator: ", ")), or zipf.",
            valueName: "name"))
    var scenario = ScrollScenario.defaultName

    @Option(help: "Seed; the same scenario and seed give the same trace.")
    var seed: UInt64 = 1

    @OptionGroup var knobs: ScenarioKnobs

    func validate() throws { _ = try knobs.scrollScenario(scenario, seed: seed) }

    /// The generated trace: a Zipf trace streams; a scroll scenario is made in memory.
    func makeSource() throws -> TraceSource { try knobs.makeSource(scenario, seed: seed) }
}
