import CacheEngine
import ClientModel

extension PolicyKind {
    /// A memory tier ordered by this policy, as an existential: the policy is chosen at run time.
    ///
    /// - Throws: `PolicyError.needsFuture` for a policy that needs the future (Belady).
    public func makeMemoryTier(
        configuration: CacheConfiguration, expectedCount: Int = 1_024, pinBudget: Int = .max,
        cost: MemoryCost = .decoded, largestEntry: Int = .max
    ) throws(PolicyError) -> any ImageTier {
        try requireOnline(for: "a client's memory tier")
        return withOrder(
            MemoryTierMaker(
                configuration: configuration, expectedCount: expectedCount, pinBudget: pinBudget, cost: cost,
                largestEntry: largestEntry))
    }
}

private struct MemoryTierMaker: PolicyBody {
    let configuration: CacheConfiguration
    let expectedCount: Int
    let pinBudget: Int
    let cost: MemoryCost
    let largestEntry: Int

    func run<Policy: EvictionPolicy>(_ policy: Policy.Type) -> any ImageTier {
        MemoryTier<Policy>(
            configuration: configuration, expectedCount: expectedCount, pinBudget: pinBudget, cost: cost,
            largestEntry: largestEntry)
    }
}
