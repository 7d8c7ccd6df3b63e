import CacheEngine

/// One tier of a client asked for by hand.
public struct TierRequest: Sendable {
    public var policy: PolicyKind
    public var capacity: CapacitySpec

    public init(policy: PolicyKind, capacity: CapacitySpec) {
        self.policy = policy
        self.capacity = capacity
    }
}
