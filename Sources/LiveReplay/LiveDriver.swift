import CacheLab
import CacheLabRecorder
import ClientModel
import Foundation
import RecipeClient

/// One live run: issues the trace's requests to the pipeline (`issue`), applies its events
/// between them (`applyEvents`), and sums up what came back (`summarize`). Used by one task.
///
/// Unpaced, each download is handed over when the simulator's latency model says it ends
/// (`DownloadGate`): before the first request at or after that trace time, or at the next app
/// event, so the run meets the simulator's cache states request by request. A miss's latency is
/// then measured to its bytes' arrival, not to the hand-over. Paced (`speed`), downloads end when
/// they end, and the trace's times are kept on the wall clock.
///
/// A prefetching list's trace drives an `ImagePrefetcher`: the request after a `prefetch` event
/// is asked of it, a `stop_prefetch` stops it; its reports give each prefetch's outcome. Unpaced,
/// the driver awaits each call and, after each download it hands over, the prefetch that waited
/// for it, so the prefetches start where `PrefetchQueue` starts them in the simulator.
final class LiveDriver {
    private let trace: Trace
    private let client: ClientConfiguration
    private let options: LiveOptions
    private let diskPath: String?
    private let urls: (UInt64) -> String
    private let downloader: any ImageDownloading
    // Unpaced: where downloads wait for their modelled end.
    private let gate: DownloadGate?
    private let missLatency: LatencyModel
    private let expectedCount: Int
    private let clock = ContinuousClock()
    // When the first request could be made: after the pipeline opened.
    private var start: ContinuousClock.Instant

    private var pipeline: ImagePipeline!
    private var prefetcher: ImagePrefetcher!
    // The photo the next request prefetches (a `prefetch` event names it).
    private var prefetchKey: UInt64?
    private var counters = TierCounters()
    private var lifecycle: ClientLifecycle
    private var result: LiveResult
    // The favourites' photos, as the app keeps them across launches.
    private var favourites: Set<String> = []
    private var outcomes: [RequestOutcome]
    private var latencies: [RequestOutcome: LatencyHistogram] = [:]
    private var errors: [(position: Int, message: String)] = []
    private var nextEvent = 0
    // Trace time since the first request with every gap cut to `maxGap`: what `speed` paces.
    private var pacedTime: Int64 = 0
    private var inFlight = 0
    private var finished = 0
    // Unpaced: the downloads under way (by the position of the request that started each), their
    // modelled ends (µs of trace time) and the requests each serves; the download under way for
    // each URL; answers that wait for their download's arrival time.
    private var underWay: [Int: Download] = [:]
    private var downloadOf: [UInt64: Int] = [:]
    private var started = 0
    private var parked: [Int: Answer] = [:]
    private var taken: [Bool]

    private struct Download {
        var end: Int64
        var order: Int
        var key: UInt64
        // The rows' requests it serves (a prefetch's answer comes from the prefetcher).
        var positions: [Int]
        // Started by a prefetch; joined by a row's request (then a stop does not cancel it).
        var prefetch = false
        var joined = false
    }

    /// One request's answer, from its task.
    struct Answer: Sendable {
        var position: Int
        var outcome: RequestOutcome
        var microseconds: Int
        var error: String?
        var whole = true
        // When the request was made.
        var begun: ContinuousClock.Instant
    }

    init(trace: Trace, client: ClientConfiguration, options: LiveOptions, diskPath: String?, endpoint: LiveEndpoint) {
        self.trace = trace
        self.client = client
        self.options = options
        self.diskPath = diskPath
        self.urls = { LiveReplay.origin + endpoint.path($0) }
        let server = OriginRewritingDownloader(
            base: URLSessionImageDownloader(connectionsPerHost: options.connectionsPerHost, timeout: options.timeout),
            origin: LiveReplay.origin, server: endpoint.baseURL)
        if options.speed == nil {
            let gate = DownloadGate()
            self.gate = gate
            downloader = GatedDownloader(base: server, gate: gate)
        } else {
            gate = nil
            downloader = server
        }
        missLatency = LatencyModel(network: client.network, tier: .memory)
        expectedCount = (client.memoryLimits ?? client.diskLimits!).initialEntries
        lifecycle = ClientLifecycle(client: client)
        result = LiveResult(run: RunResult(trace: trace.name, client: client))
        outcomes = [RequestOutcome](repeating: .failed, count: trace.count)
        taken = [Bool](repeating: false, count: trace.count)
        start = clock.now
    }

