/// Where one request's image came from: the one definition of a hit that the simulated and the
/// live replay share, so that they can be compared request by request.
public enum RequestOutcome: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    /// A hit in the memory tier.
    case memory
    /// A hit in the disk tier (the image is then copied into memory).
    case disk
    /// A miss: downloaded, then stored in the tiers.
    case network
    /// A miss whose download failed (live replay only): nothing was stored.
    case failed

    public var isHit: Bool { self == .memory || self == .disk }

    public var description: String {
        switch self {
        case .memory: "memory"
        case .disk: "disk"
        case .network: "network"
        case .failed: "failed"
        }
    }
}
