/// Where a live replay downloads the trace's objects, and how it reads what the server counted:
/// a fixture server in this process or one already running (`LiveServer` makes both), or any
/// server that serves the objects and counts them.
public struct LiveEndpoint: Sendable {
    /// The server's base URL, without a trailing slash.
    public var baseURL: String
    /// The path the server serves object `key` of the trace at (starting with `/`).
    public var path: @Sendable (UInt64) -> String
    /// What the server has counted so far.
    public var counts: @Sendable () async throws -> ServerCounts

    public init(
        baseURL: String, path: @escaping @Sendable (UInt64) -> String,
        counts: @escaping @Sendable () async throws -> ServerCounts
    ) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.path = path
        self.counts = counts
    }
}

/// A server's running totals for the objects it serves: read before and after a run, the
/// difference is the run's.
public struct ServerCounts: Sendable, Equatable {
    /// Requests for objects (photos) and their body bytes.
    public var requests: Int
    public var bytes: Int
    /// Faults injected, by kind.
    public var faults: [String: Int]

    public init(requests: Int, bytes: Int, faults: [String: Int] = [:]) {
        self.requests = requests
        self.bytes = bytes
        self.faults = faults
    }
}
