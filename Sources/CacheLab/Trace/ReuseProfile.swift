import CacheEngine

/// How soon a trace asks for an object again: the LRU stack distance of every re-reference, in
/// objects and in bytes, and how many objects are asked for only once.
///
/// Definitions, for request `i` of object `x` whose previous request was `j < i`:
/// - **Object distance**: the number of distinct objects other than `x` requested at positions
///   `j + 1 ..< i`. A request for the same object twice in a row has distance 0; in `a b c a` the
///   second `a` has distance 2; in `a b a b` both re-references have distance 1. It is the
///   object's depth in the LRU stack (0 = top) just before request `i`.
/// - **Byte distance**: the sum, over those same distinct objects, of the size each one had at its
///   latest request before `i`.
/// - A **cold** request is an object's first request; it has no distance. Every other request is a
///   **re-reference**.
/// - A **one-hit wonder** is an object requested exactly once in the whole trace.
///
/// In unit mode, LRU with room for `c` objects hits a re-reference exactly when its object
/// distance is below `c` (LRU is a stack algorithm: Mattson, Gecsei, Slutz and Traiger, "Evaluation
/// techniques for storage hierarchies", IBM Systems Journal, 1970), so one profile gives the LRU
/// hit ratio of every capacity at once.
///
/// The distances are computed with the classic Fenwick-tree method (Bennett and Kruskal, "LRU
/// stack processing", IBM J. Res. Dev., 1975, in its binary-indexed-tree form): a tree over
/// request positions marks the latest request of every object seen so far, so the distinct
/// objects since position `j` are the marks after `j`. A second tree, kept in the same nodes so
/// one walk serves both, holds the sizes of the marked requests.
///
/// - Complexity: O(n log n) time for `n` requests (two O(log n) tree updates and one O(log n)
///   prefix sum per re-reference, one update per cold request), and O(n + u) memory for `u`
///   unique objects. Nothing is allocated per request: a first pass numbers the objects densely
///   (its hash table doubles O(log u) times), then every array is allocated once at its exact
///   size before the pass that measures distances.
/// - Invariant: `reReferencesBelow` has `uniqueObjects + 1` entries, starts at 0, never decreases
///   and ends at `reReferences`; `byteDemands` has `reReferences` entries.
public struct ReuseProfile: Sendable, Equatable {
    /// One bucket of the log2 histogram of object distances.
    public struct Bucket: Sendable, Equatable {
        /// The smallest distance the bucket counts.
        public var lowerBound: Int
        /// The largest distance the bucket counts.
        public var upperBound: Int
        /// Re-references whose object distance is in `lowerBound...upperBound`.
        public var count: Int

        public init(lowerBound: Int, upperBound: Int, count: Int) {
            self.lowerBound = lowerBound
            self.upperBound = upperBound
            self.count = count
        }
    }

    /// All requests of the trace (events are not requests).
    public let requests: Int
    /// Distinct object ids.
    public let uniqueObjects: Int
    /// Objects requested exactly once in the whole trace.
    public let oneHitWonders: Int
    /// Sum of the object distances of all re-references.
    public let totalObjectDistance: Int
    /// Sum of the byte distances of all re-references (a `Double`: it can outgrow 64-bit integers
    /// on long traces of large objects).
    public let totalByteDistance: Double
    /// Entry `d` is the number of re-references whose object distance is below `d`, for `d` in
    /// `0...uniqueObjects` (a distance is at most `uniqueObjects - 1`).
    let reReferencesBelow: [Int]
    /// Byte distance plus the request's own size, one per re-reference in trace order: what a
    /// byte-mode LRU needs room for to hit it. Kept unsorted: sorting would double the cost of
    /// a profile for the sake of `lruHitRatio(capacityBytes:)` alone.
    let byteDemands: [Int]

