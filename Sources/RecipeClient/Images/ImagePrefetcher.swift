import ClientModel

/// Loads the photos of the rows a list is about to show, ahead of them, through an
/// `ImagePipeline`: so a row that scrolls into view finds its photo in memory or on disk, or its
/// download already under way.
///
/// - **Lower priority than the rows on screen.** Each prefetch waiting for a download is a task of
///   `priority` (`.low` by default) and at most `maxConcurrent` are under way at once; the rest
///   wait in the order asked. A prefetch a tier answers holds no slot. A row's own
///   `image(for:at:)` never waits for a prefetch.
/// - **Coalesced.** A prefetch is an ordinary request of the pipeline: a row asking for a photo
///   being prefetched joins its load (a delayed hit when it is a download), and a prefetch of a
///   photo a tier holds costs one lookup. A photo already waiting or under way is not asked again.
/// - **Cancelled when the scroll turns.** `stopPrefetching(_:)` drops the URLs still waiting and
///   cancels those under way; a download that no row's request joined then stops and stores
///   nothing, one a row has joined goes on for it. It returns once the cancelled prefetches have
///   let go of their loads.
/// - **Deterministic.** A prefetch's request is made inside the call that starts it (the call
///   that asks, a stop that frees a slot, or the end of the prefetch before it), so a replay that
///   awaits each call meets the order the simulator models (`cachelab`'s `PrefetchQueue`).
///
/// ```swift
/// let prefetcher = ImagePrefetcher(pipeline: images)
/// // The rows entering the prefetch band (the next screenful, in the scroll's direction):
/// await prefetcher.startPrefetching(band.map(\.photoURL), at: now)
/// // The scroll turned: the rows behind it will not be shown soon.
/// await prefetcher.stopPrefetching(passed.map(\.photoURL))
/// ```
public actor ImagePrefetcher {
    public let pipeline: ImagePipeline
    /// Prefetches under way at most.
    public nonisolated let maxConcurrent: Int
    /// The priority of each prefetch's task.
    public nonisolated let priority: TaskPriority

    /// What became of a prefetch, for a replay that follows each one (`token` is its caller's).
    package enum Report: Sendable, Equatable {
        /// Its request was made: answered by a tier (`outcome`), or waiting for a download —
        /// its own (`.network`) or one under way (`.delayed`).
        case made(token: Int, outcome: RequestOutcome)
        /// It ended waiting for a download: with `outcome` (`.failed` when it failed).
        case ended(token: Int, outcome: RequestOutcome)
        /// It was never made: stopped while it waited, or its photo was already being prefetched.
        case dropped(token: Int)
    }

    private struct Prefetch {
        var url: String
        var time: Int64
        var pixels: UInt32
        var token: Int
        var number: Int
    }

    private struct Running {
        var task: Task<Void, Never>
        var number: Int
    }

    // URLs asked for and not yet started, oldest first.
    private var waiting: [Prefetch] = []
    private var running: [String: Running] = [:]
    // Prefetches taken from `waiting` whose request is being made: they hold a slot.
    private var starting = 0
    private var asked = 0
    private let keepsReports: Bool
    private var reports: [Report] = []
    /// Prefetches that ended with the image in hand (the pipeline's outcome says from where).
    public private(set) var completed = 0

    /// A prefetcher for `pipeline`, running up to `maxConcurrent` prefetches at once
    /// (`ClientConfiguration.prefetchesAtOnce`, 2, as Nuke's `ImagePrefetcher`) at `priority`.
    public init(
        pipeline: ImagePipeline, maxConcurrent: Int = ClientConfiguration.prefetchesAtOnce,
        priority: TaskPriority = .low
    ) {
        self.init(pipeline: pipeline, maxConcurrent: maxConcurrent, priority: priority, keepsReports: false)
    }

    /// A prefetcher that keeps a `Report` of each prefetch for `takeReports()`.
    package init(pipeline: ImagePipeline, maxConcurrent: Int, priority: TaskPriority, keepsReports: Bool) {
        precondition(maxConcurrent >= 1, "ImagePrefetcher: maxConcurrent must be at least 1")
        self.pipeline = pipeline
        self.maxConcurrent = maxConcurrent
        self.priority = priority
        self.keepsReports = keepsReports
    }

    /// Prefetches the photos at `urls`, in order, as requests made at `now` (ms): those not
    /// already waiting or under way. Returns once those that found a free slot have made their
    /// requests.
    public func startPrefetching(_ urls: [String], at now: Int64) async {
        for url in urls { ask(url, at: now, pixels: 0, token: 0) }
        await startWaiting()
    }

    /// Prefetches the photo at `url` as a request made at `now` (ms) with `pixels` (packed
    /// `PixelSize`), reported under `token`.
    package func startPrefetching(_ url: String, at now: Int64, pixels: UInt32, token: Int) async {
        ask(url, at: now, pixels: pixels, token: token)
        await startWaiting()
    }

    /// Stops prefetching the photos at `urls`: dropped if waiting, cancelled if under way. Returns
    /// once the cancelled ones have left their loads and the freed slots' prefetches are made.
    public func stopPrefetching(_ urls: [String]) async {
        let stopped = Set(urls)
        for prefetch in waiting where stopped.contains(prefetch.url) { report(.dropped(token: prefetch.token)) }
        waiting.removeAll { stopped.contains($0.url) }
        var cancelled: [Task<Void, Never>] = []
        for url in urls {
            guard let run = running.removeValue(forKey: url) else { continue }
            run.task.cancel()
            cancelled.append(run.task)
        }
        for task in cancelled { await task.value }
        await startWaiting()
    }

    /// Stops every prefetch (the list went away).
    public func stopAll() {
        for prefetch in waiting { report(.dropped(token: prefetch.token)) }
        waiting.removeAll()
        for run in running.values { run.task.cancel() }
        running.removeAll()
    }

    /// The URLs waiting or under way.
    public var pending: Int { waiting.count + running.count + starting }

    /// Waits until the prefetch of `url` under way, if any, has ended and the prefetches it let
    /// start have made their requests.
    package func finishing(_ url: String) async {
        if let run = running[url] { await run.task.value }
    }

    /// Waits until no prefetch waits or is under way.
    package func finishAll() async {
        while let run = running.values.first { await run.task.value }
    }

    /// The reports kept since the last call, oldest first.
    package func takeReports() -> [Report] {
        defer { reports.removeAll(keepingCapacity: true) }
        return reports
    }

    private func ask(_ url: String, at now: Int64, pixels: UInt32, token: Int) {
        guard running[url] == nil, !waiting.contains(where: { $0.url == url }) else {
            report(.dropped(token: token))
            return
        }
        asked += 1
        waiting.append(Prefetch(url: url, time: now, pixels: pixels, token: token, number: asked))
    }

    // Starts waiting prefetches while fewer than `maxConcurrent` are under way: each makes its
    // request here; one answered by a tier ends at once, one waiting for a download holds a slot
    // in a task of its own until it ends.
    private func startWaiting() async {
        while running.count + starting < maxConcurrent, !waiting.isEmpty {
            let prefetch = waiting.removeFirst()
            starting += 1
            let request = await pipeline.request(prefetch.url, at: prefetch.time, pixels: prefetch.pixels)
            starting -= 1
            if let image = request.image {
                completed += 1
                report(.made(token: prefetch.token, outcome: image.source))
                continue
            }
            report(.made(token: prefetch.token, outcome: request.startedDownload ? .network : .delayed))
            let pipeline = pipeline
            let task = Task(priority: priority) {
                let outcome: RequestOutcome?
                do {
                    outcome = try await pipeline.image(for: request).source
                } catch is CancellationError {
                    outcome = nil
                } catch {
                    outcome = .failed
                }
                await self.finished(prefetch, outcome)
            }
            running[prefetch.url] = Running(task: task, number: prefetch.number)
        }
    }

    private func finished(_ prefetch: Prefetch, _ outcome: RequestOutcome?) async {
        // A prefetch stopped (and perhaps asked for again) is no longer this one.
        guard running[prefetch.url]?.number == prefetch.number else { return }
        running[prefetch.url] = nil
        if let outcome {
            if outcome != .failed { completed += 1 }
            report(.ended(token: prefetch.token, outcome: outcome))
        }
        await startWaiting()
    }

    private func report(_ report: Report) {
        if keepsReports { reports.append(report) }
    }
}
