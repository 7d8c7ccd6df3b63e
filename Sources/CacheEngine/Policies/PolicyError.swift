/// A policy asked of a part of cachelab that cannot run it.
public enum PolicyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The policy needs each request's next use (Belady's optimum), which only the single-tier
    /// simulator has; `place` names what refused it ("a memory tier", "a live replay").
    case needsFuture(PolicyKind, place: String)

    @inlinable public var description: String {
        switch self {
        case .needsFuture(let kind, let place):
            "\(kind.rawValue) needs the whole trace in advance (each request's next use), so \(place) cannot run it; it runs only in the single-tier simulator"
        }
    }
}

extension PolicyKind {
    /// Throws `PolicyError.needsFuture` if this policy needs the future, which `place` (a client
    /// tier, a live replay) does not have.
    @inlinable public func requireOnline(for place: String) throws(PolicyError) {
        if needsFuture { throw .needsFuture(self, place: place) }
    }
}
