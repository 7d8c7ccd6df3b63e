import CacheEngine
import CacheLabRecorder
import ClientModel

/// Loads images through memory, then disk, then the network, the way a recipe list's rows ask
/// for their photos: many at once, some for the same photo, some cancelled when the row scrolls
/// away.
///
/// ## Rules
/// - **Tiers.** A lookup tries the memory tier, then the disk tier; a disk hit is copied into
///   memory; a download is stored in memory, then on disk. Either tier may be absent. Both are
///   CacheLab engines under any `PolicyKind` (`ClientConfiguration` says which and how big).
/// - **Independent requests.** A request is looked up when it is made: a memory hit is answered
///   then, a disk hit as soon as the disk has read it, and neither waits for any other request.
///   A miss starts its download and waits for it alone; when the download ends, its image is
///   stored in the tiers (evicting what it must) and handed to every request waiting for it.
///   So a hit changes its tier's policy at its request's time and a miss's insertion happens at
///   its download's end, as the simulator models them (`Replay.simulate(_:client:)`, whose
///   downloads end at the latency model's time): the same requests meeting the same download
///   ends meet the same cache states, and have the simulator's outcomes.
/// - **Nothing forgotten stalls the rest.** No request waits for another's turn, so a request an
///   app makes and never awaits holds up nothing: its download, if it started one, still stores
///   the image. An app asks with `image(for:at:pixels:)`, which makes the request and loads it in
///   one call; the two steps apart, `request(_:at:pixels:)` then `image(for:)`, are the live
///   replay's, which makes the requests in trace order from one task and awaits each in another.
/// - **The disk off the actor.** The disk tier runs on an executor of its own (`DiskQueue`), as
///   the image libraries keep their disk caches' file work on a queue of their own: while SQLite
///   reads or writes, memory hits are answered and new requests made. Its operations run one at a
///   time in the order the pipeline asks.
/// - **Coalescing.** A request for a URL whose load is under way — its disk read or its download
///   — starts no other: it waits for that one and is served by it (`Stats.coalesced`). Served by
///   a download, it is a delayed hit (`RequestOutcome.delayed`), as the simulator's.
/// - **Cancellation.** Cancelling a request's task gives it `CancellationError` at once; when
///   every request a download serves has been cancelled, the download is cancelled, stores
///   nothing, and the next request for the URL starts one of its own. A request made and never
///   awaited keeps its download going.
/// - **Integrity.** Only whole images are stored (`ImageDownloading` checks status, length and
///   format); a tier never serves bytes that fail its check. A failed download stores nothing and
///   reaches each request waiting for it as its error.
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
/// - **Time** is an input (`at now:`, ms), as in every tier; the pipeline never reads a clock. A
///   download's image is stored at the latest time the pipeline has been given, so the tiers
///   never see time go back.
/// - **Recording.** Given a `TraceRecorder`, the pipeline records every request it serves — the
///   URL, the image's size and the tier that answered — in the order the requests were made, at
///   each one's time, once it is answered. A request that fails or is cancelled is not recorded.
///   Pins are recorded as `favourite` and `unfavourite` events; other app events are the app's to
///   record.
///
/// A relaunch is a new pipeline on the same disk file; app events in between are `perform(_:at:)`.
public actor ImagePipeline {
    /// An image and where it came from.
    public struct LoadedImage: Sendable {
        public let bytes: [UInt8]
        public let source: RequestOutcome
    }

    /// A request made by `request(_:at:pixels:)`: answered already (a hit, or a disk that failed),
    /// or waiting for a load under way; `image(for:)` gives its image.
    package struct Request: Sendable {
        package let url: String
        package let time: Int64
        /// What the request got when it was made.
        let answer: Answer
        /// Whether it started a download (a miss in every tier with none under way).
        package var startedDownload: Bool {
            if case .waiting(_, let started) = answer { started } else { false }
        }
        /// The image, when the request was answered as it was made.
        package var image: LoadedImage? {
            if case .image(let image) = answer { image } else { nil }
        }
    }

    enum Answer: Sendable {
        case image(LoadedImage)
        case failure(any Error)
        /// Waiting for `load`; `started`: its download is this request's own.
        case waiting(Load, started: Bool)
    }

    /// What the pipeline did on the network since it opened.
    public struct Stats: Sendable, Equatable {
        /// Downloads that completed with a whole image.
        public var downloads = 0
        /// Their bytes.
        public var bytesDownloaded = 0
        /// Downloads that failed (each surfaced to its requests).
        public var failedDownloads = 0
        /// Requests that started no load of their own: they joined one under way for their URL.
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
    /// Records each served request, in the order they were made (nil: no recording).
    private let recorder: TraceRecorder?
    public private(set) var stats = Stats()
    /// The favourites' photo URLs: pinned in each tier as it stores them.
    public private(set) var wanted: Set<String>

    // The loads under way (a disk read or a download), by URL.
    private var loads: [String: Load] = [:]
    // The latest time given: when a download's image is stored.
    private var latest: Int64 = .min
    // Records, in the order their requests were made: each request's number, and those answered
    // but not yet written because an earlier one is still waiting.
    private var nextRequest = 0
    private var nextRecord = 0
    private var answered: [Int: Record?] = [:]

    private struct Record {
        let url: String
        let size: Int
        let source: TraceRecorder.Source
        let time: Int64
        let pixels: UInt32
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

    /// Makes a request for `url` at `now` and looks it up: answered at once from memory, from
    /// disk once it is read, or waiting for a load of the URL under way, or for the download it
    /// starts. Make requests in the order the list asks for them; load each with `image(for:)`.
    ///
    /// - Parameters:
    ///   - url: the photo's address, its key in every tier.
    ///   - now: milliseconds since 1970.
    ///   - pixels: the image's size in pixels when the app knows it (packed `PixelSize`): a memory
    ///     tier costing decoded bitmaps charges by it.
    package func request(_ url: String, at now: Int64, pixels: UInt32 = 0) async -> Request {
        latest = max(latest, now)
        let number = nextRequest
        nextRequest += 1
        do {
            if let bytes = try memory?.value(forKey: url, at: now) {
                // The pixels only for the recording: a memory hit needs no cost.
                if recorder != nil {
                    answer(
                        number,
                        Record(
                            url: url, size: bytes.count, source: .memory, time: now,
                            pixels: self.pixels(of: bytes, pixels)))
                }
                return Request(url: url, time: now, answer: .image(LoadedImage(bytes: bytes, source: .memory)))
            }
        } catch {
            answer(number, nil)
            return Request(url: url, time: now, answer: .failure(error))
        }
        if let load = loads[url] {
            stats.coalesced += 1
            load.requests.append(Load.Member(number: number, time: now, pixels: pixels))
            load.staying += 1
            return Request(url: url, time: now, answer: .waiting(load, started: false))
        }
        let load = Load(url: url, first: Load.Member(number: number, time: now, pixels: pixels))
        loads[url] = load
        if let disk {
            let read: Result<[UInt8]?, any Error>
            do { read = .success(try await disk.value(forKey: url, at: now)) } catch { read = .failure(error) }
            switch read {
            case .success(let bytes?):
                let pixels = self.pixels(of: bytes, pixels)
                do {
                    try store(bytes, url, in: memory, at: now, pixels: pixels)
                } catch {
                    end(load, with: .failure(error))
                    return Request(url: url, time: now, answer: .failure(error))
                }
                end(load, with: .success(bytes), from: .disk, pixels: pixels)
                return Request(url: url, time: now, answer: .image(LoadedImage(bytes: bytes, source: .disk)))
            case .success(nil):
                break
            case .failure(let error):
                end(load, with: .failure(error))
                return Request(url: url, time: now, answer: .failure(error))
            }
        }
        startDownload(load)
        return Request(url: url, time: now, answer: .waiting(load, started: true))
    }

    /// Loads the image at `url`: from memory at once when it holds it, else from disk, else from
    /// the network (see the rules above).
    ///
    /// - Parameters:
    ///   - url: the photo's address, its key in every tier.
    ///   - now: milliseconds since 1970.
    ///   - pixels: the image's size in pixels when the app knows it (packed `PixelSize`): a memory
    ///     tier costing decoded bitmaps charges by it.
    /// - Throws: `ImageLoadingError` when the download fails, `CancellationError` when the task
    ///   was cancelled, `StoreError` when the disk fails on a read.
    public func image(for url: String, at now: Int64, pixels: UInt32 = 0) async throws -> LoadedImage {
        try Task.checkCancellation()
        return try await image(for: await request(url, at: now, pixels: pixels))
    }

    /// The image of `request`: its answer, or the end of the load it waits for.
    ///
    /// - Throws: `ImageLoadingError` when the download fails, `CancellationError` when the task
    ///   was cancelled, `StoreError` when the disk fails on a read.
    package func image(for request: Request) async throws -> LoadedImage {
        switch request.answer {
        case .image(let image): return image
        case .failure(let error): throw error
        case .waiting(let load, let started):
            let source: RequestOutcome = started ? .network : .delayed
            if let ending = load.ending { return try LoadedImage(bytes: ending.get(), source: load.source(source)) }
            let waiter = load.nextWaiter
            load.nextWaiter += 1
            let bytes = try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[UInt8], any Error>) in
                    wait(for: load, as: waiter, continuation)
                }
            } onCancel: {
                Task { await self.leave(load, waiter) }
            }
            return LoadedImage(bytes: bytes, source: load.source(source))
        }
    }

    /// The image for `url` if the memory tier holds it at `now`, without making a request: for
    /// drawing a row in the same frame, synchronously. It counts as a use of the entry outside
    /// any request, which a trace does not hold: a replay does not call it (`image(for:)` answers
    /// memory hits at once).
    public func cachedImage(for url: String, at now: Int64) throws -> [UInt8]? {
        try memory?.value(forKey: url, at: now)
    }

    /// Keeps the photo at `url` for a favourite: pins it in each tier that holds it (memory, then
    /// disk), and in each tier that stores it later, until `unpin(_:at:)`. Recorded as a
    /// `favourite` event. Returns whether any tier pinned it now (false: not stored yet, or over
    /// a budget).
    @discardableResult
    public func pin(_ url: String, at now: Int64) async throws -> Bool {
        latest = max(latest, now)
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
        latest = max(latest, now)
        wanted.remove(url)
        recorder?.recordEvent(.unfavourite, key: url, at: now)
        try memory?.unpin(url, at: now)
        try await disk?.unpin(url, at: now)
    }

    /// Carries out an app event's action on the tiers (`ClientLifecycle`). A relaunch is not an
    /// action on a pipeline: open a new one on the same disk file.
    public func perform(_ action: ClientAction, at now: Int64) async throws {
        latest = max(latest, now)
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

    /// The requests awaiting a load under way (for tests).
    var waiterCount: Int { loads.values.reduce(0) { $0 + $1.waiters.count } }

    /// Checks both tiers' bookkeeping; stops with a message if it is wrong.
    public func checkInvariants() async throws {
        try memory?.checkInvariants()
        try await disk?.checkInvariants()
        precondition(loads.values.allSatisfy { $0.ending == nil }, "ImagePipeline: a load ended but is under way")
    }

    // MARK: Loads

    /// A load of one URL under way — its disk read, then its download — and the requests it
    /// serves. Touched only on the pipeline's actor (a `Request` carries it back there), hence
    /// `@unchecked Sendable`.
    final class Load: @unchecked Sendable {
        struct Member {
            let number: Int
            let time: Int64
            let pixels: UInt32
        }

        let url: String
        // The requests it serves, the one that made it first.
        var requests: [Member]
        var task: Task<Void, Never>?
        // The requests awaiting it (`image(for:)`), each by a number of its own.
        var waiters: [Int: CheckedContinuation<[UInt8], any Error>] = [:]
        // The requests it serves that have not left (their task cancelled): when none is left,
        // its download is cancelled. A request made and never awaited stays.
        var staying = 1
        var nextWaiter = 0
        // How it ended, once it has, and which tier the image came from.
        var ending: Result<[UInt8], any Error>?
        var servedFrom = RequestOutcome.network

        init(url: String, first: Member) {
            self.url = url
            requests = [first]
        }

        // The outcome of a request it served: a disk hit for all, or `asked` (the network for
        // the one that made it, a delayed hit for the rest).
        func source(_ asked: RequestOutcome) -> RequestOutcome { servedFrom == .disk ? .disk : asked }
    }

    private func startDownload(_ load: Load) {
        let downloader = downloader
        let url = load.url
        load.task = Task {
            let result: Result<[UInt8], any Error>
            do {
                let bytes = try await downloader.download(url)
                // Cancelled as it ended: no request wants it any more.
                try Task.checkCancellation()
                result = .success(bytes)
            } catch {
                result = .failure(error)
            }
            await self.downloaded(load, result)
        }
    }

    // A download ended: its image is stored in memory, then on disk, at the latest time given,
    // and handed to its requests.
    private func downloaded(_ load: Load, _ result: Result<[UInt8], any Error>) async {
        let bytes: [UInt8]
        switch result {
        case .success(let image): bytes = image
        case .failure(let error):
            if error is CancellationError { stats.cancelledDownloads += 1 } else { stats.failedDownloads += 1 }
            end(load, with: result)
            return
        }
        stats.downloads += 1
        stats.bytesDownloaded += bytes.count
        let url = load.url
        let now = latest
        let pixels = pixels(of: bytes, load.requests[0].pixels)
        do {
            try store(bytes, url, in: memory, at: now, pixels: pixels)
        } catch {
            end(load, with: .failure(error))
            return
        }
        do {
            try await disk?.insert(bytes, forKey: url, at: now, pixels: pixels, pinned: wanted.contains(url))
        } catch {
            stats.diskWriteFailures += 1
        }
        end(load, with: result, pixels: pixels)
    }

    // A load ended: it is no longer under way, its requests are answered and recorded, and its
    // waiters resumed.
    private func end(
        _ load: Load, with result: Result<[UInt8], any Error>, from source: RequestOutcome = .network,
        pixels: UInt32 = 0
    ) {
        if loads[load.url] === load { loads[load.url] = nil }
        load.ending = result
        load.servedFrom = source
        for (index, member) in load.requests.enumerated() {
            guard case .success(let bytes) = result else {
                answer(member.number, nil)
                continue
            }
            let tier: TraceRecorder.Source = index > 0 ? .memory : source == .disk ? .disk : .network
            answer(
                member.number, Record(url: load.url, size: bytes.count, source: tier, time: member.time, pixels: pixels)
            )
        }
        load.requests = []
        let waiters = load.waiters
        load.waiters = [:]
        for continuation in waiters.values { continuation.resume(with: result) }
    }

    // Adds a waiter to `load`, on the actor: answered now if the load has ended or the task was
    // cancelled, else when the load ends.
    private func wait(
        for load: Load, as waiter: Int, _ continuation: CheckedContinuation<[UInt8], any Error>
    ) {
        if let ending = load.ending {
            continuation.resume(with: ending)
        } else if Task.isCancelled {
            depart(load)
            continuation.resume(throwing: CancellationError())
        } else {
            load.waiters[waiter] = continuation
        }
    }

    // A waiting request's task was cancelled: it throws now (and leaves its load).
    private func leave(_ load: Load, _ waiter: Int) {
        guard let continuation = load.waiters.removeValue(forKey: waiter) else { return }
        depart(load)
        continuation.resume(throwing: CancellationError())
    }

    // A request left `load`: when every request it serves has, its download is cancelled and the
    // load is no longer under way, so the next request for the URL starts a download of its own
    // instead of joining one that will store nothing.
    private func depart(_ load: Load) {
        load.staying -= 1
        guard load.staying == 0, load.ending == nil else { return }
        load.task?.cancel()
        if loads[load.url] === load { loads[load.url] = nil }
    }

    // MARK: Storing and recording

    // The pixels (packed `PixelSize`) the request gave, else the decoder's reading of `bytes`,
    // else 0 (unknown).
    private func pixels(of bytes: [UInt8], _ given: UInt32) -> UInt32 {
        guard given == 0, let size = decoder?.pixelSize(of: bytes) else { return given }
        return size.packed
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

    // Request `number` was answered (`record`), or failed (nil): written once every request made
    // before it has been.
    private func answer(_ number: Int, _ record: Record?) {
        guard let recorder else { return }
        answered[number] = .some(record)
        while let next = answered.removeValue(forKey: nextRecord) {
            nextRecord += 1
            guard let record = next else { continue }
            let known = PixelSize(packed: record.pixels)
            recorder.recordLookup(
                record.url, size: record.size, source: record.source, at: record.time, width: known?.width,
                height: known?.height)
        }
    }
}
