/// What a policy answers when a missed entry is about to be stored (``AdmittingPolicy``).
public enum Admission: Sendable, Equatable {
    /// Make room and store it (every classic policy, always).
    case store
    /// Store nothing and evict nothing.
    case reject
    /// Make room as for storing it, then store nothing: libCacheSim's S3-FIFO does this for an
    /// object as big as its small queue.
    case evictOnly
}
