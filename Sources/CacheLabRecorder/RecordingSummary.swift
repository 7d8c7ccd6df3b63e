import Foundation

/// What a closed recording wrote.
public struct RecordingSummary: Sendable, Equatable {
    /// The part files this recorder wrote, in order.
    public var parts: [URL] = []
    /// Bytes it appended to them.
    public var bytes = 0
    /// Lookups and events recorded.
    public var records = 0
    /// Records whose time was earlier than the one before (written as that one).
    public var clampedTimes = 0
}
