/// Why the cache dropped an entry on its own.
public enum RemovalReason: Sendable, Equatable {
    /// Evicted by the policy to make room.
    case evicted
    /// Its lifetime was over.
    case expired
}
