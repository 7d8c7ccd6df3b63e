import ArgumentParser
import CacheLab

/// How a command spreads its work: shared by every command that executes run plans.
struct JobOptions: ParsableArguments {
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Cores replaying at once.",
            valueName: "n"))
    var jobs = ParallelSweep.defaultWorkers

    @Flag(help: "No progress line, even on a terminal.")
    var noProgress = false

    @Flag(help: "Timings on stderr in a pipe too.")
    var verbose = false

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
        Output.verbose.store(verbose, ordering: .relaxed)
    }

    /// Whether to draw progress: on a terminal, unless asked not to.
    var showsProgress: Bool { !noProgress && ProgressBar.onTerminal }
}