    /// Profiles `trace`.
    ///
    /// - Complexity: O(n log n) for `n` requests.
    public init(_ trace: Trace) {
        precondition(trace.count < Int(Int32.max), "ReuseProfile handles fewer than 2^31 requests")
        let count = trace.count
        let (objectIDs, unique) = Self.denseIDs(trace.keys)
        requests = count
        uniqueObjects = unique

        var reReferencesAt = [Int](repeating: 0, count: unique + 1)
        var byteDemands = [Int](repeating: 0, count: count - unique)
        var latest = [ObjectState](repeating: ObjectState(position: -1, reused: false), count: unique)
        var tree = FenwickTree<Node>(count: count)
        var reusedObjects = 0
        var distanceSum = 0
        var byteDistanceSum = 0.0

        objectIDs.withUnsafeBufferPointer { objectIDs in
            trace.sizes.withUnsafeBufferPointer { sizes in
                reReferencesAt.withUnsafeMutableBufferPointer { histogram in
                    byteDemands.withUnsafeMutableBufferPointer { demands in
                        latest.withUnsafeMutableBufferPointer { latest in
                            // Marks in the tree: one per object seen so far, and their sizes.
                            var marked = 0
                            var markedBytes = 0
                            var reReference = 0
                            for position in 0..<count {
                                let object = Int(objectIDs[position])
                                let size = sizes[position]
                                let previous = Int(latest[object].position)
                                if previous >= 0 {
                                    // Marks up to and including `previous` (its own among them);
                                    // every other mark lies strictly between it and now.
                                    let before = tree.sum(before: previous + 1)
                                    let distance = marked - before.objects
                                    let byteDistance = markedBytes - before.bytes
                                    histogram[distance + 1] &+= 1
                                    demands[reReference] = byteDistance &+ size
                                    reReference &+= 1
                                    distanceSum &+= distance
                                    byteDistanceSum += Double(byteDistance)
                                    if !latest[object].reused {
                                        latest[object].reused = true
                                        reusedObjects &+= 1
                                    }
                                    let previousSize = sizes[previous]
                                    tree.add(Node(objects: -1, bytes: -previousSize), at: previous)
                                    marked &-= 1
                                    markedBytes &-= previousSize
                                }
                                tree.add(Node(objects: 1, bytes: size), at: position)
                                marked &+= 1
                                markedBytes &+= size
                                latest[object].position = Int32(position)
                            }
                        }
                    }
                }
            }
        }

        // Counts per distance (shifted by one) into counts below each distance.
        for distance in 0..<unique { reReferencesAt[distance + 1] += reReferencesAt[distance] }
        reReferencesBelow = reReferencesAt
        self.byteDemands = byteDemands
        oneHitWonders = unique - reusedObjects
        totalObjectDistance = distanceSum
        totalByteDistance = byteDistanceSum
    }

    /// Each object's first request: every object is cold exactly once.
    public var coldRequests: Int { uniqueObjects }

    /// Requests for an object requested before.
    public var reReferences: Int { requests - uniqueObjects }

    /// One-hit wonders as a fraction of the unique objects (0 for an empty trace).
    public var oneHitWonderRatio: Double {
        uniqueObjects == 0 ? 0 : Double(oneHitWonders) / Double(uniqueObjects)
    }

    /// Requests for one-hit wonders as a fraction of all requests: each one-hit wonder has exactly
    /// one request (0 for an empty trace).
    public var oneHitWonderRequestShare: Double {
        requests == 0 ? 0 : Double(oneHitWonders) / Double(requests)
    }

    /// Mean object distance of the re-references; `nil` when there are none.
    public var meanObjectDistance: Double? {
        reReferences == 0 ? nil : Double(totalObjectDistance) / Double(reReferences)
    }

    /// Mean byte distance of the re-references; `nil` when there are none.
    public var meanByteDistance: Double? {
        reReferences == 0 ? nil : totalByteDistance / Double(reReferences)
    }

    /// The number of re-references whose object distance is exactly `distance`.
    ///
    /// - Complexity: O(1).
    public func reReferences(atDistance distance: Int) -> Int {
        guard distance >= 0, distance < uniqueObjects else { return 0 }
        return reReferencesBelow[distance + 1] - reReferencesBelow[distance]
    }