    func run() async throws -> LiveResult {
        let firstTime = trace.times.first ?? 0
        try open(at: firstTime)
        start = clock.now
        await withTaskGroup(of: Answer.self) { group in
            for position in 0..<trace.count {
                await applyEvents(through: position, &group)
                await land(endedBy: trace.times[position] &* 1_000, &group)
                await issue(position, &group)
            }
            await land(endedBy: .max, &group)
            await drain(&group)
            await applyEvents(through: trace.count, &group)
        }
        await counters.add(pipeline)
        return summarize()
    }

    // A pipeline, and its prefetcher, for a launch at `now`.
    private func open(at now: Int64) throws {
        pipeline = try ImagePipeline(
            client: client, diskPath: diskPath, downloader: downloader, at: now, expectedCount: expectedCount,
            recorder: options.recorder, favourites: favourites,
            // Images are costed by the trace's pixel sizes, as the simulator costs them.
            decoder: nil)
        prefetcher = ImagePrefetcher(
            pipeline: pipeline, maxConcurrent: ClientConfiguration.prefetchesAtOnce, priority: .low,
            keepsReports: true)
    }

    // MARK: Issuing requests

    /// Makes request `position` at its trace time (paced by `speed`, once fewer than
    /// `concurrency` are in flight): a hit is answered there; a miss or a delayed hit is loaded
    /// in a task of its own.
    private func issue(_ position: Int, _ group: inout TaskGroup<Answer>) async {
        if let speed = options.speed {
            if position > 0 {
                let gap = trace.times[position] - trace.times[position - 1]
                pacedTime += min(gap, options.maxGap ?? gap)
            }
            let due = start + .microseconds(Double(pacedTime) * 1_000 / speed)
            if due > clock.now { try? await Task.sleep(until: due, clock: clock) }
        }
        let key = trace.keys[position]
        let url = urls(key)
        let time = trace.times[position]
        let pixels = trace.pixelSizes?[position] ?? 0
        if let prefetched = prefetchKey {
            prefetchKey = nil
            if prefetched == key {
                await prefetcher.startPrefetching(url, at: time, pixels: pixels, token: position)
                await takeReports(startingAt: time &* 1_000)
                return
            }
        }
        if options.speed != nil, inFlight >= options.concurrency, let answer = await group.next() { collect(answer) }
        let begun = clock.now
        let current: ImagePipeline = pipeline
        let request = await current.request(url, at: time, pixels: pixels)
        if let image = request.image {
            take(
                Answer(
                    position: position, outcome: image.source, microseconds: begun.microseconds(to: clock.now),
                    whole: ImageFormat.whole(image.bytes) != nil, begun: begun))
            return
        }
        if gate != nil {
            if request.startedDownload {
                let end = time &* 1_000 &+ Int64(missLatency.missMicroseconds(size: trace.sizes[position]))
                underWay[position] = Download(end: end, order: started, key: key, positions: [position])
                downloadOf[key] = position
                started += 1
            } else if let starter = downloadOf[key] {
                underWay[starter]?.positions.append(position)
                underWay[starter]?.joined = true
            }
        }
        let clock = clock
        group.addTask {
            do {
                let image = try await current.image(for: request)
                return Answer(
                    position: position, outcome: image.source, microseconds: begun.microseconds(to: clock.now),
                    whole: ImageFormat.whole(image.bytes) != nil, begun: begun)
            } catch {
                return Answer(
                    position: position, outcome: .failed, microseconds: begun.microseconds(to: clock.now),
                    error: "\(error)", begun: begun)
            }
        }
        inFlight += 1
    }

