import CacheEngine
import CacheLabRecorder
import ClientModel

/// Loads images through memory, then disk, then the network, the way a recipe list's rows ask
/// for their photos: many at once, some coalesced, some cancelled when the row scrolls away.
///
/// ## Rules
/// - **Tiers.** A lookup tries the memory tier, then the disk tier; a disk hit is copied into
///   memory; a download is stored on disk, then in memory. Either tier may be absent. Both are
///   CacheLab engines under any `PolicyKind` (`ClientConfiguration` says which and how big).
/// - **Request order.** Every request takes a ticket when it is made, and the
///   pipeline carries out the requests' cache operations — lookups, promotions, insertions and
///   the evictions they cause — strictly in ticket order. Downloads do not wait: a request for an
///   image that no tier holds starts its download when it is made, while earlier requests are
///   still being served. So the same requests in the same order always meet the same cache
///   states, and each has the outcome the simulator (`Replay.simulate(_:client:)`) gives it,
///   with the same bytes downloaded.
/// - **Memory hits at once.** Order does not make a cached image wait: a request whose image the
///   memory tier holds when it is loaded is answered then (`image(for:)`), ahead of earlier
///   downloads, from a peek that tells the tier's policy nothing. The request keeps its place in
///   line, and its lookup — the policy's promotion, the recording — runs in its turn, as above,
///   so the tiers' states and outcomes are still the simulator's. (A URL's image does not change,
///   so the bytes shown early are the ones the turn finds; should an earlier request's insertion
///   evict the image before that turn, the turn downloads it again, as the simulator counts.)
///   A replay measures the early answer with `earlyImage(for:)` and takes the outcome from
///   `imageInTurn(for:)`.
/// - **The disk off the actor.** The disk tier runs on an executor of its own (`DiskQueue`), as
///   the image libraries keep their disk caches' file work on a queue of their own: while SQLite
///   reads or writes, memory hits are answered and new requests made. Its operations run one at a
///   time in the order the pipeline asks, so outcomes do not change.
/// - **Coalescing.** A request for a URL that an earlier request still in line wants starts no
///   download: by its turn the earlier one has stored the image, so 20 requests for one URL make
///   one download. (Should the image be evicted in between, the later request downloads it again,
///   as the simulator counts.) A download serves the one request that started it. A request made
///   while a download of its URL is under way, and served by a tier, is a delayed hit
///   (`RequestOutcome.delayed`): it waited for that download, as the simulator's does.
/// - **Cancellation.** Cancelling a request's task gives it `CancellationError` and cancels its
///   download; its turn is skipped.
/// - **No request left behind.** An app asks with `image(for:at:)`, which makes the request and
///   loads it in one call, so no request can be made and forgotten, holding up the ones after it.
///   The two steps apart — `request(_:at:)`, then `earlyImage(for:)` and `imageInTurn(for:)` — are
///   the live replay's, which issues requests in trace order from one task and loads each in
///   another; they are `package`, not public.
/// - **Integrity.** Only whole images are stored (`ImageDownloading` checks status, length and
///   format); a tier never serves bytes that fail its check. A failed download stores nothing and
///   reaches its request as its error.
/// - **Pins.** `pin(_:at:)` marks a favourite's photo wanted and pins it in each tier that holds
///   it, memory first; each tier that stores a wanted photo later pins it right after storing it.
///   A pinned image is never evicted or expired, and counts against the tier's pin budget
///   (`TierConfiguration.pinBudget`), not its capacity; one that does not fit stays cached as
///   usual, is counted (`Holdings.pinRefusals`) and is listed, while held, by
///   `unkeptFavouritePhotos(at:)`. `unpin(_:at:)` hands it back to each tier as
///   used then. The simulator's client applies the same rules to `favourite` events.
/// - **Disk faults.** A disk file that cannot be opened throws, or leaves the pipeline running on
///   memory alone (`ifDiskFails: .runMemoryOnly`, the reason in `diskProblem`), the file untouched.
///   A disk that stops taking writes (full, read-only) still serves what it holds; a download it
///   cannot store is served anyway and counted (`Stats.diskWriteFailures`).
/// - **Time** is an input (`at now:`, ms), as in every tier; the pipeline never reads a clock.
/// - **Recording.** Given a `TraceRecorder`, the pipeline records every request it serves — the
///   URL, the image's size and the tier that answered — in ticket order, at the request's time.
///   A request that fails or is cancelled is not recorded. Pins are recorded as `favourite` and
///   `unfavourite` events; other app events are the app's to record.
///
/// A relaunch is a new pipeline on the same disk file; app events in between are `perform(_:at:)`.
public actor ImagePipeline {
    /// An image and where it came from.
    public struct LoadedImage: Sendable {
        public let bytes: [UInt8]
        public let source: RequestOutcome
    }

    /// A request with its place in line; made by `request(_:at:)`, loaded by `image(for:)`.
    package struct Request: Sendable, Hashable {
        package let url: String
        package let time: Int64
        /// The image's pixels (packed `PixelSize`), when the app knows them; 0 otherwise.
        package let pixels: UInt32
        /// Made while a download of its URL was under way: served by it, it is a delayed hit.
        package let delayed: Bool
        let ticket: Int
    }

    /// What the pipeline did on the network since it opened.
    public struct Stats: Sendable, Equatable {
        /// Downloads that completed with a whole image.
        public var downloads = 0
        /// Their bytes.
        public var bytesDownloaded = 0
        /// Downloads that failed (each surfaced to its requests).
        public var failedDownloads = 0
        /// Requests that started no download because an earlier one for the same URL was in line.
        public var coalesced = 0
        /// Downloads that ended cancelled, with their request.
        public var cancelledDownloads = 0
        /// Images downloaded but not stored on disk because the disk failed (served anyway).
        public var diskWriteFailures = 0

        public init() {}

        /// Adds the counts of another launch.
        public static func += (total: inout Stats, launch: Stats) {
            total.downloads += launch.downloads
            total.bytesDownloaded += launch.bytesDownloaded
            total.failedDownloads += launch.failedDownloads
            total.coalesced += launch.coalesced
            total.cancelledDownloads += launch.cancelledDownloads
            total.diskWriteFailures += launch.diskWriteFailures
        }
    }

    /// What the tiers hold and have dropped since the pipeline opened.
    public struct Holdings: Sendable, Equatable {
        public var memoryCount = 0
        public var memoryBytes = 0
        public var diskCount = 0
        public var diskBytes = 0
        /// Entries evicted to make room, both tiers (a disk rebuilt at open included).
        public var evictions = 0
        /// Entries dropped because their lifetime was over, both tiers.
        public var expirations = 0
        /// Misses the tiers' admission filters refused, both tiers.
        public var notAdmitted = 0
        /// Bytes pinned by favourites in each tier (inside `memoryBytes` and `diskBytes`, outside
        /// the capacities), and the most pinned at once since the pipeline opened.
        public var memoryPinnedBytes = 0
        public var diskPinnedBytes = 0
        public var peakMemoryPinnedBytes = 0
        public var peakDiskPinnedBytes = 0
        /// Pins refused because a tier's pin budget was full.
        public var pinRefusals = 0
        /// The most the memory tier and the disk tier held at once (memory in its cost's unit).
        public var peakMemoryCost = 0
        public var peakDiskBytes = 0

        /// The pins as a run reports them.
        public var pins: PinSummary {
            var pins = PinSummary()
            pins.peakMemoryBytes = peakMemoryPinnedBytes
            pins.peakDiskBytes = peakDiskPinnedBytes
            pins.memoryBytes = memoryPinnedBytes
            pins.diskBytes = diskPinnedBytes
            pins.refusals = pinRefusals
            return pins
        }
    }

    /// The tiers this pipeline runs: `ClientConfiguration.recommended` (what `cachelab tune`
    /// chose) unless the app gave its own.
    public nonisolated let client: ClientConfiguration
    private let memory: (any ImageTier)?
    // The disk tier, on its own executor: its SQLite work never holds up this actor.
    private let disk: DiskQueue?
    private let downloader: any ImageDownloading
    // Reads the pixel size of an image the request gave none for, when memory costs bitmaps.
    private let decoder: (any ImageDecoding)?
    /// Records each served request, in ticket order (nil: no recording).
    private let recorder: TraceRecorder?
    public private(set) var stats = Stats()
    /// The favourites' photo URLs: pinned in each tier as it stores them.
    public private(set) var wanted: Set<String>

    private var nextTicket = 0
    // The ticket whose cache operations run now; later tickets wait in `waiting`.
    private var turn = 0
    private var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
    // Tickets cancelled before their turn: the turn passes over them.
    private var skipped: Set<Int> = []
    // Requests made and not yet finished, per URL.
    private var pending: [String: Int] = [:]
    // The download each ticket started, until it finishes.
    private var downloads: [Int: Download] = [:]
    // Downloads under way per URL, until each ends (done, failed or cancelled).
    private var downloading: [String: Int] = [:]

    private struct Download {
        let task: Task<[UInt8], any Error>
        var finished = false
    }

    // How a download ended.
    private enum DownloadEnding {
        case completed(bytes: Int)
        case failed
        case cancelled
    }

    /// What to do when the disk tier's file cannot be opened.
    public enum DiskFailure: Sendable {
        /// Throw the `StoreError`: the app decides.
        case fail
        /// Run with the memory tier alone and say why in `diskProblem`. The file is left as it
        /// was (a file that is not a store, or is a newer build's, is neither read nor rewritten).
        case runMemoryOnly
    }

    /// Why the client's disk tier is not running (`DiskFailure.runMemoryOnly`), or nil when it is
    /// (or the client has none). Show it as a warning: images still load, but nothing persists.
    public nonisolated let diskProblem: StoreError?

    /// Opens the client's tiers: memory empty, disk (if the client has one) from the SQLite file at
    /// `diskPath`, its eviction order rebuilt and expired entries swept at `now`. Without a
    /// `client`, the tuned defaults (`ClientConfiguration.recommended`).
    ///
    /// - Parameters:
    ///   - client: the tiers' policies and limits.
    ///   - diskPath: the SQLite file of the disk tier (required when the client has one).
    ///   - downloader: what fetches an image no tier holds.
    ///   - now: the launch time, in milliseconds since 1970 (expiry is measured from it).
    ///   - expectedCount: entries the memory tier is sized for up front.
    ///   - ifDiskFails: whether a disk file that cannot be opened (not SQLite, a newer schema, no
    ///     permission) throws or leaves the pipeline running memory-only.
    ///   - favourites: the photo URLs of the favourites saved before this launch: pinned in each
    ///     tier as it stores them (the disk's pins persist on their own, and a disk row pinned
    ///     for a photo not among them is unpinned). `nil` keeps the disk's pins as they are.
    ///   - recorder: records each request as a trace line, when given.
    ///   - decoder: tells an image's pixel size when a request gives none and the memory tier
    ///     costs decoded bitmaps (`MemoryCost.decoded`); nil costs such an image by its encoded
    ///     bytes, as the simulator does for a trace without pixel sizes (a replay's choice).
    /// - Throws: `PolicyError.needsFuture` if a tier's policy needs the future (Belady);
    ///   `StoreError` if the disk file cannot be opened and `ifDiskFails` is `.fail`.
    public init(
        client: ClientConfiguration = .recommended, diskPath: String?, downloader: any ImageDownloading, at now: Int64,
        expectedCount: Int = 1_024, ifDiskFails: DiskFailure = .fail, recorder: TraceRecorder? = nil,
        favourites: Set<String>? = nil, decoder: (any ImageDecoding)? = ImageHeaderDecoder()
    ) throws {
        guard client.diskLimits != nil else {
            try self.init(
                client: client, store: nil, downloader: downloader, at: now, expectedCount: expectedCount,
                recorder: recorder, favourites: favourites, decoder: decoder)
            return
        }
        guard let diskPath else { preconditionFailure("ImagePipeline: the client has a disk tier but no disk path") }
        let store: DiskStore
        do {
            store = try DiskStore(path: diskPath)
        } catch let problem as StoreError where ifDiskFails == .runMemoryOnly {
            try self.init(
                client: client, store: nil, downloader: downloader, at: now, expectedCount: expectedCount,
                diskProblem: problem, recorder: recorder, favourites: favourites, decoder: decoder)
            return
        }
        try self.init(
            client: client, store: store, downloader: downloader, at: now, expectedCount: expectedCount,
            recorder: recorder, favourites: favourites, decoder: decoder)
    }

    /// Opens the client's tiers with its disk tier on `store`, already open (nil: no disk tier, or
    /// `diskProblem` says why not). The pipeline takes the store over: its disk work runs on an
    /// executor of its own, so no one else may use this `DiskStore` (open another on the file).
    public init(
        client: ClientConfiguration = .recommended, store: sending DiskStore?, downloader: any ImageDownloading,
        at now: Int64,
        expectedCount: Int = 1_024, diskProblem: StoreError? = nil, recorder: TraceRecorder? = nil,
        favourites: Set<String>? = nil, decoder: (any ImageDecoding)? = ImageHeaderDecoder()
    ) throws {
        try client.requireOnline()
        var disk: (any ImageTier)?
        if let limits = client.diskLimits, let store {
            disk = try client.disk!.policy.openDiskTier(
                store: store, configuration: limits, at: now, pinBudget: client.diskPinBudget,
                keepingPins: favourites)
        }
        try self.init(
            client: client, diskTier: disk, downloader: downloader, expectedCount: expectedCount,
            diskProblem: client.diskLimits == nil ? nil : diskProblem, recorder: recorder, favourites: favourites,
            decoder: decoder)
    }

    /// Opens the client's memory tier, with `diskTier` as its disk tier (a test's may be a tier of
    /// its own making).
    init(
        client: ClientConfiguration, diskTier: sending (any ImageTier)?, downloader: any ImageDownloading,
        expectedCount: Int = 1_024, diskProblem: StoreError? = nil, recorder: TraceRecorder? = nil,
        favourites: Set<String>? = nil, decoder: (any ImageDecoding)? = ImageHeaderDecoder()
    ) throws {
        self.client = client
        memory = try client.memoryLimits.map { limits throws(PolicyError) in
            try client.memory!.policy.makeMemoryTier(
                configuration: limits, expectedCount: expectedCount, pinBudget: client.memoryPinBudget,
                cost: client.memoryCost, largestEntry: client.memory!.largestEntry ?? .max)
        }
        if let diskTier {
            disk = DiskQueue(diskTier)
        } else {
            disk = nil
        }
        self.diskProblem = diskProblem
        self.downloader = downloader
        self.decoder = client.memoryCost == .decoded ? decoder : nil
        self.recorder = recorder
        self.wanted = favourites ?? []
    }

    /// Makes a request for `url` at `now`, taking the next ticket, and starts its download if no
    /// tier holds the image and no earlier request for it is in line. Make requests in the order
    /// the list asks for them (await each call before the next); load each with `image(for:)`.
    ///
    /// - Parameters:
    ///   - url: the photo's address, its key in every tier.
    ///   - now: milliseconds since 1970.
    ///   - pixels: the image's size in pixels when the app knows it (packed `PixelSize`): a memory
    ///     tier costing decoded bitmaps charges by it.
    package func request(_ url: String, at now: Int64, pixels: UInt32 = 0) async -> Request {
        let ticket = nextTicket
        nextTicket += 1
        let delayed = downloading[url] != nil
        let earlier = pending[url, default: 0]
        pending[url] = earlier + 1
        // Everything about the request's place is settled before the disk is asked (other calls
        // may run meanwhile); its turn cannot come before this returns it.
        if earlier > 0 {
            stats.coalesced += 1
        } else if await !holds(url, at: now), downloads[ticket] == nil {
            startDownload(url, for: ticket)
        }
        return Request(url: url, time: now, pixels: pixels, delayed: delayed, ticket: ticket)
    }

    /// Loads the image at `url`: from memory at once when it holds it, else from disk or the
    /// network in the request's turn (see the rules above).
    ///
    /// - Parameters:
    ///   - url: the photo's address, its key in every tier.
    ///   - now: milliseconds since 1970.
    ///   - pixels: the image's size in pixels when the app knows it (packed `PixelSize`): a memory
    ///     tier costing decoded bitmaps charges by it.
    /// - Throws: `ImageLoadingError` when the download fails, `CancellationError` when the task
    ///   was cancelled, `StoreError` when the disk fails on a read.
    public func image(for url: String, at now: Int64, pixels: UInt32 = 0) async throws -> LoadedImage {
        try await image(for: await request(url, at: now, pixels: pixels))
    }

    /// Loads the image of `request`: at once when the memory tier holds it (`earlyImage(for:)`),
    /// the request's lookup then running in its turn on its own; otherwise in its turn.
    ///
    /// - Throws: `ImageLoadingError` when the download fails, `CancellationError` when the task
    ///   was cancelled, `StoreError` when the disk fails on a read.
    package func image(for request: Request) async throws -> LoadedImage {
        guard let early = earlyImage(for: request) else { return try await imageInTurn(for: request) }
        // The turn still runs: it makes the lookup the simulator makes. The app has its image, so
        // what that turn meets (an eviction since, a download failing) is only counted.
        Task { _ = try? await self.imageInTurn(for: request) }
        return early
    }

    /// The answer `image(for:)` gives ahead of the request's turn: the image if the memory tier
    /// holds it now (read without telling the policy), and the request has not been cancelled and
    /// its turn has not come; `nil` otherwise. Either way the request must still be loaded in its
    /// turn, `imageInTurn(for:)`, which a replay awaits for the outcome the simulator gives.
    package func earlyImage(for request: Request) -> LoadedImage? {
        guard request.ticket > turn, !Task.isCancelled, let bytes = memory?.peek(request.url, at: request.time)
        else { return nil }
        return LoadedImage(bytes: bytes, source: request.delayed ? .delayed : .memory)
    }

    /// Loads the image of `request` in its turn, after every earlier request's cache operations.
    ///
    /// - Throws: `ImageLoadingError` when the download fails, `CancellationError` when the task
    ///   was cancelled, `StoreError` when the disk fails on a read.
    package func imageInTurn(for request: Request) async throws -> LoadedImage {
        let ticket = request.ticket
        if Task.isCancelled {
            abandon(ticket)
            finish(request)
            throw CancellationError()
        }
        return try await withTaskCancellationHandler {
            try await serve(request)
        } onCancel: {
            Task { await self.cancel(ticket) }
        }
    }

    /// The image for `url` if the memory tier holds it at `now`, without making a request: for
    /// drawing a row in the same frame, synchronously. It counts as a use of the entry, outside
    /// any request's turn, so a run's order then depends on timing: a replay does not call it
    /// (`image(for:)` already answers memory hits at once, in order).
    public func cachedImage(for url: String, at now: Int64) throws -> [UInt8]? {
        try memory?.value(forKey: url, at: now)
    }

    /// Keeps the photo at `url` for a favourite: pins it in each tier that holds it (memory, then
    /// disk), and in each tier that stores it later, until `unpin(_:at:)`. Recorded as a
    /// `favourite` event. Returns whether any tier pinned it now (false: not stored yet, or over
    /// a budget).
    @discardableResult
    public func pin(_ url: String, at now: Int64) async throws -> Bool {
        wanted.insert(url)
        recorder?.recordEvent(.favourite, key: url, at: now)
        let inMemory = try memory?.pin(url, at: now) ?? false
        let onDisk = try await disk?.pin(url, at: now) ?? false
        return inMemory || onDisk
    }

    /// The favourites' photos (`pin(_:at:)`) that the tier keeping them across launches — the
    /// disk, or memory without one — holds at `now` but could not pin, its pin budget full: they
    /// are cached as usual, and may be evicted. A photo not yet stored anywhere is not among them.
    public func unkeptFavouritePhotos(at now: Int64) async -> Set<String> {
        if let disk { return await disk.unpinned(among: wanted, at: now) }
        guard let memory else { return [] }
        return wanted.filter { !memory.isPinned($0) && memory.contains($0, at: now) }
    }

    /// Lets the photo at `url` go: it counts against the capacities again, as used at `now`.
    /// Recorded as an `unfavourite` event.
    public func unpin(_ url: String, at now: Int64) async throws {
        wanted.remove(url)
        recorder?.recordEvent(.unfavourite, key: url, at: now)
        try memory?.unpin(url, at: now)
        try await disk?.unpin(url, at: now)
    }

    /// Carries out an app event's action on the tiers (`ClientLifecycle`). A relaunch is not an
    /// action on a pipeline: open a new one on the same disk file.
    public func perform(_ action: ClientAction, at now: Int64) async throws {
        switch action {
        case .relaunch:
            preconditionFailure("ImagePipeline: a relaunch is a new pipeline, not an action")
        case .trimMemory(let target):
            try memory?.trim(toCost: target)
        case .sweepDisk(let limit, let trimRatio):
            try await disk?.sweep(limit: limit, trimRatio: trimRatio, at: now)
        case .pin, .unpin:
            preconditionFailure("ImagePipeline: a trace's pin names a key; pin the photo's URL with pin(_:at:)")
        }
    }

    /// Entries and bytes held by each tier, for reports and tests.
    public var holdings: Holdings {
        get async {
            let memory = self.memory.map { TierCounts(of: $0) } ?? TierCounts()
            let disk = await self.disk?.counts ?? TierCounts()
            return Holdings(
                memoryCount: memory.count, memoryBytes: memory.totalBytes, diskCount: disk.count,
                diskBytes: disk.totalBytes, evictions: memory.evictions + disk.evictions,
                expirations: memory.expirations + disk.expirations, notAdmitted: memory.notAdmitted + disk.notAdmitted,
                memoryPinnedBytes: memory.pinnedBytes, diskPinnedBytes: disk.pinnedBytes,
                peakMemoryPinnedBytes: memory.peakPinnedBytes, peakDiskPinnedBytes: disk.peakPinnedBytes,
                pinRefusals: memory.pinRefusals + disk.pinRefusals, peakMemoryCost: memory.peakCost,
                peakDiskBytes: disk.peakCost)
        }
    }

    /// Checks both tiers' bookkeeping; stops with a message if it is wrong.
    public func checkInvariants() async throws {
        try memory?.checkInvariants()
        try await disk?.checkInvariants()
        precondition(waiting.keys.allSatisfy { $0 > turn }, "ImagePipeline: a request waits for a turn that passed")
    }

    // MARK: Turns

    private func serve(_ request: Request) async throws -> LoadedImage {
        let ticket = request.ticket
        if turn != ticket {
            if Task.isCancelled {
                abandon(ticket)
            } else {
                await withCheckedContinuation { waiting[ticket] = $0 }
            }
        }
        guard turn == ticket else {
            // Cancelled before its turn: the turn passes over it.
            finish(request)
            throw CancellationError()
        }
        defer {
            finish(request)
            passTurn()
        }
        try Task.checkCancellation()
        let url = request.url
        let now = request.time
        if let bytes = try memory?.value(forKey: url, at: now) {
            // The pixels only for the recording: a memory hit needs no cost.
            record(url, size: bytes.count, source: .memory, at: now, pixels: self.pixels(of: bytes, for: request))
            return LoadedImage(bytes: bytes, source: request.delayed ? .delayed : .memory)
        }
        if let bytes = try await disk?.value(forKey: url, at: now) {
            let pixels = pixels(of: bytes, for: request)
            try store(bytes, url, in: memory, at: now, pixels: pixels)
            record(url, size: bytes.count, source: .disk, at: now, pixels: pixels)
            return LoadedImage(bytes: bytes, source: request.delayed ? .delayed : .disk)
        }
        // Not started early (a tier held the image when it was made, or an earlier request
        // wanted it), or started and the image is still in no tier: download it now.
        if downloads[ticket] == nil { startDownload(url, for: ticket) }
        let bytes = try await downloads[ticket]!.task.value
        let pixels = pixels(of: bytes, for: request)
        do {
            try await disk?.insert(bytes, forKey: url, at: now, pixels: pixels, pinned: wanted.contains(url))
        } catch {
            stats.diskWriteFailures += 1
        }
        try store(bytes, url, in: memory, at: now, pixels: pixels)
        record(url, size: bytes.count, source: .network, at: now, pixels: pixels)
        return LoadedImage(bytes: bytes, source: .network)
    }

    // The pixels (packed `PixelSize`) the request gave, else the decoder's reading of `bytes`,
    // else 0 (unknown).
    private func pixels(of bytes: [UInt8], for request: Request) -> UInt32 {
        guard request.pixels == 0, let size = decoder?.pixelSize(of: bytes) else { return request.pixels }
        return size.packed
    }

    // Records a served request; `pixels` is worked out only when there is a recorder.
    private func record(
        _ url: String, size: Int, source: TraceRecorder.Source, at now: Int64, pixels: @autoclosure () -> UInt32
    ) {
        guard let recorder else { return }
        let known = PixelSize(packed: pixels())
        recorder.recordLookup(url, size: size, source: source, at: now, width: known?.width, height: known?.height)
    }

    // Stores an image in `tier`, pinning it there if it is a favourite's.
    private func store(
        _ bytes: [UInt8], _ url: String, in tier: (any ImageTier)?, at now: Int64, pixels: UInt32
    ) throws {
        guard let tier, try tier.insert(bytes, forKey: url, at: now, pixels: pixels), wanted.contains(url) else {
            return
        }
        try tier.pin(url, at: now)
    }

    private func passTurn() {
        turn += 1
        while skipped.remove(turn) != nil { turn += 1 }
        waiting.removeValue(forKey: turn)?.resume()
    }

    // A request cancelled before it reached the pipeline.
    private func abandon(_ ticket: Int) {
        if ticket == turn {
            passTurn()
        } else if ticket > turn {
            skipped.insert(ticket)
        }
    }

    // The request's task was cancelled: cancel its download, and if its turn has not come, skip
    // it (waking it, so that it can throw).
    private func cancel(_ ticket: Int) {
        downloads[ticket]?.task.cancel()
        guard ticket > turn else { return }
        skipped.insert(ticket)
        waiting.removeValue(forKey: ticket)?.resume()
    }

    // The request is done, served or not: it leaves the line, and its download, if unfinished,
    // is cancelled.
    private func finish(_ request: Request) {
        let left = pending[request.url, default: 1] - 1
        pending[request.url] = left > 0 ? left : nil
        if let download = downloads.removeValue(forKey: request.ticket), !download.finished {
            download.task.cancel()
        }
    }

    // MARK: Downloads

    private func holds(_ url: String, at now: Int64) async -> Bool {
        if memory?.contains(url, at: now) == true { return true }
        return await disk?.contains(url, at: now) == true
    }

    private func startDownload(_ url: String, for ticket: Int) {
        let downloader = downloader
        downloading[url, default: 0] += 1
        let task = Task {
            do {
                let bytes = try await downloader.download(url)
                self.finished(ticket, url, .completed(bytes: bytes.count))
                return bytes
            } catch {
                self.finished(ticket, url, error is CancellationError ? .cancelled : .failed)
                throw error
            }
        }
        downloads[ticket] = Download(task: task)
    }

    // Called by a download's own task before it returns.
    private func finished(_ ticket: Int, _ url: String, _ ending: DownloadEnding) {
        downloads[ticket]?.finished = true
        let left = downloading[url, default: 1] - 1
        downloading[url] = left > 0 ? left : nil
        switch ending {
        case .failed: stats.failedDownloads += 1
        case .completed(let count):
            stats.downloads += 1
            stats.bytesDownloaded += count
        case .cancelled: stats.cancelledDownloads += 1
        }
    }
}