    /// The object distance at `percentile` (in `0...100`) of the re-references, by nearest rank:
    /// the smallest distance `d` such that at least `percentile` % of them have a distance of at
    /// most `d` (the 0th percentile is the smallest distance). `nil` when there are no
    /// re-references.
    ///
    /// - Complexity: O(log u) for `u` unique objects.
    public func objectDistance(atPercentile percentile: Double) -> Int? {
        precondition(percentile >= 0 && percentile <= 100, "a percentile is in 0...100")
        guard reReferences > 0 else { return nil }
        // `percentile × count` is exact for whole percentiles, so is its division by 100 when the
        // rank is whole: no 0.9 × 10 = 9.000…01 rounding up to rank 10.
        let rank = max(1, Int((percentile * Double(reReferences) / 100).rounded(.up)))
        // Smallest d with reReferencesBelow[d + 1] >= rank.
        var low = 0
        var high = uniqueObjects - 1
        while low < high {
            let middle = (low + high) / 2
            if reReferencesBelow[middle + 1] >= rank { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// The object distances in log2 buckets: `0`, `1`, `2...3`, `4...7`, …, up to the bucket of the
    /// largest distance seen; empty when there are no re-references.
    ///
    /// - Complexity: O(log u) for `u` unique objects.
    public var histogram: [Bucket] {
        guard let largest = objectDistance(atPercentile: 100) else { return [] }
        let lastBucket = largest == 0 ? 0 : Int.bitWidth - largest.leadingZeroBitCount
        return (0...lastBucket).map { bucket in
            let lower = bucket == 0 ? 0 : 1 << (bucket - 1)
            let upper = bucket == 0 ? 0 : (1 << bucket) - 1
            let count = reReferencesBelow[min(upper + 1, uniqueObjects)] - reReferencesBelow[lower]
            return Bucket(lowerBound: lower, upperBound: upper, count: count)
        }
    }

    /// The hit ratio (hits / requests) of LRU in unit mode with room for `capacityObjects`
    /// objects, starting empty: a re-reference hits exactly when its object distance is below the
    /// capacity, and a cold request always misses. Equal to `Replay.simulate`'s with policy `lru`,
    /// unit mode, no TTL and a disk tier.
    ///
    /// - Complexity: O(1).
    public func lruHitRatio(capacityObjects: Int) -> Double {
        precondition(capacityObjects >= 0, "a capacity is not negative")
        guard requests > 0 else { return 0 }
        return Double(reReferencesBelow[min(capacityObjects, uniqueObjects)]) / Double(requests)
    }

    /// The hit ratio (hits / requests) of LRU in byte mode with room for `capacityBytes` bytes,
    /// starting empty: a re-reference hits exactly when its byte distance plus its own size is at
    /// most the capacity.
    ///
    /// Exact (equal to `Replay.simulate`'s with policy `lru`, no TTL, a disk tier) when every
    /// object has the same size in all its requests and no request is larger than the capacity:
    /// then the cache always holds the longest prefix of the LRU stack that fits. An object too
    /// large for the cache is refused and never enters it, which the stack model does not know.
    ///
    /// - Complexity: O(n) for `n` requests.
    public func lruHitRatio(capacityBytes: Int) -> Double {
        precondition(capacityBytes >= 0, "a capacity is not negative")
        guard requests > 0 else { return 0 }
        var hits = 0
        for demand in byteDemands where demand <= capacityBytes { hits += 1 }
        return Double(hits) / Double(requests)
    }
}

extension ReuseProfile {
    /// What the Fenwick tree sums: marks and their bytes.
    struct Node: AdditiveArithmetic {
        var objects: Int
        var bytes: Int

        static let zero = Node(objects: 0, bytes: 0)

        static func + (a: Node, b: Node) -> Node { Node(objects: a.objects &+ b.objects, bytes: a.bytes &+ b.bytes) }
        static func - (a: Node, b: Node) -> Node { Node(objects: a.objects &- b.objects, bytes: a.bytes &- b.bytes) }
    }

    /// Per object: the position of its latest request so far, and whether it was requested again.
    struct ObjectState {
        var position: Int32
        var reused: Bool
    }

    /// Each request's object numbered densely in order of first appearance, and the number of
    /// objects.
    static func denseIDs(_ keys: [UInt64]) -> (ids: [Int32], unique: Int) {
        var index = SlotIndex<UInt64>(minimumCapacity: 1024)
        var ids = [Int32](repeating: 0, count: keys.count)
        keys.withUnsafeBufferPointer { keys in
            ids.withUnsafeMutableBufferPointer { ids in
                for position in 0..<keys.count {
                    let key = keys[position]
                    if let known = index.slot(for: key) {
                        ids[position] = known
                    } else {
                        let id = Int32(index.count)
                        index.insert(key, slot: id)
                        ids[position] = id
                    }
                }
            }
        }
        return (ids, index.count)
    }
}