    /// Unpaced: hands over, one at a time and soonest first, every download whose modelled end
    /// is at or before `now` (µs of trace time), each once its requests are answered.
    private func land(endedBy now: Int64, _ group: inout TaskGroup<Answer>) async {
        guard let gate else { return }
        while let (starter, download) = underWay.min(by: {
            ($0.value.end, $0.value.order) < ($1.value.end, $1.value.order)
        }),
            download.end <= now
        {
            underWay[starter] = nil
            if downloadOf[download.key] == starter { downloadOf[download.key] = nil }
            let url = urls(download.key)
            await gate.release(url)
            while download.positions.contains(where: { parked[$0] == nil && !taken[$0] }) {
                guard let answer = await group.next() else { break }
                collect(answer)
            }
            // A prefetch that waited for it ends (so its bytes have arrived), and the next waiting
            // ones start then.
            await prefetcher.finishing(url)
            let arrival = await gate.arrival(of: url)
            for position in download.positions {
                guard var answer = parked.removeValue(forKey: position) else { continue }
                if let arrival { answer.microseconds = max(0, answer.begun.microseconds(to: arrival)) }
                take(answer)
            }
            await takeReports(startingAt: download.end)
        }
    }

    /// Takes the prefetcher's reports: each prefetch's outcome (its latency is no row's, so it
    /// is not timed), and, unpaced, the downloads the prefetches made at `now` (µs of trace time)
    /// started, ending as the latency model says (nil: where none can start, after a drain).
    private func takeReports(startingAt now: Int64?) async {
        for report in await prefetcher.takeReports() {
            switch report {
            case .made(let position, let outcome):
                settle(position, outcome)
                guard gate != nil, outcome == .network else { continue }
                guard let now else { preconditionFailure("LiveDriver: a prefetch's download started after a drain") }
                let key = trace.keys[position]
                let end = now &+ Int64(missLatency.missMicroseconds(size: trace.sizes[position]))
                underWay[position] = Download(end: end, order: started, key: key, positions: [], prefetch: true)
                downloadOf[key] = position
                started += 1
            case .ended(let position, let outcome):
                settle(position, outcome)
            case .dropped(let position):
                settle(position, .dropped)
            }
        }
    }

    // A prefetch's outcome: known when it is made, and again when it ends (a failure then).
    private func settle(_ position: Int, _ outcome: RequestOutcome) {
        outcomes[position] = outcome
        if !taken[position] { answered(position) }
    }

    // Request `position` has its outcome: counted once, with progress every thousand.
    private func answered(_ position: Int) {
        taken[position] = true
        finished += 1
        if finished % 1_000 == 0 { options.progress?(finished, trace.count) }
    }

    // An answer from a request's task. Unpaced, one served by a download waits for its arrival
    // time; the rest are taken.
    private func collect(_ answer: Answer) {
        inFlight -= 1
        if gate != nil, answer.outcome == .network || answer.outcome == .delayed {
            parked[answer.position] = answer
        } else {
            take(answer)
        }
    }

    private func take(_ answer: Answer) {
        outcomes[answer.position] = answer.outcome
        latencies[answer.outcome, default: LatencyHistogram()].record(microseconds: answer.microseconds)
        if let message = answer.error { errors.append((answer.position, message)) }
        if !answer.whole {
            result.notWhole += 1
            errors.append((answer.position, "request \(answer.position + 1) was answered with a partial image"))
        }
        answered(answer.position)
    }

    private func drain(_ group: inout TaskGroup<Answer>) async {
        await land(endedBy: .max, &group)
        while let answer = await group.next() { collect(answer) }
        for answer in parked.values { take(answer) }
        parked = [:]
        await prefetcher.finishAll()
        // Unpaced, every download has landed: the prefetcher is idle, and only paced answers come.
        await takeReports(startingAt: nil)
    }

    // MARK: Applying events

