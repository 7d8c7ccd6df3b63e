/// A slot's place in a `ChainedHashTable` chain: the low 32 bits of its key's hash (all a mask of
/// at most 32 bits reads) and the next slot of the chain (-1 at the end).
protocol ChainLink: BitwiseCopyable {
    var hash: UInt32 { get }
    var next: Int32 { get set }

    /// The link of the slot holding `key`, whose hash is `hash`, in front of `next`.
    init(key: UInt64, hash: UInt32, next: Int32)
}

/// Eight bytes: a sample's or a removal's walk over a chain stays in few cache lines. For tables
/// that only sample (BeladySize's).
struct HashLink: ChainLink {
    var hash: UInt32
    var next: Int32

    init(key: UInt64, hash: UInt32, next: Int32) {
        self.hash = hash
        self.next = next
    }
}

/// Sixteen bytes, with the key: for tables that are the cache's index too (Random's and
/// Hyperbolic's), whose lookups compare keys in the line they read the link from.
struct KeyedHashLink: ChainLink {
    var key: UInt64
    var hash: UInt32
    var next: Int32
}
