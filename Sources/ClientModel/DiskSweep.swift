/// When a disk tier enforces its size limit.
public enum DiskSweep: Sendable, Equatable, Codable {
    /// On every insertion, as the engine does: a hard limit.
    case onInsert
    /// At app launch, if the last sweep is older than the interval (ms): Nuke's `DataCache`.
    case atLaunch(minimumInterval: Int64)
    /// When the app goes to the background and at launch (after a termination): Kingfisher and
    /// SDWebImage.
    case atBackgroundAndLaunch
}
