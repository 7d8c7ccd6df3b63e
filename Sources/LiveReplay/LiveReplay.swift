import CacheLab
import CacheLabRecorder
import FixtureServer
import Foundation
import RecipeClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How a live replay runs.
public struct LiveOptions: Sendable {
    /// The base URL of a running fixture server that serves the trace's objects
    /// (`cachelab serve --trace FILE`); `nil` starts one in this process.
    public var server: String?
    /// Latency, bandwidth and faults of the in-process server.
    public var serverConfiguration = FixtureConfiguration()
    /// Trace time runs this many times faster than recorded; `nil` issues requests as fast as the
    /// pipeline takes them.
    public var speed: Double?
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
}

/// What a live replay measured.
public struct LiveResult: Sendable {
    /// The same counts as a simulated run, from the live outcomes; `outcomes` holds each one.
    /// `bytesDownloaded` is what the client received from the network, `latency` wall-clock.
    public var run: RunResult
    /// The first few errors, in trace order.
    public var firstErrors: [String] = []
    /// The pipeline's own counts, summed over launches.
    public var pipeline = ImagePipeline.Stats()
    /// Wall-clock seconds from the first request to the last answer.
    public var seconds = 0.0
    /// Faults the server injected during the run, by `FaultKind.rawValue`.
    public var faultsInjected: [String: Int] = [:]
    /// Images the pipeline answered with that were not a whole image (`ImageFormat.whole`), from
    /// any tier: every answer is checked, and anything but 0 is a bug.
    public var notWhole = 0

    public var requestsPerSecond: Double { seconds > 0 ? Double(run.requests) / seconds : 0 }
    /// What only a live run measures: failures, the server's counts, latency by source.
    public var live: LiveMeasurements { run.live ?? LiveMeasurements() }
    /// Requests whose download failed.
    public var failures: Int { live.failures }
    /// Body bytes the server counted during the run.
    public var serverBytes: Int { live.serverBytes }
}

/// Why a live replay could not run.
public enum LiveReplayError: Error, CustomStringConvertible {
    case serverUnreachable(url: String, reason: String)
    case unsupported(String)

    public var description: String {
        switch self {
        case .serverUnreachable(let url, let reason):
            "cannot read \(url)/stats (\(reason)); is `cachelab serve --trace FILE` running there?"
        case .unsupported(let reason): reason
        }
    }
}

/// Replays a trace through the real client's image pipeline (memory tier, SQLite disk tier,
/// URLSession) against a fixture server over loopback HTTP, with wall-clock latency.
///
/// Requests are made in trace order, up to `concurrency` at once, paced by `speed`. The pipeline
/// serves them in that order (`ImagePipeline`), so each request's outcome is the one the
/// simulator gives it: `Replay.simulate(trace, client:)` is the reference. App events apply
/// between requests, once the earlier ones are answered: a relaunch tears the pipeline down and
/// opens a new one on the same SQLite file; other events go through `ClientLifecycle`.
public enum LiveReplay {
    /// The origin of every image URL the pipeline sees: the tiers key images by this stable URL
    /// (a scroll trace's own), and the downloader fetches it from the fixture server instead, so
    /// a disk tier kept with `diskPath` is found again by the next run, whatever port it gets.
    public static let origin = "https://recipes.example"

    public static func run(
        _ trace: Trace, client: ClientConfiguration, options: LiveOptions
    ) async throws
        -> LiveResult
    {
        guard client.sizeMode == .bytes else {
            throw LiveReplayError.unsupported("a live replay counts bytes: --size-mode unit is simulator-only")
        }
        // Before starting a server: a real client cannot know the future (Belady).
        try client.requireOnline()
        let objects = try TraceObjects(trace: trace)
        let server: FixtureServer?
        let baseURL: String
        if let url = options.server {
            server = nil
            baseURL = url.hasSuffix("/") ? String(url.dropLast()) : url
        } else {
            server = try await FixtureServer.start(configuration: options.serverConfiguration, catalog: objects.catalog)
            baseURL = server!.baseURL
        }
        let scratch = options.diskPath == nil && client.disk != nil ? try TemporaryDirectory() : nil
        defer { scratch?.remove() }
        let diskPath = options.diskPath ?? scratch.map { "\($0.path)/images.sqlite" }
        do {
            let before = try await serverStats(server: server, baseURL: baseURL)
            var result = try await Driver(
                trace: trace, client: client, options: options, diskPath: diskPath, serverURL: baseURL,
                urls: { LiveReplay.origin + objects.path(of: $0) }
            ).run()
            let after = try await serverStats(server: server, baseURL: baseURL)
            var live = result.run.live ?? LiveMeasurements()
            live.serverRequests = after.photos.requests - before.photos.requests
            live.serverBytes = after.photos.bytes - before.photos.bytes
            result.run.live = live
            for (kind, count) in after.faults where count > before.faults[kind, default: 0] {
                result.faultsInjected[kind] = count - before.faults[kind, default: 0]
            }
            try await server?.stop()
            return result
        } catch {
            try? await server?.stop()
            throw error
        }
    }

