import ArgumentParser
import FixtureServer

/// Faults the in-process fixture server of a live replay injects into photo requests. (`serve`
/// declares its own: there they reach the recipe lists too.)
struct FaultOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Chance per photo request of an injected fault (0...1).", valueName: "rate"))
    var faultRate = 0.0

    @Option(help: ArgumentHelp("Fault kinds, comma-separated, or 'all'.", valueName: "kind[,kind...]"))
    var faults = "all"

    func validate() throws {
        guard (0...1).contains(faultRate) else { throw ValidationError("--fault-rate must be in 0...1, e.g. 0.1") }
        _ = try FaultKind.parseList(faults)
    }

    func kinds() throws -> [FaultKind] { try FaultKind.parseList(faults) }

    var isSet: Bool { faultRate != 0 || faults != "all" }
}
