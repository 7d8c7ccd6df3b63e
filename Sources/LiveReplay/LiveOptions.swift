import CacheLabRecorder
import Foundation

/// How a live replay runs.
public struct LiveOptions: Sendable {
    /// Trace time runs this many times faster than recorded; `nil` issues requests as fast as the
    /// pipeline takes them, each download handed over when the simulator's latency model says it
    /// ends (before the first request at or after that trace time), so every outcome is the
    /// simulator's.
    public var speed: Double?
    /// With `speed`: the longest wait between two requests, in trace milliseconds; longer gaps (a
    /// night between sessions) are paced as this long, so a month replays in minutes. The trace's
    /// own times, which the tiers see, are unchanged.
    public var maxGap: Int64?
    /// With `speed`: how far, in wall-clock time, a paced request or a download may stray from
    /// the trace's time and the simulator's modelled download (scheduling, the loopback, URLSession
    /// and the server's own work). A request whose simulated time lies closer than this, scaled
    /// to trace time, to the end of its image's download may be a delayed hit or a hit and still
    /// agree (`OutcomeAgreement`). 25 ms is a chosen bound, not a measurement; how far paced
    /// replays actually stray, quiet and busy, is measured in the DocC article Live replay and
    /// the fixture server, with its command.
    public var timingJitter = Duration.milliseconds(25)
    /// Requests in flight at most: the rows of a list loading at once.
    public var concurrency = 32
    /// Connections the downloader opens to the server at once.
    public var connectionsPerHost = 16
    /// Seconds without data before a download fails.
    public var timeout: TimeInterval = 30
    /// The disk tier's SQLite file; `nil` makes one in a temporary directory and removes it after.
    public var diskPath: String?
    /// Called now and then with the requests finished and the total.
    public var progress: (@Sendable (_ finished: Int, _ total: Int) -> Void)?
    /// Records the run as an app would: the pipeline records each request it serves, the replay
    /// each event of the trace once the requests before it are answered (`cachelab run --mode
    /// live --record FOLDER`). Close it after the run.
    public var recorder: TraceRecorder?

    public init() {}

    /// `timingJitter` in microseconds of trace time when the replay is paced; 0 when it is not,
    /// as each download is then handed over at its modelled end (`LiveDriver`) and every outcome
    /// must be the simulator's.
    public var timingMargin: Int {
        guard let speed else { return 0 }
        let (seconds, attoseconds) = timingJitter.components
        return Int((Double(seconds) * 1e6 + Double(attoseconds) / 1e12) * speed)
    }
}
