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
