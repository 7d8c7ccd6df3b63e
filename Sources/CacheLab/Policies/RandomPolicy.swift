/// Evicts an entry chosen at random.
///
/// The victim is one sample of libCacheSim's hash table (`ChainedHashTable`, 2^16 buckets as
/// libCacheSim's `Random` sizes it: its default hash power 24, less 8): a random non-empty bucket,
/// then a random entry of its chain, drawn from the cache's `LehmerRandom`. With the table laid
/// out as libCacheSim's and the same draws, miss counts match libCacheSim's `Random` exactly.
///
/// - Complexity: O(1) access and insert; evict O(1) expected (draws until a bucket is not empty,
///   then walks its chain).
/// - Invariant: the table holds exactly the live slots.
public struct RandomPolicy: EvictionPolicy {
    public static let summary = "a random entry (libCacheSim Random)"
    public static let relativeCost = 1.3

    /// libCacheSim's hash power for Random and Hyperbolic: max(12, 24 − 8).
    static let hashPower = 16

    private var table = ChainedHashTable(hashPower: hashPower)
    private var random = LehmerRandom()

    public init(configuration: CacheConfiguration) {}

    public mutating func share(_ random: LehmerRandom) { self.random = random }

    public mutating func grow(to slotCount: Int) { table.grow(to: slotCount) }

    @inline(__always)
    public mutating func inserted(_ slot: Int32, key: UInt64, cost: Int) { table.insert(slot, key: key) }

    @inline(__always)
    public mutating func accessed(_ slot: Int32) {}

    public mutating func removed(_ slot: Int32) { table.remove(slot) }

    @inline(__always)
    public mutating func evict() -> Int32? {
        let victim = table.sample(random)
        table.remove(victim)
        return victim
    }

    /// The entry the next eviction will pick if no draw or change comes first.
    @inline(__always)
    public func victimHint() -> Int32? { table.peekSample(random) }

    /// The entry the eviction after that will pick, from the draws after the next two.
    @inline(__always)
    public func victimHint(after slot: Int32) -> Int32? { table.peekSample(random, skipping: 2) }

    public mutating func removeAll() { table.removeAll() }

    public func checkedSlots() -> [Int32] { table.checkedSlots(name: "Random") }
}
