/// Something the app did between two requests.
public struct TraceEvent: Sendable, Equatable, Hashable {
    /// What happened.
    public enum Kind: String, Sendable, CaseIterable, Hashable {
        /// The app was terminated and launched again: memory tiers start empty, disk tiers persist.
        case relaunch
        /// The app went to the background.
        case background
        /// The app came back to the foreground.
        case foreground
        /// The system asked the app to free memory.
        case memoryWarning = "memory_warning"
        /// The person favourited a recipe: its photo `key` is pinned in every tier of a client
        /// (one event per photo).
        case favourite
        /// The person unfavourited a recipe: its photo `key` counts against the capacity again.
        case unfavourite
        /// The list asked its prefetcher (`ImagePrefetcher`) for photo `key`: the request right
        /// after this event, for that key, is the prefetch, made when the prefetcher has a slot.
        case prefetch
        /// The list stopped prefetching photo `key` (its row left the prefetch band unshown): a
        /// prefetch still waiting is dropped, one under way cancelled.
        case stopPrefetch = "stop_prefetch"

        /// Whether events of this kind name a photo (`key`): favourites and prefetches do,
        /// lifecycle events not.
        public var takesKey: Bool { self == .favourite || self == .unfavourite || isPrefetcher }

        /// Whether this is the prefetcher's (`prefetch`, `stop_prefetch`): a replay waits for
        /// nothing at them, where it lets the downloads under way end at the app's other events.
        public var isPrefetcher: Bool { self == .prefetch || self == .stopPrefetch }
    }

    /// Index of the request this event precedes (`trace.count` for an event at the very end).
    public var position: Int
    /// Trace time of the event, in milliseconds.
    public var time: Int64
    public var kind: Kind
    /// The photo a `favourite` or `unfavourite` names, as the trace's requests key it; `nil` for
    /// the other kinds.
    public var key: UInt64?

    public init(position: Int, time: Int64, kind: Kind, key: UInt64? = nil) {
        precondition(
            kind.takesKey == (key != nil), "a \(kind.rawValue) event \(kind.takesKey ? "needs" : "takes no") key")
        self.position = position
        self.time = time
        self.kind = kind
        self.key = key
    }
}
