import CacheLab
import CacheLabLocking
import ClientModel
import Hummingbird

/// The fixture server's mutable state, shared by all connections: the request counter that
/// drives every random draw, the stats, and bodies rendered once and kept.
///
/// Behind one lock rather than an actor: every request touches it two or three times, and an
/// actor would hop from the connection's event loop to the concurrency pool and back each time.
/// Nothing slow happens under the lock (a body is rendered outside it).
final class FixtureState: Sendable {
    /// A body ready to send, with its strong ETag.
    struct Payload: Sendable {
        var body: ByteBuffer
        var etag: String
    }

    /// What a request's draw decided.
    struct Ticket: Sendable {
        var fault: FaultKind?
        /// Latency plus this request's jitter.
        var delay: Duration
    }

    let catalog: FixtureCatalog
    let configuration: FixtureConfiguration
    let clock: any Clock<Duration>
    /// Called with each catalog photo requested, before it is answered (`serve --record`).
    let photoRequested: (@Sendable (FixtureCatalog.Photo) -> Void)?
    /// The catalog as pages for a browser (`/` and `/recipes/<uuid>`).
    let pages: RecipePages
    /// `Cache-Control` of lists and photos, made once.
    let cacheControl: String
    private let mutable: Locked<Mutable>

    private struct Mutable {
        var requestNumber: UInt64 = 0
        var stats = FixtureStats()
        var baseURL: String
        var listings: [FixtureCatalog.Listing: Payload] = [:]
        var photoBodies: [String: Payload] = [:]

        /// Counts a request for `path` and gives it the next number.
        mutating func begin(_ route: FixtureStats.Route, path: String) -> UInt64 {
            requestNumber += 1
            stats.requests += 1
            stats[route].requests += 1
            stats.paths[path, default: 0] += 1
            return requestNumber
        }

        mutating func sent(_ bytes: Int, _ route: FixtureStats.Route) {
            stats[route].bytes += bytes
            stats.bytes += bytes
        }
    }

    init(
        catalog: FixtureCatalog, configuration: FixtureConfiguration, clock: any Clock<Duration>,
        photoRequested: (@Sendable (FixtureCatalog.Photo) -> Void)? = nil
    ) {
        self.catalog = catalog
        self.configuration = configuration
        self.clock = clock
        self.photoRequested = photoRequested
        self.pages = RecipePages(catalog: catalog, rowHeight: configuration.pageRowHeight)
        self.cacheControl = "public, max-age=\(configuration.maxAge)"
        self.mutable = Locked(Mutable(baseURL: Self.baseURL(host: configuration.host, port: configuration.port)))
    }

    /// `http://host:port`, with an IPv6 host in brackets and a wildcard host as 127.0.0.1.
    static func baseURL(host: String, port: Int) -> String {
        let reachable = host == "0.0.0.0" || host == "::" ? "127.0.0.1" : host
        return reachable.contains(":") ? "http://[\(reachable)]:\(port)" : "http://\(reachable):\(port)"
    }

    /// Called once bound: photo URLs in the lists then name the real address and port.
    func serverRunning(host: String, port: Int) {
        let url = Self.baseURL(host: host, port: port)
        mutable.withLock { state in
            if url != state.baseURL {
                state.baseURL = url
                state.listings = [:]
            }
        }
    }

    var currentBaseURL: String { mutable.withLock { $0.baseURL } }

    /// Counts a request for a catalog resource and draws its fault and jitter, from the seed and
    /// the request's number only.
    func begin(_ route: FixtureStats.Route, path: String) -> Ticket {
        let requestNumber = mutable.withLock { $0.begin(route, path: path) }
        // Keyed by (seed, request number) through one mixing step, so requests draw disjoint streams.
        var keyed = SplitMix64(seed: (requestNumber &* 0xD1B5_4A32_D192_ED03) ^ configuration.seed)
        var random = SplitMix64(seed: keyed.next())
        let fault = configuration.faults.fault(forDraw: random.nextUnit())
        let delay = configuration.latency + configuration.jitter * random.nextUnit()
        if let fault {
            mutable.withLock { state in
                state.stats[route].faults += 1
                state.stats.faults[fault.rawValue, default: 0] += 1
            }
        }
        return Ticket(fault: fault, delay: delay)
    }

    /// A photo answered on the fast path, counted under one lock as `begin` and then `sent` (or
    /// `notModified`) count it. The fast path runs only when nothing is shaped, when the draws
    /// `begin` makes are no fault and no delay, so there is nothing to draw.
    func answered(_ route: FixtureStats.Route, path: String, sent bytes: Int?) {
        mutable.withLock { state in
            _ = state.begin(route, path: path)
            if let bytes { state.sent(bytes, route) } else { state.stats[route].notModified += 1 }
        }
    }

    func notModified(_ route: FixtureStats.Route) {
        mutable.withLock { $0.stats[route].notModified += 1 }
    }

    func sent(_ bytes: Int, _ route: FixtureStats.Route) {
        mutable.withLock { $0.sent(bytes, route) }
    }

    func notFound() {
        mutable.withLock { state in
            state.stats.requests += 1
            state.stats[.notFound].requests += 1
        }
    }

    func snapshot() -> FixtureStats { mutable.withLock { $0.stats } }

    /// Zeroes the stats and the request counter, so the draws start over too.
    func reset() {
        mutable.withLock { state in
            state.stats = FixtureStats()
            state.requestNumber = 0
        }
    }

    func listing(_ listing: FixtureCatalog.Listing) -> Payload {
        let (cached, baseURL) = mutable.withLock { ($0.listings[listing], $0.baseURL) }
        if let cached { return cached }
        // An empty base leaves each photo URL its path alone: relative to the server's root.
        let photoBase = configuration.relativePhotoPaths ? "" : baseURL
        let payload = Self.payload(Array(catalog.json(listing, baseURL: photoBase).utf8))
        mutable.withLock { $0.listings[listing] = payload }
        return payload
    }

    /// The body of `photo`, rendered on first use (outside the lock) and kept.
    func photoBody(_ photo: FixtureCatalog.Photo, path: String) -> Payload {
        if let cached = mutable.withLock({ $0.photoBodies[path] }) { return cached }
        let payload = Self.payload(PhotoBody.bytes(of: photo, seed: configuration.seed))
        mutable.withLock { $0.photoBodies[path] = payload }
        return payload
    }

    private static func payload(_ bytes: [UInt8]) -> Payload {
        let hash = String(StableHash.fnv1a(bytes), radix: 16)
        return Payload(
            body: ByteBuffer(bytes: bytes), etag: "\"\(String(repeating: "0", count: 16 - hash.count))\(hash)\"")
    }
}