    /// One live run, and how far the client's simulation agrees with it.
    public struct VerifiedRun: Sendable {
        public var live: LiveResult
        /// Requests whose outcome equals the simulated client's (`Replay.simulate(_:client:)`).
        public var agreeing: Int
    }

    /// Replays `trace` live through each client in turn, and checks every request's outcome
    /// against the client's simulation: the live execution of a plan of client cells.
    ///
    /// - Parameter each: called after each run, in order.
    public static func verify(
        _ trace: Trace, clients: [ClientConfiguration], options: LiveOptions,
        each: (VerifiedRun) -> Void = { _ in }
    ) async throws -> [VerifiedRun] {
        var runs: [VerifiedRun] = []
        for client in clients {
            let measured = try await run(trace, client: client, options: options)
            let simulated = Replay.simulate(trace, client: client, outcomes: true)
            let agreeing = zip(measured.run.outcomes, simulated.outcomes).count { $0 == $1 }
            runs.append(VerifiedRun(live: measured, agreeing: agreeing))
            each(runs[runs.count - 1])
        }
        return runs
    }

    // What the server has counted so far.
    private static func serverStats(server: FixtureServer?, baseURL: String) async throws -> FixtureStats {
        if let server { return await server.stats() }
        do {
            let (data, _) = try await URLSession.shared.data(from: URL(string: baseURL + "/stats")!)
            return try JSONDecoder().decode(FixtureStats.self, from: data)
        } catch {
            throw LiveReplayError.serverUnreachable(url: baseURL, reason: "\(error)")
        }
    }
}

/// One live run: the loop that makes requests and applies events.
private struct Driver {
    let trace: Trace
    let client: ClientConfiguration
    let options: LiveOptions
    let diskPath: String?
    let serverURL: String
    let urls: (UInt64) -> String

    private struct Answer: Sendable {
        var position: Int
        var outcome: RequestOutcome
        var microseconds: Int
        var error: String?
        var whole = true
    }

    func run() async throws -> LiveResult {
        let downloader = OriginRewritingDownloader(
            base: URLSessionImageDownloader(connectionsPerHost: options.connectionsPerHost, timeout: options.timeout),
            origin: LiveReplay.origin, server: serverURL)
        var result = LiveResult(run: RunResult(trace: trace.name, client: client))
        var outcomes = [RequestOutcome](repeating: .failed, count: trace.count)
        var latencies: [RequestOutcome: LatencyHistogram] = [:]
        var errors: [(position: Int, message: String)] = []
        var lifecycle = ClientLifecycle(client: client)
        let firstTime = trace.times.first ?? 0
        let expected = (client.memoryLimits ?? client.diskLimits!).initialEntries
        // The favourites' photos, as the app keeps them across launches.
        var favourites: Set<String> = []
        func open(at now: Int64) throws -> ImagePipeline {
            try ImagePipeline(
                client: client, diskPath: diskPath, downloader: downloader, at: now, expectedCount: expected,
                recorder: options.recorder, favourites: favourites)
        }
        var pipeline = try open(at: firstTime)
        var counters = TierCounters()
        let clock = ContinuousClock()
        let start = clock.now
        var finished = 0

        await withTaskGroup(of: Answer.self) { group in
            var inFlight = 0
            func take(_ answer: Answer) {
                outcomes[answer.position] = answer.outcome
                latencies[answer.outcome, default: LatencyHistogram()].record(microseconds: answer.microseconds)
                if let message = answer.error { errors.append((answer.position, message)) }
                if !answer.whole {
                    result.notWhole += 1
                    errors.append((answer.position, "request \(answer.position + 1) was answered with a partial image"))
                }
                inFlight -= 1
                finished += 1
                if finished % 1_000 == 0 { options.progress?(finished, trace.count) }
            }
            func drain() async {
                while let answer = await group.next() { take(answer) }
            }
            var nextEvent = 0
            func applyEvents(through position: Int) async {
                while nextEvent < trace.events.count, trace.events[nextEvent].position <= position {
                    let event = trace.events[nextEvent]
                    nextEvent += 1
                    let actions = lifecycle.actions(for: event)
                    // The pipeline records its pins itself.
                    if let recorder = options.recorder, !event.kind.takesKey {
                        // After the requests before it are served (and so recorded).
                        await drain()
                        recorder.recordEvent(TraceRecorder.Event(event.kind), at: event.time)
                    }
                    guard !actions.isEmpty else { continue }
                    await drain()
                    for action in actions {
                        do {
                            switch action {
                            case .relaunch:
                                result.run.relaunches += 1
                                await counters.add(pipeline)
                                pipeline = try open(at: event.time)
                            case .pin(let key):
                                result.run.favouriteEvents += 1
                                favourites.insert(urls(key))
                                try await pipeline.pin(urls(key), at: event.time)
                            case .unpin(let key):
                                result.run.favouriteEvents += 1
                                favourites.remove(urls(key))
                                try await pipeline.unpin(urls(key), at: event.time)
                            case .trimMemory, .sweepDisk:
                                try await pipeline.perform(action, at: event.time)
                            }
                        } catch {
                            errors.append((event.position, "\(event.kind) at \(event.time) ms: \(error)"))
                        }
                    }
                }
            }

            for position in 0..<trace.count {
                await applyEvents(through: position)
                if let speed = options.speed {
                    let due = start + .microseconds(Double(trace.times[position] - firstTime) * 1_000 / speed)
                    if due > clock.now { try? await Task.sleep(until: due, clock: clock) }
                }
                if inFlight >= options.concurrency, let answer = await group.next() { take(answer) }
                let request = await pipeline.request(
                    urls(trace.keys[position]), at: trace.times[position], pixels: trace.pixelSizes?[position] ?? 0)
                let issued = clock.now
                let current = pipeline
                group.addTask {
                    do {
                        let image = try await current.image(for: request)
                        return Answer(
                            position: position, outcome: image.source, microseconds: issued.microseconds(to: clock.now),
                            whole: ImageFormat.whole(image.bytes) != nil)
                    } catch {
                        return Answer(
                            position: position, outcome: .failed, microseconds: issued.microseconds(to: clock.now),
                            error: "\(error)")
                    }
                }
                inFlight += 1
            }
            await drain()
            await applyEvents(through: trace.count)
        }
        result.seconds = start.microseconds(to: clock.now).seconds
        await counters.add(pipeline)

        var run = result.run
        var tally = RunTally()
        for (position, outcome) in outcomes.enumerated() { tally.record(outcome, size: trace.sizes[position]) }
        tally.apply(to: &run, bytesDownloaded: counters.stats.bytesDownloaded)
        var live = run.live ?? LiveMeasurements()
        var total = LatencyHistogram()
        for (source, histogram) in latencies {
            live.latencyBySource[source] = histogram.summary()
            total.add(histogram)
        }
        live.failures = tally.failures
        run.live = live
        run.mode = .live
        run.evictions = counters.evictions
        run.expirations = counters.expirations
        run.pins = counters.pins
        run.memoryPeakCost = counters.peakMemoryCost
        run.diskPeakBytes = counters.peakDiskBytes
        run.latency = total.summary()
        run.outcomes = outcomes
        result.run = run
        result.pipeline = counters.stats
        result.firstErrors = errors.sorted { $0.position < $1.position }.prefix(5).map(\.message)
        return result
    }
}

