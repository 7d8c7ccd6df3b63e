import CacheEngine

extension PolicyKind {
    /// Opens a disk tier over `store` ordered by this policy, as an existential: the policy is
    /// chosen at run time (a command-line flag), and the per-call cost of the existential is
    /// nothing beside an SQLite statement.
    ///
    /// - Throws: `PolicyError.needsFuture` for a policy that needs the future (Belady), before
    ///   touching the store; else `StoreError`.
    public func openDiskTier(
        store: DiskStore, configuration: CacheConfiguration, at now: Int64, pinBudget: Int = .max,
        keepingPins: Set<String>? = nil
    ) throws -> any ImageTier {
        try requireOnline(for: "a client's disk tier")
        return try withOrder(
            DiskTierOpener(
                store: store, configuration: configuration, now: now, pinBudget: pinBudget, keepingPins: keepingPins)
        ).get()
    }

    /// Opens the store file at `path` and a disk tier of `capacity` bytes over it, with this
    /// policy's default limits (trim ratio, TTL).
    public func openDiskTier(path: String, capacity: Int, at now: Int64) throws -> any ImageTier {
        try openDiskTier(store: DiskStore(path: path), configuration: configuration(capacity: capacity), at: now)
    }
}

private struct DiskTierOpener: PolicyBody {
    typealias Result = Swift.Result<any ImageTier, any Error>
    let store: DiskStore
    let configuration: CacheConfiguration
    let now: Int64
    let pinBudget: Int
    let keepingPins: Set<String>?

    func run<Policy: EvictionPolicy>(_ policy: Policy.Type) -> Result {
        Result {
            try DiskTier<Policy>(
                store: store, configuration: configuration, at: now, pinBudget: pinBudget, keepingPins: keepingPins)
        }
    }
}
