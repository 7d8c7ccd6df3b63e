import CacheEngine

/// The downloads a simulated client has under way: each image's modelled end, soonest first, so
/// a request can tell whether its image is still coming. Ended downloads are dropped as time
/// passes (`finish(through:)`), so its size is the downloads in flight, not the images seen.
/// Each image's end is found through the engine's key index (`KeyedRecords`), which a request
/// reads at a few instructions' cost where a `Dictionary` hashes the key with SipHash.
struct DownloadsInFlight {
    private struct Entry {
        var end: Int64
        var key: UInt64
    }

    // Each image's latest download's end, in µs of trace time.
    private var ends = KeyedRecords(filler: Int64(0))
    // A binary min-heap on `end`; an entry whose key has a later download since is stale.
    private var heap: [Entry] = []

    init() {
        heap.reserveCapacity(64)
    }

    /// When the download of `key` under way ends, or nil when none is.
    @inline(__always)
    func end(of key: UInt64) -> Int64? {
        guard ends.count > 0, let record = ends.find(key) else { return nil }
        return ends.extras[record]
    }

    /// Notes a download of `key` that ends at `end`.
    mutating func start(_ key: UInt64, endingAt end: Int64) {
        if let record = ends.find(key) {
            ends.extras[record] = end
        } else {
            _ = ends.add(key, cost: 0, extra: end)
        }
        heap.append(Entry(end: end, key: key))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].end < heap[parent].end else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Drops every download that has ended by `now`.
    @inline(__always)
    mutating func finish(through now: Int64) {
        while let first = heap.first, first.end <= now {
            if let record = ends.find(first.key), ends.extras[record] == first.end { ends.remove(record) }
            removeFirst()
        }
    }

    /// Forgets every download (the app was killed).
    mutating func removeAll() {
        // Every image with a download under way has an entry in the heap.
        for entry in heap {
            if let record = ends.find(entry.key) { ends.remove(record) }
        }
        heap.removeAll(keepingCapacity: true)
    }

    private mutating func removeFirst() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            let right = left + 1
            let child = right < heap.count && heap[right].end < heap[left].end ? right : left
            guard heap[child].end < heap[parent].end else { return }
            heap.swapAt(child, parent)
            parent = child
        }
    }
}
