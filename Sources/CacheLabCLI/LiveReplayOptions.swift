import ArgumentParser
import FixtureServer
import LiveReplay

/// The real client and the in-process fixture server of a live replay: shared by
/// `run --mode live` and `compare --live`.
struct LiveReplayOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Requests in flight at most, like a list's rows loading at once.", valueName: "count"))
    var concurrency = 32

    @Option(help: ArgumentHelp("Seconds without data before a download fails.", valueName: "seconds"))
    var timeout = 30.0

    @Option(help: ArgumentHelp("In-process server: latency added to every response.", valueName: "ms"))
    var serverLatency = 0

    @Option(help: ArgumentHelp("In-process server: seed of its photo bytes and fault draws.", valueName: "seed"))
    var serverSeed: UInt64 = 1

    @OptionGroup var faults: FaultOptions

    func validate() throws {
        guard concurrency >= 1 else { throw ValidationError("--concurrency must be at least 1, e.g. 32") }
        guard serverLatency >= 0 else { throw ValidationError("--server-latency is milliseconds ≥ 0") }
        guard timeout > 0 else { throw ValidationError("--timeout must be greater than 0 seconds") }
    }

    /// Whether any of these options was given (they need a live replay).
    var isSet: Bool {
        concurrency != 32 || timeout != 30 || serverLatency != 0 || serverSeed != 1 || faults.isSet
    }

    /// The library's options for one run.
    func options() throws -> LiveOptions {
        var options = LiveOptions()
        options.concurrency = concurrency
        options.timeout = timeout
        options.connectionsPerHost = min(max(concurrency, 1), 64)
        return options
    }

    /// The in-process fixture server's shaping and faults.
    func serverConfiguration() throws -> FixtureConfiguration {
        var configuration = FixtureConfiguration()
        configuration.seed = serverSeed
        configuration.latency = .milliseconds(serverLatency)
        configuration.faults = .spread(faults.faultRate, over: try faults.kinds())
        // A drip sends 1 KiB every 20 ms by default: seconds per large photo. Keep live runs moving.
        configuration.dripInterval = .milliseconds(2)
        return configuration
    }
}
