/// How a run was made: its `mode` column.
public enum RunMode: String, Sendable, CaseIterable, Codable {
    /// The simulator: policies replayed in process, latency modelled.
    case sim
    /// The real client pipeline against a server over HTTP, latency measured.
    case live
}