/// Fetches `origin` URLs from the fixture server: the URL a tier keys an image by stays the
/// app's, the bytes come over loopback.
private struct OriginRewritingDownloader: ImageDownloading {
    let base: URLSessionImageDownloader
    let origin: String
    let server: String

    func download(_ url: String) async throws -> [UInt8] {
        guard url.hasPrefix(origin) else { return try await base.download(url) }
        return try await base.download(server + url.dropFirst(origin.count))
    }
}

/// The pipeline counts of every launch of a run, summed.
private struct TierCounters {
    var stats = ImagePipeline.Stats()
    var evictions = 0
    var expirations = 0
    var pins = PinSummary()
    var peakMemoryCost = 0
    var peakDiskBytes = 0

    mutating func add(_ pipeline: ImagePipeline) async {
        stats += await pipeline.stats
        let holdings = await pipeline.holdings
        evictions += holdings.evictions
        expirations += holdings.expirations
        pins.addLaunch(holdings.pins)
        peakMemoryCost = max(peakMemoryCost, holdings.peakMemoryCost)
        peakDiskBytes = max(peakDiskBytes, holdings.peakDiskBytes)
    }
}

/// A directory of its own under the system's temporary directory.
struct TemporaryDirectory {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "cachelab-live-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

extension ContinuousClock.Instant {
    fileprivate func microseconds(to end: ContinuousClock.Instant) -> Int {
        let elapsed = duration(to: end).components
        return Int(elapsed.seconds) * 1_000_000 + Int(elapsed.attoseconds / 1_000_000_000_000)
    }
}

extension Int {
    fileprivate var seconds: Double { Double(self) / 1_000_000 }
}

extension FixtureStats {
    /// Photo requests and body bytes, small and large together.
    fileprivate var photos: (requests: Int, bytes: Int) {
        (self[.smallPhoto].requests + self[.largePhoto].requests, self[.smallPhoto].bytes + self[.largePhoto].bytes)
    }
}

extension TraceRecorder.Event {
    /// The recorder's name for a trace event: the same word.
    init(_ kind: TraceEvent.Kind) {
        switch kind {
        case .relaunch: self = .relaunch
        case .background: self = .background
        case .foreground: self = .foreground
        case .memoryWarning: self = .memoryWarning
        case .favourite: self = .favourite
        case .unfavourite: self = .unfavourite
        }
    }
}
