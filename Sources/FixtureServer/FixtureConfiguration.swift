/// Everything that shapes a fixture server: where it listens, what it serves, how slowly, and how
/// often it fails. Every random choice is drawn from `seed` and the request's number, never from
/// the wall clock, so the same requests in the same order get the same answers.
public struct FixtureConfiguration: Sendable, Equatable {
    /// Where the catalog comes from.
    public enum CatalogSource: Sendable, Equatable {
        /// `FixtureCatalog.generated(recipes:seed:)` with the configuration's seed.
        case generated(recipes: Int)
        /// A real `recipes.json`.
        case file(path: String)
    }

    /// Address to bind; 127.0.0.1 keeps the server off the network.
    public var host = "127.0.0.1"
    /// Port to bind; 0 picks a free one (learn it from `FixtureServer.baseURL`).
    public var port = 0
    public var catalog = CatalogSource.generated(recipes: 63)
    /// Lists give photo URLs as paths relative to the server (`/photos/<folder>/small.jpg`) instead
    /// of absolute URLs on it, as an API behind a CDN or a proxy may; clients resolve them against
    /// the base URL they fetched the list from. Photos are served at the same paths either way.
    public var relativePhotoPaths = false
    public var seed: UInt64 = 1
    /// `Cache-Control: public, max-age=` for lists and photos.
    public var maxAge = 3_600
    /// Added before every list or photo response.
    public var latency = Duration.zero
    /// Up to this much more, drawn per request.
    public var jitter = Duration.zero
    /// Photo bodies are sent at most this fast (bytes per second); nil is unlimited.
    public var bandwidth: Int?
    public var faults = FaultRates.none
    /// A slow drip sends the body `dripChunk` bytes at a time, `dripInterval` apart.
    public var dripChunk = 1_024
    public var dripInterval = Duration.milliseconds(20)
    /// When nothing above shapes or faults a response, photos are answered on the connection's
    /// event loop, off the wire, without the router (`PhotoFastPath`: the same bytes, headers and
    /// stats, several times the requests per second). False sends every request through the router.
    public var answersPhotosOnEventLoop = true
    /// Height of a row of the list page (`/`), in CSS pixels: a device preset's row height.
    public var pageRowHeight = 110

    /// Whether responses go out as they are: no latency, jitter, bandwidth cap or fault.
    var shapesNothing: Bool {
        latency == .zero && jitter == .zero && bandwidth == nil && faults.total == 0
    }

    public init() {}

    func validate() throws(FixtureServerError) {
        try faults.validate()
        guard (0...65_535).contains(port) else { throw .invalidConfiguration("port must be 0...65535") }
        guard maxAge >= 0 else { throw .invalidConfiguration("max-age must not be negative") }
        guard latency >= .zero, jitter >= .zero else {
            throw .invalidConfiguration("latency and jitter must not be negative")
        }
        guard bandwidth.map({ $0 > 0 }) ?? true else { throw .invalidConfiguration("bandwidth must be positive") }
        guard pageRowHeight > 0 else { throw .invalidConfiguration("a page row needs a positive height") }
        guard dripChunk > 0, dripInterval >= .zero else { throw .invalidConfiguration("drip chunk must be positive") }
        if case .generated(let recipes) = catalog, recipes <= 0 {
            throw .invalidConfiguration("a generated catalog needs at least one recipe")
        }
    }

    /// The catalog this configuration describes, generated or loaded.
    public func makeCatalog() throws(FixtureServerError) -> FixtureCatalog {
        switch catalog {
        case .generated(let recipes): .generated(recipes: recipes, seed: seed)
        case .file(let path): try .load(path: path)
        }
    }
}
