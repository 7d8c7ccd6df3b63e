import CacheEngine

/// Facts about a trace that capacities and reports are stated against.
public struct TraceStatistics: Sendable, Equatable {
    public var requests: Int
    public var uniqueObjects: Int
    /// Sum of each object's first-seen size (libCacheSim's definition of the working set).
    public var workingSetBytes: Int
    public var bytesRequested: Int
    public var events: Int

    public init(requests: Int, uniqueObjects: Int, workingSetBytes: Int, bytesRequested: Int, events: Int) {
        self.requests = requests
        self.uniqueObjects = uniqueObjects
        self.workingSetBytes = workingSetBytes
        self.bytesRequested = bytesRequested
        self.events = events
    }

    public init(_ trace: Trace) {
        let counter = Counter()
        trace.withBatches { counter.add($0) }
        self = counter.statistics
    }

    /// The working set in the unit a size mode counts.
    public func workingSet(in mode: SizeMode) -> Int {
        mode == .unit ? uniqueObjects : workingSetBytes
    }

    /// Counts a trace's statistics batch by batch (the `.statistics` cell of a plan).
    final class Counter {
        private var index = SlotIndex<UInt64>(minimumCapacity: 1024)
        private var workingSet = 0
        private var requested = 0
        private var requests = 0
        private var events = 0

        func add(_ batch: RequestBatch) {
            for position in 0..<batch.count {
                let key = batch.keys[position]
                requested &+= batch.sizes[position]
                if !index.contains(key) {
                    index.insert(key, slot: 0)
                    workingSet &+= batch.sizes[position]
                }
            }
            requests += batch.count
            events += batch.events.count
        }

        var statistics: TraceStatistics {
            TraceStatistics(
                requests: requests, uniqueObjects: index.count, workingSetBytes: workingSet,
                bytesRequested: requested, events: events)
        }
    }
}
