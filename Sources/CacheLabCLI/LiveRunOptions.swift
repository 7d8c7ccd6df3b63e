import ArgumentParser
import CacheLab
import ClientModel
import FixtureServer
import LiveReplay
import LiveServer

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
