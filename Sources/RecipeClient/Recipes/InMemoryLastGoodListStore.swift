import CacheLabLocking

/// A `LastGoodListStore` in memory: survives a new list model, not a new process.
/// For tests, and for runs that need no persistence.
public final class InMemoryLastGoodListStore: LastGoodListStore, Sendable {
    private let saved = Locked<(json: [UInt8], at: Int64)?>(nil)

    public init(json: [UInt8]? = nil, at now: Int64 = 0) {
        if let json {
            saved.withLock { $0 = (json, now) }
        }
    }

    public func loadLastGoodList() -> [UInt8]? {
        saved.withLock { $0?.json }
    }

    public func saveLastGoodList(_ json: [UInt8], at now: Int64) {
        saved.withLock { $0 = (json, now) }
    }

    /// When the list was last saved, or `nil` if never.
    public var savedAt: Int64? {
        saved.withLock { $0?.at }
    }
}
