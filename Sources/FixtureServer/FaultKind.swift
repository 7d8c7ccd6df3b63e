/// A way a response can go wrong, injected by rate.
public enum FaultKind: String, Sendable, CaseIterable, Codable {
    /// `503 Service Unavailable` with a short text body.
    case serverError = "5xx"
    /// The connection is reset (SO_LINGER 0, then closed) before any response is written.
    case reset
    /// `Content-Length` gives the full size, half the body is sent, then the connection closes.
    case truncate
    /// The whole body arrives in small chunks with a delay between them.
    case drip
    /// `Content-Length` is short: a well-formed response whose body is a prefix of the real one
    /// (a photo then lacks its JPEG end marker `FF D9`; a list is not valid JSON).
    case length

    public var summary: String {
        switch self {
        case .serverError: "503 Service Unavailable"
        case .reset: "connection reset before any response"
        case .truncate: "Content-Length says N, N/2 bytes come, then the connection closes"
        case .drip: "the body in small chunks with a delay between them"
        case .length: "a short Content-Length: a complete-looking response, body cut"
        }
    }
}
