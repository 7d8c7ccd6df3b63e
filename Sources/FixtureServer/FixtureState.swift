import CacheLab
import Hummingbird

/// The fixture server's mutable state, shared by all connections: the request counter that
/// drives every random draw, the stats, and bodies rendered once and kept.
actor FixtureState {
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

    nonisolated let catalog: FixtureCatalog
    nonisolated let configuration: FixtureConfiguration
    nonisolated let clock: any Clock<Duration>
    private var requestNumber: UInt64 = 0
    private var stats = FixtureStats()
    private var baseURL: String
    private var listings: [FixtureCatalog.Listing: Payload] = [:]
    private var photoBodies: [String: Payload] = [:]

    init(catalog: FixtureCatalog, configuration: FixtureConfiguration, clock: any Clock<Duration>) {
        self.catalog = catalog
        self.configuration = configuration
        self.clock = clock
        self.baseURL = Self.baseURL(host: configuration.host, port: configuration.port)
    }

    /// `http://host:port`, with an IPv6 host in brackets and a wildcard host as 127.0.0.1.
    static func baseURL(host: String, port: Int) -> String {
        let reachable = host == "0.0.0.0" || host == "::" ? "127.0.0.1" : host
        return reachable.contains(":") ? "http://[\(reachable)]:\(port)" : "http://\(reachable):\(port)"
    }

    /// Called once bound: photo URLs in the lists then name the real address and port.
    func serverRunning(host: String, port: Int) {
        let url = Self.baseURL(host: host, port: port)
        if url != baseURL {
            baseURL = url
            listings = [:]
        }
    }

    var currentBaseURL: String { baseURL }

    /// Counts a request for a catalog resource and draws its fault and jitter, from the seed and
    /// the request's number only.
    func begin(_ route: FixtureStats.Route, path: String) -> Ticket {
        requestNumber += 1
        stats.requests += 1
        stats[route].requests += 1
        stats.paths[path, default: 0] += 1
        // Keyed by (seed, request number) through one mixing step, so requests draw disjoint streams.
        var keyed = SplitMix64(seed: (requestNumber &* 0xD1B5_4A32_D192_ED03) ^ configuration.seed)
        var random = SplitMix64(seed: keyed.next())
        let fault = configuration.faults.fault(forDraw: random.nextUnit())
        let delay = configuration.latency + configuration.jitter * random.nextUnit()
        if let fault {
            stats[route].faults += 1
            stats.faults[fault.rawValue, default: 0] += 1
        }
        return Ticket(fault: fault, delay: delay)
    }

    func notModified(_ route: FixtureStats.Route) {
        stats[route].notModified += 1
    }

    func sent(_ bytes: Int, _ route: FixtureStats.Route) {
        stats[route].bytes += bytes
        stats.bytes += bytes
    }

    func notFound() {
        stats.requests += 1
        stats[.notFound].requests += 1
    }

    func snapshot() -> FixtureStats { stats }

    /// Zeroes the stats and the request counter, so the draws start over too.
    func reset() {
        stats = FixtureStats()
        requestNumber = 0
    }

    func listing(_ listing: FixtureCatalog.Listing) -> Payload {
        if let payload = listings[listing] { return payload }
        let payload = Self.payload(Array(catalog.json(listing, baseURL: baseURL).utf8))
        listings[listing] = payload
        return payload
    }

    func photoBody(_ photo: FixtureCatalog.Photo) -> Payload {
        if let payload = photoBodies[photo.path] { return payload }
        let payload = Self.payload(PhotoBody.bytes(of: photo, seed: configuration.seed))
        photoBodies[photo.path] = payload
        return payload
    }

    private static func payload(_ bytes: [UInt8]) -> Payload {
        let hash = String(StableHash.fnv1a(bytes), radix: 16)
        return Payload(
            body: ByteBuffer(bytes: bytes), etag: "\"\(String(repeating: "0", count: 16 - hash.count))\(hash)\"")
    }
}
