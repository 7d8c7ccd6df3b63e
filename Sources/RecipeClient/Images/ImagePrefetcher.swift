/// Loads the photos of the rows a list is about to show, ahead of them, through an
/// `ImagePipeline`: so a row that scrolls into view finds its photo in memory or on disk, or its
/// download already under way.
///
/// - **Lower priority than the rows on screen.** Each prefetch is a task of `priority` (`.low` by
///   default) and at most `maxConcurrent` run at once; the rest wait in the order asked. A row's
///   own `image(for:at:)` never waits for a prefetch.
/// - **Coalesced.** A prefetch is an ordinary request of the pipeline: a row asking for a photo
///   being prefetched joins its load (a delayed hit when it is a download), and a prefetch of a
///   photo a tier holds costs one lookup.
/// - **Cancelled when the scroll turns.** `stopPrefetching(_:)` drops the URLs still waiting and
///   cancels those under way; a download that no row waits for then stops and stores nothing,
///   one a row has joined goes on for it.
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

    // URLs asked for and not yet started, oldest first, with the time each was asked at.
    private var waiting: [(url: String, time: Int64)] = []
    private var running: [String: Task<Void, Never>] = [:]
    /// Prefetches that ended with the image in hand (the pipeline's outcome says from where).
    public private(set) var completed = 0

    /// A prefetcher for `pipeline`, running up to `maxConcurrent` prefetches at once (Nuke's
    /// `ImagePrefetcher` runs 2) at `priority`.
    public init(pipeline: ImagePipeline, maxConcurrent: Int = 2, priority: TaskPriority = .low) {
        precondition(maxConcurrent >= 1, "ImagePrefetcher: maxConcurrent must be at least 1")
        self.pipeline = pipeline
        self.maxConcurrent = maxConcurrent
        self.priority = priority
    }

    /// Prefetches the photos at `urls`, in order, as requests made at `now` (ms): those not
    /// already waiting or under way.
    public func startPrefetching(_ urls: [String], at now: Int64) {
        for url in urls where running[url] == nil && !waiting.contains(where: { $0.url == url }) {
            waiting.append((url, now))
        }
        startWaiting()
    }

    /// Stops prefetching the photos at `urls`: dropped if waiting, cancelled if under way.
    public func stopPrefetching(_ urls: [String]) {
        let stopped = Set(urls)
        waiting.removeAll { stopped.contains($0.url) }
        for url in urls { running.removeValue(forKey: url)?.cancel() }
        startWaiting()
    }

    /// Stops every prefetch (the list went away).
    public func stopAll() {
        waiting.removeAll()
        for task in running.values { task.cancel() }
        running.removeAll()
    }

    /// The URLs waiting or under way.
    public var pending: Int { waiting.count + running.count }

    // Starts waiting prefetches while fewer than `maxConcurrent` run.
    private func startWaiting() {
        while running.count < maxConcurrent, !waiting.isEmpty {
            let (url, time) = waiting.removeFirst()
            let pipeline = pipeline
            running[url] = Task(priority: priority) {
                let loaded = (try? await pipeline.image(for: url, at: time)) != nil
                self.finished(url, loaded: loaded)
            }
        }
    }

    private func finished(_ url: String, loaded: Bool) {
        // A URL stopped and asked for again has a new task under way: leave it.
        guard running[url] != nil, !Task.isCancelled else { return }
        running[url] = nil
        if loaded { completed += 1 }
        startWaiting()
    }
}
