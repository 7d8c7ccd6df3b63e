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
