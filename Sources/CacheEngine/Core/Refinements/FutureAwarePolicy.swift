/// A policy told each request's next use before the request is served (Belady's optimum): the
/// replay calls `Cache.upcoming(nextUse:)` before every lookup (``EvictionPolicy/needsFuture``).
/// A client's tiers, which have no future, refuse it.
public protocol FutureAwarePolicy: EvictionPolicy {
    /// The request about to be served is next requested at trace position `nextUse`
    /// (`Int64.max` if never).
    mutating func upcoming(nextUse: Int64)
}

extension _PolicyHooks where Self: FutureAwarePolicy {
    @inlinable public static var _needsFuture: Bool { true }

    @inline(__always)
    @inlinable public mutating func _upcoming(nextUse: Int64) { upcoming(nextUse: nextUse) }
}
