import ArgumentParser
import CacheLab
import FixtureServer
import LiveReplay
import LiveServer

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

/// The options only `cachelab run --mode live` has.
struct LiveRunOptions: ParsableArguments {
    @OptionGroup var replay: LiveReplayOptions

    @Option(
        help: ArgumentHelp(
            "A fixture server already serving the trace (`cachelab serve --trace FILE`); default: one started in this process.",
            valueName: "url"))
    var server: String?

    @Option(
        help: ArgumentHelp(
            "Replay trace time this many times faster (1 = real time); the in-process server then answers as --network would, sped up as much, so delayed hits match the simulator's. Default: as fast as the pipeline answers.",
            valueName: "factor"))
    var speed: Double?

    @Option(
        help: ArgumentHelp(
            "With --speed: pace no gap between requests longer than this (a night between sessions), so a month replays in minutes; the trace's times are unchanged.",
            valueName: "duration"))
    var maxGap: String?

    @Option(
        help: ArgumentHelp(
            "With --speed: how far the live timing may stray from the trace's and the modelled downloads' (wall clock); a request closer than this to its photo's download end may be a delayed hit or a hit and still agree with the simulator.",
            valueName: "duration"))
    var timingMargin = "25ms"

    @Option(
        help: ArgumentHelp(
            "The disk tier's SQLite file (kept after the run); default: a temporary file, removed.", valueName: "path"))
    var store: String?

    @Option(
        help: ArgumentHelp(
            "Record the run as an app's TraceRecorder would, into this folder (then `cachelab trace import FOLDER`).",
            valueName: "folder"))
    var record: String?

    func validate() throws {
        if let speed, !(speed > 0) { throw ValidationError("--speed must be greater than 0, e.g. 10") }
        if maxGap != nil, speed == nil { throw ValidationError("--max-gap paces --speed; give --speed too") }
        _ = try maxGapMilliseconds()
        _ = try timingMarginMicroseconds()
        if let server, !(server.hasPrefix("http://") || server.hasPrefix("https://")) {
            throw ValidationError("--server takes a base URL, e.g. http://127.0.0.1:8080")
        }
    }

    /// The library's options for one run.
    func options() throws -> LiveOptions {
        var options = try replay.options()
        options.speed = speed
        options.maxGap = try maxGapMilliseconds()
        options.timingJitter = .microseconds(try timingMarginMicroseconds())
        options.diskPath = store
        return options
    }

    /// Whether any live-only option was given (they need --mode live).
    var isSet: Bool {
        replay.isSet || server != nil || speed != nil || maxGap != nil || store != nil || record != nil
            || timingMargin != "25ms"
    }

    /// The in-process fixture server's shaping and faults. Paced by `--speed`, and with no
    /// `--server-latency`, it answers as `network` would: its round trip before each response and
    /// its bandwidth per body, both sped up by `--speed`, so downloads last what the simulator
    /// models and delayed hits can be compared.
    func serverConfiguration(network: NetworkProfile) throws -> FixtureConfiguration {
        var configuration = try replay.serverConfiguration()
        if let speed, replay.serverLatency == 0 { configuration.shape(like: network, speed: speed) }
        return configuration
    }

    /// `--timing-margin` in microseconds.
    func timingMarginMicroseconds() throws -> Int64 {
        guard let milliseconds = try? Quantity.milliseconds(parsing: timingMargin), milliseconds >= 0 else {
            throw ValidationError("--timing-margin takes a duration, e.g. 25ms")
        }
        return milliseconds * 1_000
    }

    /// `--max-gap` in milliseconds.
    func maxGapMilliseconds() throws -> Int64? {
        guard let maxGap else { return nil }
        guard let milliseconds = try? Quantity.milliseconds(parsing: maxGap), milliseconds >= 0 else {
            throw ValidationError("--max-gap takes a duration, e.g. 5s or 100ms")
        }
        return milliseconds
    }
}

extension FaultKind {
    /// Fault kinds from a comma-separated list, or every kind for "all".
    static func parseList(_ text: String) throws -> [FaultKind] {
        if text == "all" { return FaultKind.allCases }
        return try text.split(separator: ",").map { name in
            guard let kind = FaultKind(rawValue: String(name)) else {
                throw ValidationError(
                    "unknown fault '\(name)': use \(FaultKind.allCases.map(\.rawValue).joined(separator: ", ")) or all")
            }
            return kind
        }
    }
}
