/// A simulated client's prefetcher, as `ImagePrefetcher` runs one: prefetches start in the order
/// asked while fewer than `maxConcurrent` are under way; one answered by a tier frees its slot at
/// once, one waiting for a download when that download lands; a photo already waiting or under
/// way is not asked for again; a stop drops a waiting prefetch and ends one under way.
struct PrefetchQueue {
    /// A prefetch asked for: its request's trace position, photo and sizes, and when it was asked.
    struct Prefetch {
        var position: Int
        var key: UInt64
        var size: Int
        var memorySize: Int
        var time: Int64
    }

    let maxConcurrent: Int
    // Waiting, oldest first from `head`.
    private var waiting: [Prefetch] = []
    private var head = 0
    // Under way: each photo's prefetch's position.
    private var running: [UInt64: Int] = [:]

    init(maxConcurrent: Int) {
        precondition(maxConcurrent >= 1, "PrefetchQueue: maxConcurrent must be at least 1")
        self.maxConcurrent = maxConcurrent
    }

    /// Whether nothing waits and nothing is under way.
    var isEmpty: Bool { running.isEmpty && head == waiting.count }

    /// Asks for `prefetch`: false when its photo is already waiting or under way (it is dropped).
    mutating func ask(_ prefetch: Prefetch) -> Bool {
        guard running[prefetch.key] == nil, !waiting[head...].contains(where: { $0.key == prefetch.key }) else {
            return false
        }
        waiting.append(prefetch)
        return true
    }

    /// The next prefetch to start, if a slot is free, taken out of those waiting. The caller
    /// looks it up and calls `run` if it waits for a download.
    mutating func next() -> Prefetch? {
        guard running.count < maxConcurrent, head < waiting.count else { return nil }
        let prefetch = waiting[head]
        head += 1
        if head == waiting.count {
            waiting.removeAll(keepingCapacity: true)
            head = 0
        }
        return prefetch
    }

    /// `prefetch` waits for the download of its photo.
    mutating func run(_ prefetch: Prefetch) {
        running[prefetch.key] = prefetch.position
    }

    /// The download of `key` landed: its prefetch (if one waited for it) ends. True if one did.
    @inline(__always)
    mutating func landed(_ key: UInt64) -> Bool {
        !running.isEmpty && running.removeValue(forKey: key) != nil
    }

    /// What a stop of `key` did: dropped a waiting prefetch, ended one under way, or nothing.
    enum Stop {
        case dropped(Prefetch)
        case ended
        case nothing
    }

    /// Stops prefetching `key`.
    mutating func stop(_ key: UInt64) -> Stop {
        if let index = waiting[head...].firstIndex(where: { $0.key == key }) {
            return .dropped(waiting.remove(at: index))
        }
        return running.removeValue(forKey: key) != nil ? .ended : .nothing
    }
}
