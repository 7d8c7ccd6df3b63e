import CacheLab
import CacheLabRecorder

extension TraceRecorder.Event {
    /// The recorder's name for a trace event: the same word; nil for the prefetcher's, which an
    /// app's recording does not hold.
    init?(_ kind: TraceEvent.Kind) {
        switch kind {
        case .relaunch: self = .relaunch
        case .background: self = .background
        case .foreground: self = .foreground
        case .memoryWarning: self = .memoryWarning
        case .favourite: self = .favourite
        case .unfavourite: self = .unfavourite
        case .prefetch, .stopPrefetch: return nil
        }
    }
}
