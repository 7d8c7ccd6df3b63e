/// A policy whose hit takes the request's size, as libCacheSim's LHD does (every other policy keeps
/// the size an entry was stored with). A lookup that gives the size
/// (`Cache.value(forKey:size:at:)`, the simulator's) then sets the entry's cost to it and tells the
/// policy, so the total may pass the capacity until the next miss makes room, as libCacheSim's
/// occupancy does (``EvictionPolicy/resizesOnHit``).
public protocol ResizingPolicy: EvictionPolicy {
    /// The entry in `slot` is hit by a request whose size costs `cost`, not what it was stored
    /// at: it costs that from now on. Called just before `accessed`.
    mutating func resized(_ slot: Int32, cost: Int)
}

extension _PolicyHooks where Self: ResizingPolicy {
    @inlinable public static var _resizesOnHit: Bool { true }

    @inline(__always)
    @inlinable public mutating func _resized(_ slot: Int32, cost: Int) { resized(slot, cost: cost) }
}
