import CacheLab
import CacheLabRecorder
import ClientModel
import Foundation
import RecipeClient

/// One live run: issues the trace's requests to the pipeline (`issue`), applies its events
/// between them (`applyEvents`), and sums up what came back (`summarize`). Used by one task.
final class LiveDriver {
    private let trace: Trace
    private let client: ClientConfiguration
    private let options: LiveOptions
    private let diskPath: String?
    private let urls: (UInt64) -> String
    private let downloader: OriginRewritingDownloader
    private let expectedCount: Int
    private let clock = ContinuousClock()
    // When the first request could be made: after the pipeline opened.
    private var start: ContinuousClock.Instant

    private var pipeline: ImagePipeline!
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

    /// One request's answer, from its task.
    struct Answer: Sendable {
        var position: Int
        var outcome: RequestOutcome
        var microseconds: Int
        var error: String?
        var whole = true
    }

    init(trace: Trace, client: ClientConfiguration, options: LiveOptions, diskPath: String?, endpoint: LiveEndpoint) {
        self.trace = trace
        self.client = client
        self.options = options
        self.diskPath = diskPath
        self.urls = { LiveReplay.origin + endpoint.path($0) }
        downloader = OriginRewritingDownloader(
            base: URLSessionImageDownloader(connectionsPerHost: options.connectionsPerHost, timeout: options.timeout),
            origin: LiveReplay.origin, server: endpoint.baseURL)
        expectedCount = (client.memoryLimits ?? client.diskLimits!).initialEntries
        lifecycle = ClientLifecycle(client: client)
        result = LiveResult(run: RunResult(trace: trace.name, client: client))
        outcomes = [RequestOutcome](repeating: .failed, count: trace.count)
        start = clock.now
    }

    func run() async throws -> LiveResult {
        let firstTime = trace.times.first ?? 0
        pipeline = try open(at: firstTime)
        start = clock.now
        await withTaskGroup(of: Answer.self) { group in
            for position in 0..<trace.count {
                await applyEvents(through: position, &group)
                await issue(position, &group)
            }
            await drain(&group)
            await applyEvents(through: trace.count, &group)
        }
        await counters.add(pipeline)
        return summarize()
    }

    private func open(at now: Int64) throws -> ImagePipeline {
        try ImagePipeline(
            client: client, diskPath: diskPath, downloader: downloader, at: now, expectedCount: expectedCount,
            recorder: options.recorder, favourites: favourites,
            // Images are costed by the trace's pixel sizes, as the simulator costs them.
            decoder: nil)
    }

    // MARK: Issuing requests

    /// Makes request `position` at its trace time (paced by `speed`), once fewer than
    /// `concurrency` are in flight, and loads it in a task of its own.
    private func issue(_ position: Int, _ group: inout TaskGroup<Answer>) async {
        if let speed = options.speed {
            if position > 0 {
                let gap = trace.times[position] - trace.times[position - 1]
                pacedTime += min(gap, options.maxGap ?? gap)
            }
            let due = start + .microseconds(Double(pacedTime) * 1_000 / speed)
            if due > clock.now { try? await Task.sleep(until: due, clock: clock) }
        }
        if inFlight >= options.concurrency, let answer = await group.next() { take(answer) }
        let request = await pipeline.request(
            urls(trace.keys[position]), at: trace.times[position], pixels: trace.pixelSizes?[position] ?? 0)
        let issued = clock.now
        let current: ImagePipeline = pipeline
        let clock = clock
        group.addTask {
            do {
                // A memory hit is shown at once (its latency ends there); the outcome is its
                // turn's, the simulator's.
                let early = await current.earlyImage(for: request)
                let shown = early.map { _ in clock.now }
                let image = try await current.imageInTurn(for: request)
                let bytes = early?.bytes ?? image.bytes
                return Answer(
                    position: position, outcome: image.source,
                    microseconds: issued.microseconds(to: shown ?? clock.now), whole: ImageFormat.whole(bytes) != nil)
            } catch {
                return Answer(
                    position: position, outcome: .failed, microseconds: issued.microseconds(to: clock.now),
                    error: "\(error)")
            }
        }
        inFlight += 1
    }

    private func take(_ answer: Answer) {
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

    private func drain(_ group: inout TaskGroup<Answer>) async {
        while let answer = await group.next() { take(answer) }
    }

    // MARK: Applying events

    /// Applies the events up to request `position`, once the requests before each are answered:
    /// a relaunch opens a new pipeline on the same disk file; pins go to the pipeline by URL; the
    /// rest through `ClientLifecycle`.
    private func applyEvents(through position: Int, _ group: inout TaskGroup<Answer>) async {
        while nextEvent < trace.events.count, trace.events[nextEvent].position <= position {
            let event = trace.events[nextEvent]
            nextEvent += 1
            let actions = lifecycle.actions(for: event)
            // The pipeline records its pins itself.
            if let recorder = options.recorder, !event.kind.takesKey {
                // After the requests before it are served (and so recorded).
                await drain(&group)
                recorder.recordEvent(TraceRecorder.Event(event.kind), at: event.time)
            }
            guard !actions.isEmpty else { continue }
            await drain(&group)
            for action in actions {
                do {
                    try await apply(action, at: event.time)
                } catch {
                    errors.append((event.position, "\(event.kind) at \(event.time) ms: \(error)"))
                }
            }
        }
    }

    private func apply(_ action: ClientAction, at time: Int64) async throws {
        switch action {
        case .relaunch:
            result.run.relaunches += 1
            await counters.add(pipeline)
            pipeline = try open(at: time)
        case .pin(let key):
            result.run.client?.favouriteEvents += 1
            favourites.insert(urls(key))
            try await pipeline.pin(urls(key), at: time)
        case .unpin(let key):
            result.run.client?.favouriteEvents += 1
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
        var live = run.live ?? LiveMeasurements()
        var total = LatencyHistogram()
        for (source, histogram) in latencies {
            live.latencyBySource[source] = histogram.summary()
            total.add(histogram)
        }
        live.failures = tally.failures
        run.live = live
        run.client?.delayedLatencyShare = total.sum == 0 ? 0 : Double(latencies[.delayed]?.sum ?? 0) / Double(total.sum)
        run.mode = .live
        run.evictions = counters.evictions
        run.notAdmitted = counters.notAdmitted
        run.expirations = counters.expirations
        run.client?.pins = counters.pins
        run.client?.memoryPeakCost = counters.peakMemoryCost
        run.client?.diskPeakBytes = counters.peakDiskBytes
        run.latency = total.summary()
        run.outcomes = outcomes
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