    /// Applies the events up to request `position`, once the requests before each are answered
    /// (their downloads handed over): a relaunch opens a new pipeline on the same disk file; pins
    /// go to the pipeline by URL; the rest through `ClientLifecycle`.
    private func applyEvents(through position: Int, _ group: inout TaskGroup<Answer>) async {
        while nextEvent < trace.events.count, trace.events[nextEvent].position <= position {
            let event = trace.events[nextEvent]
            nextEvent += 1
            switch event.kind {
            case .prefetch:
                // The request that follows is the prefetch (if it is of this photo).
                prefetchKey = event.key
                continue
            case .stopPrefetch:
                if let key = event.key { await stopPrefetch(key, at: event.time, &group) }
                continue
            default:
                break
            }
            await drain(&group)
            let actions = lifecycle.actions(for: event)
            // The pipeline records its pins itself.
            if let recorder = options.recorder, !event.kind.takesKey, let kind = TraceRecorder.Event(event.kind) {
                recorder.recordEvent(kind, at: event.time)
            }
            for action in actions {
                do {
                    try await apply(action, at: event.time)
                } catch {
                    errors.append((event.position, "\(event.kind) at \(event.time) ms: \(error)"))
                }
            }
        }
    }

    /// Stops prefetching `key` at `time`, waiting for nothing but what has ended by then: a
    /// prefetch's own download no row joined is cancelled (it never lands), and the prefetches
    /// the freed slot starts are made then.
    private func stopPrefetch(_ key: UInt64, at time: Int64, _ group: inout TaskGroup<Answer>) async {
        await land(endedBy: time &* 1_000, &group)
        if let starter = downloadOf[key], let download = underWay[starter], download.prefetch, !download.joined {
            underWay[starter] = nil
            downloadOf[key] = nil
        }
        await prefetcher.stopPrefetching([urls(key)])
        await takeReports(startingAt: time &* 1_000)
    }

    private func apply(_ action: ClientAction, at time: Int64) async throws {
        switch action {
        case .relaunch:
            result.run.relaunches += 1
            await counters.add(pipeline)
            try open(at: time)
        case .pin(let key):
            result.run.updateClient { $0.favouriteEvents += 1 }
            favourites.insert(urls(key))
            try await pipeline.pin(urls(key), at: time)
        case .unpin(let key):
            result.run.updateClient { $0.favouriteEvents += 1 }
            favourites.remove(urls(key))
            try await pipeline.unpin(urls(key), at: time)
        case .trimMemory, .sweepDisk:
            try await pipeline.perform(action, at: time)
        }
    }

    // MARK: Summarizing

    /// The run's counts from the outcomes, latency by source, and the tiers' counts over launches.
    private func summarize() -> LiveResult {
        result.seconds = start.microseconds(to: clock.now).seconds
        var run = result.run
        var tally = RunTally()
        for (position, outcome) in outcomes.enumerated() { tally.record(outcome, size: trace.sizes[position]) }
        tally.apply(to: &run, bytesDownloaded: counters.stats.bytesDownloaded)
        var total = LatencyHistogram()
        var bySource: [RequestOutcome: LatencySummary] = [:]
        for (source, histogram) in latencies {
            bySource[source] = histogram.summary()
            total.add(histogram)
        }
        run.updateLive { live in
            live.latencyBySource = bySource
            live.failures = tally.failures
        }
        run.evictions = counters.evictions
        run.notAdmitted = counters.notAdmitted
        run.expirations = counters.expirations
        run.updateClient { client in
            client.delayedLatencyShare = total.sum == 0 ? 0 : Double(latencies[.delayed]?.sum ?? 0) / Double(total.sum)
            client.pins = counters.pins
            client.memoryPeakCost = counters.peakMemoryCost
            client.diskPeakBytes = counters.peakDiskBytes
            client.outcomes = outcomes
        }
        run.latency = total.summary()
        result.run = run
        result.pipeline = counters.stats
        result.firstErrors = errors.sorted { $0.position < $1.position }.prefix(5).map(\.message)
        return result
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
