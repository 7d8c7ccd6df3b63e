/// What a fixture server has served since it started or its stats were last reset: the numbers
/// `/stats` returns, so a client's own counts can be checked against them.
public struct FixtureStats: Codable, Sendable, Equatable {
    /// The kinds of request counted apart.
    public enum Route: String, Codable, Sendable, CaseIterable {
        case recipes
        case malformed = "recipes-malformed"
        case empty = "recipes-empty"
        case smallPhoto = "photo-small"
        case largePhoto = "photo-large"
        /// Anything not in the catalog, including path traversal attempts.
        case notFound = "not-found"
    }

    /// Counts for one kind of request.
    public struct Counts: Codable, Sendable, Equatable {
        public var requests = 0
        /// Answered `304 Not Modified`.
        public var notModified = 0
        /// Given an injected fault.
        public var faults = 0
        /// Body bytes of the resource written to the connection (a truncated body counts what was
        /// sent; 503 and 304 responses count none).
        public var bytes = 0

        public init() {}
    }

    /// Requests of every route kind (`/stats` itself is not counted).
    public var requests = 0
    /// Resource body bytes written, all routes.
    public var bytes = 0
    /// Keyed by `Route.rawValue`.
    public var routes: [String: Counts] = [:]
    /// Injected faults, keyed by `FaultKind.rawValue`.
    public var faults: [String: Int] = [:]
    /// Requests per catalog path (`/recipes.json`, `/photos/<folder>/small.jpg`, …).
    public var paths: [String: Int] = [:]

    public init() {}

    /// The counts of one route kind (zero when it was never requested).
    public subscript(route: Route) -> Counts {
        get { routes[route.rawValue] ?? Counts() }
        set { routes[route.rawValue] = newValue }
    }
}
