/// Which tier of an app's image cache a single-tier run models.
public enum TierKind: String, CaseIterable, Sendable, Codable {
    /// A persistent disk cache: survives app relaunches; a hit costs a read.
    case disk
    /// An in-memory cache: emptied by every relaunch; a hit is nearly free.
    case memory
}
