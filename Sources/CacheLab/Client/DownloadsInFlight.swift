import CacheEngine

/// The downloads a simulated client has under way: each image's modelled end, soonest first, and
/// what its insertion stores when it ends (`ClientRun` lands it then, as `ImagePipeline` stores a
/// download's image when it arrives). An image has at most one download under way: a request
/// made during it waits for it. Ends tie in the order the downloads started. Each image's end is
/// found through the engine's key index (`KeyedRecords`), which a request reads at a few
/// instructions' cost where a `Dictionary` hashes the key with SipHash.
///
/// A prefetch's download can be cancelled (`cancel(_:)`) until a request of the list joins it,
/// as `ImagePipeline` cancels a download when every request it serves has left.
struct DownloadsInFlight {
    /// A download that has ended: its image, to store.
    struct Landing {
        var end: Int64
        var order: Int
        var key: UInt64
        /// The image's bytes, and its cost in memory.
        var size: Int
        var memorySize: Int
        /// Started by a prefetch and joined by no other request: a stop cancels it.
        var cancellable: Bool
    }

    // Each image's download's end, in µs of trace time.
    private var ends = KeyedRecords(filler: Int64(0))
    // A binary min-heap on (end, order).
    private var heap: [Landing] = []
    private var started = 0
    // How many of `heap` are cancellable: when none, a join has nothing to mark.
    private var cancellableCount = 0

    init() {
        heap.reserveCapacity(64)
    }

    /// When the download of `key` under way ends, or nil when none is.
    @inline(__always)
    func end(of key: UInt64) -> Int64? {
        guard ends.count > 0, let record = ends.find(key) else { return nil }
        return ends.extras[record]
    }

    /// Notes a download of `key` (no other under way) that ends at `end`, storing `size` bytes
    /// costing `memorySize` in memory; `prefetch`: a prefetch's, cancellable until joined.
    mutating func start(_ key: UInt64, size: Int, memorySize: Int, endingAt end: Int64, prefetch: Bool = false) {
        _ = ends.add(key, cost: 0, extra: end)
        heap.append(
            Landing(end: end, order: started, key: key, size: size, memorySize: memorySize, cancellable: prefetch))
        if prefetch { cancellableCount &+= 1 }
        started &+= 1
        siftUp(heap.count - 1)
    }

    /// A request of the list joined the download of `key`: no stop cancels it any more.
    @inline(__always)
    mutating func join(_ key: UInt64) {
        guard cancellableCount > 0, let index = heap.firstIndex(where: { $0.key == key && $0.cancellable }) else {
            return
        }
        heap[index].cancellable = false
        cancellableCount &-= 1
    }

    /// Cancels the download of `key` if it is a prefetch's that no other request joined: it
    /// ends never and stores nothing. Returns its size in bytes, or nil when it goes on.
    mutating func cancel(_ key: UInt64) -> Int? {
        guard cancellableCount > 0, let index = heap.firstIndex(where: { $0.key == key && $0.cancellable }) else {
            return nil
        }
        let cancelled = heap[index]
        cancellableCount &-= 1
        if let record = ends.find(key) { ends.remove(record) }
        let last = heap.removeLast()
        if index < heap.count {
            heap[index] = last
            siftUp(index)
            siftDown(index)
        }
        return cancelled.size
    }

    /// The download that ends first, if it has ended by `now` (µs; `.max`: whenever it ends),
    /// taken out of those under way.
    @inline(__always)
    mutating func next(endedBy now: Int64) -> Landing? {
        guard let first = heap.first, first.end <= now else { return nil }
        if let record = ends.find(first.key) { ends.remove(record) }
        if first.cancellable { cancellableCount &-= 1 }
        removeFirst()
        return first
    }

    @inline(__always)
    private static func before(_ a: Landing, _ b: Landing) -> Bool {
        a.end < b.end || (a.end == b.end && a.order < b.order)
    }

    private mutating func removeFirst() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        siftDown(0)
    }

    private mutating func siftUp(_ index: Int) {
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.before(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ index: Int) {
        var parent = index
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            let right = left + 1
            let child = right < heap.count && Self.before(heap[right], heap[left]) ? right : left
            guard Self.before(heap[child], heap[parent]) else { return }
            heap.swapAt(child, parent)
            parent = child
        }
    }
}
