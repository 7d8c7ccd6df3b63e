/// A policy whose own table finds a live key's slot, so that a cache of `UInt64` keys (whose
/// `hashBits` are the key: the simulator's) keeps no index of its own
/// (``EvictionPolicy/indexesKeys``). The table must then hold exactly the live slots: in from
/// `inserted`, out through `evict`, `removed` or a pending victim. A cache of other keys keeps its
/// index regardless.
public protocol KeyIndexingPolicy: EvictionPolicy {
    /// The live slot holding `key`.
    func indexedSlot(for key: UInt64) -> Int32?

    /// Starts loading what `indexedSlot(for: key)` will read: the first stage, then (`settled`,
    /// some requests later) the second. A hint: nothing may change. By default nothing.
    func prefetchLookup(_ key: UInt64, settled: Bool)
}

extension KeyIndexingPolicy {
    @inline(__always)
    @inlinable public func prefetchLookup(_ key: UInt64, settled: Bool) {}
}

extension _PolicyHooks where Self: KeyIndexingPolicy {
    @inlinable public static var _indexesKeys: Bool { true }

    @inline(__always)
    @inlinable public func _indexedSlot(for key: UInt64) -> Int32? { indexedSlot(for: key) }

    @inline(__always)
    @inlinable public func _prefetchLookup(_ key: UInt64, settled: Bool) { prefetchLookup(key, settled: settled) }
}
