/// Facts about a trace that capacities and reports are stated against.
public struct TraceStatistics: Sendable, Equatable {
    public var requests: Int
    public var uniqueObjects: Int
    /// Sum of each object's first-seen size (libCacheSim's definition of the working set).
    public var workingSetBytes: Int
    public var bytesRequested: Int
    public var events: Int

    public init(_ trace: Trace) {
        var index = SlotIndex<UInt64>(minimumCapacity: 1024)
        var workingSet = 0
        var requested = 0
        for position in 0..<trace.count {
            let key = trace.keys[position]
            requested += trace.sizes[position]
            if index.slot(for: key) < 0 {
                index.insert(key, slot: 0)
                workingSet += trace.sizes[position]
            }
        }
        requests = trace.count
        uniqueObjects = index.count
        workingSetBytes = workingSet
        bytesRequested = requested
        events = trace.events.count
    }

    /// The working set in the unit a size mode counts.
    public func workingSet(in mode: SizeMode) -> Int {
        mode == .unit ? uniqueObjects : workingSetBytes
    }
}
