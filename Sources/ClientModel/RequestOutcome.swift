/// Where one request's image came from: the one definition of a hit that the simulated and the
/// live replay share, so that they can be compared request by request.
public enum RequestOutcome: UInt8, Sendable, CaseIterable, Codable, CustomStringConvertible {
    /// A hit in the memory tier.
    case memory
    /// A hit in the disk tier (the image is then copied into memory).
    case disk
    /// A miss: downloaded, then stored in the tiers.
    case network
    /// A miss whose download failed (live replay only): nothing was stored.
    case failed
    /// A delayed hit: the image was still being downloaded for an earlier request, and this one
    /// waited for the rest of that download. Neither a hit (it waited) nor a download of its own.
    case delayed
    /// A prefetch that was never made: stopped while it waited for a slot, or asked for a photo
    /// already being prefetched (`ImagePrefetcher`). Not a request: it reached no tier.
    case dropped

    /// Served at once by a tier.
    @inlinable public var isHit: Bool { self == .memory || self == .disk }

    /// Served without a download of its own: a hit or a delayed hit.
    @inlinable public var savesDownload: Bool { self == .memory || self == .disk || self == .delayed }

    @inlinable public var description: String {
        switch self {
        case .memory: "memory"
        case .disk: "disk"
        case .network: "network"
        case .failed: "failed"
        case .delayed: "delayed"
        case .dropped: "dropped"
        }
    }
}
