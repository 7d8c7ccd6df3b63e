/// Evicts the oldest entry of the bucket at the cache's minimum priority `m`; a newcomer enters at
/// priority `m + 1`, and a hit adds `m` to its entry's priority.
///
/// LFU with Dynamic Aging (Arlitt, Cherkasova, Dilley, Friedrich and Jin, "Evaluating content
/// management techniques for Web proxy caches", ACM SIGMETRICS Performance Evaluation Review
/// 27(4), 2000) as libCacheSim 0.3.5's `LFUDA` computes it, which is not the textbook rule
/// (priority = frequency + age). In integers:
/// - Entries sit in buckets by priority, oldest first; the first eviction sets `m` to 1.
/// - A hit adds `m` to the entry's priority (nothing before the first eviction, where it only
///   becomes its bucket's newest) and raises the maximum to it. If that emptied bucket `m`, `m`
///   moves to the lowest non-empty bucket above it and up to the maximum priority before the entry
///   joins its new bucket, so `m` can jump past the entry: an entry below `m` is never evicted
///   until a hit lifts it again, and keeps hitting meanwhile.
/// - An eviction takes the oldest entry of bucket `m` (bucket 1 while `m` is 0 or 1) and, if that
///   emptied it, moves `m` up the same way.
/// - When bucket `m` is empty at an eviction (the next non-empty bucket did not exist when `m` last
///   moved), libCacheSim crashes (a segmentation fault) and gives no counts; this policy then
///   takes the oldest entry of the lowest non-empty bucket, as a trim of a client tier always may,
///   so a run goes on where libCacheSim has nothing to compare with.
///
/// libCacheSim finds the next non-empty bucket by trying every priority from `m + 1` to the
/// maximum, a range that grows geometrically and can take longer than any run; this policy keeps
/// the buckets above `m` in a heap by priority and gives the same answer in O(log n). A bucket is
/// never deleted in libCacheSim, and a newcomer raises the maximum only when its bucket is new;
/// every bucket but the first was made by a hit or a newcomer that raised the maximum to its
/// priority then, so a newcomer raises it exactly when its priority is not 1, and empty buckets can
/// go. Matches libCacheSim's `LFUDA` exactly wherever libCacheSim finishes.
///
/// - Complexity: O(log b) access, insert and evict for b buckets in use (an index of buckets by
///   priority, a heap of those above `m`); no allocation once grown.
/// - Invariant: every live slot sits in the bucket of its priority, and a bucket is kept exactly
///   while it holds an entry; the heap holds non-empty buckets only, among them every one above
///   `m`.
public struct LFUDAPolicy: EvictionPolicy {
    public static let libCacheSimName: String? = "LFUDA"
    public static let summary =
        "lowest priority first, a hit adding the cache's minimum priority to its entry's (libCacheSim LFUDA)"
    public static let relativeCost = 2.0

    /// `m`: the priority evictions take from.
    @usableFromInline package var minimumPriority: Int64 = 0
    /// The highest priority a hit or a new bucket has raised it to.
    @usableFromInline package var maximumPriority: Int64 = 0
    @usableFromInline package let entryLinks = SlotLinks()
    @usableFromInline package let priority = SlotArray<Int64>(count: 0, filling: 0)
    /// Each slot's bucket; -1 (stored, never read) while the slot is in none.
    @usableFromInline package let bucketOf = SlotArray<Int32>(count: 0, filling: -1)
    @usableFromInline package let keys = SlotArray<UInt64>(count: 0, filling: 0)
    // The bucket pool: bucket `b` holds `members[b]`, the entries of priority `bucketPriority[b]`.
    @usableFromInline package let bucketPriority = SlotArray<Int64>(count: 0, filling: 0)
    @usableFromInline package let members = SlotArray<SlotList>(count: 0, filling: SlotList())
    @usableFromInline package let inHeap = SlotArray<Bool>(count: 0, filling: false)
    @usableFromInline package var freeBuckets = SlotStack()
    @usableFromInline package var bucketIndex = SlotIndex<UInt64>(minimumCapacity: 16)
    /// Non-empty buckets by priority: every one above `m`, and some at or below it not yet dropped.
    @usableFromInline package var candidates = IndexedHeap<Int64>(filler: 0)

    @inlinable public init(configuration: CacheConfiguration) {}

    @inlinable public mutating func grow(to slotCount: Int) {
        entryLinks.grow(to: slotCount)
        priority.grow(to: slotCount, filling: 0)
        bucketOf.grow(to: slotCount, filling: -1)
        keys.grow(to: slotCount, filling: 0)
        // One bucket per live entry is the most in use, plus one being made for a hit.
        let bucketCount = slotCount + 1
        let old = bucketPriority.count
        guard bucketCount > old else { return }
        bucketPriority.grow(to: bucketCount, filling: 0)
        members.grow(to: bucketCount, filling: SlotList())
        inHeap.grow(to: bucketCount, filling: false)
        candidates.grow(to: bucketCount)
        freeBuckets.reserve(bucketCount)
        for bucket in (old..<bucketCount).reversed() { freeBuckets.push(Int32(bucket)) }
    }

    @inline(__always)
    @inlinable public mutating func inserted(_ slot: Int32, key: UInt64, cost: Int) {
        keys[slot] = key
        let value = minimumPriority &+ 1
        // libCacheSim raises the maximum when it makes the bucket; only bucket 1 exists unmade.
        if value != 1 { maximumPriority = max(maximumPriority, value) }
        priority[slot] = value
        join(slot, value)
    }

    @inline(__always)
    @inlinable public mutating func accessed(_ slot: Int32) {
        let old = priority[slot]
        let value = old &+ minimumPriority
        priority[slot] = value
        maximumPriority = max(maximumPriority, value)
        let emptied = leave(slot)
        // Before the entry joins its new bucket: `m` may pass it by.
        if emptied && old == minimumPriority { raiseMinimum() }
        join(slot, value)
    }

    @inlinable public mutating func removed(_ slot: Int32, key: UInt64) {
        let old = priority[slot]
        if leave(slot) && old == minimumPriority { raiseMinimum() }
    }

    @inlinable public mutating func evict() -> Int32? {
        let wanted = minimumPriority <= 1 ? 1 : minimumPriority
        // Where libCacheSim crashes (bucket `m` empty), the lowest non-empty bucket.
        let bucket = bucketIndex.slot(for: UInt64(bitPattern: wanted)) ?? lowestBucket()
        let value = bucketPriority[bucket]
        let victim = members[bucket].head
        minimumPriority = max(minimumPriority, value)
        if leave(victim) && value == minimumPriority { raiseMinimum() }
        return victim
    }

    @inlinable public mutating func removeAll() {
        for (_, bucket) in bucketIndex.pairs {
            members[bucket].removeAll()
            inHeap[bucket] = false
            freeBuckets.push(bucket)
        }
        bucketIndex.removeAll()
        candidates.removeAll()
    }

    @inlinable public func checkedSlots() -> [Int32] {
        bucketIndex.checkInvariants()
        _ = candidates.checkedSlots(name: "LFUDA.candidates")
        var result: [Int32] = []
        for (key, bucket) in bucketIndex.pairs.sorted(by: { Int64(bitPattern: $0.0) < Int64(bitPattern: $1.0) }) {
            let value = Int64(bitPattern: key)
            precondition(bucketPriority[bucket] == value, "LFUDA: bucket \(bucket) indexed under another priority")
            members[bucket].checkInvariants(in: entryLinks, name: "LFUDA.bucket(\(value))")
            precondition(!members[bucket].isEmpty, "LFUDA: empty bucket \(value) kept")
            precondition(
                inHeap[bucket] || value <= minimumPriority,
                "LFUDA: bucket \(value) above the minimum is not a candidate")
            for slot in members[bucket].slots(in: entryLinks) {
                precondition(
                    bucketOf[slot] == bucket && priority[slot] == value, "LFUDA: slot \(slot) in the wrong bucket")
                result.append(slot)
            }
        }
        return result
    }

    /// The priority of each stored key, by bucket from the lowest, oldest first (for tests).
    @inlinable package var bucketKeys: [(priority: Int64, keys: [UInt64])] {
        bucketIndex.pairs.map { (Int64(bitPattern: $0.0), $0.1) }.sorted { $0.0 < $1.0 }.map { value, bucket in
            (value, members[bucket].slots(in: entryLinks).map { keys[$0] })
        }
    }

    // `m` moves to the lowest non-empty bucket above it, if there is one up to the maximum; buckets
    // at or below `m` leave the heap for good (no entry will join them again).
    @inlinable package mutating func raiseMinimum() {
        while let top = candidates.first, candidates.rank(of: top) <= minimumPriority {
            inHeap[candidates.pop()] = false
        }
        guard let top = candidates.first else { return }
        let next = candidates.rank(of: top)
        if next <= maximumPriority { minimumPriority = next }
    }

    // The victim when bucket `m` is empty: the oldest entry of the lowest non-empty bucket.
    @inlinable package func lowestBucket() -> Int32 {
        let lowest = bucketIndex.pairs.min { Int64(bitPattern: $0.0) < Int64(bitPattern: $1.0) }
        guard let lowest else { preconditionFailure("LFUDA: evicting from an empty cache") }
        return lowest.1
    }

    @inline(__always)
    @inlinable package mutating func join(_ slot: Int32, _ value: Int64) {
        let bucket: Int32
        if let found = bucketIndex.slot(for: UInt64(bitPattern: value)) {
            bucket = found
        } else {
            bucket = freeBuckets.pop()
            bucketPriority[bucket] = value
            members[bucket].removeAll()
            bucketIndex.insert(UInt64(bitPattern: value), slot: bucket)
        }
        if !inHeap[bucket] && value > minimumPriority {
            inHeap[bucket] = true
            candidates.insert(bucket, rank: value)
        }
        members[bucket].append(slot, in: entryLinks)
        bucketOf[slot] = bucket
    }

    // Takes `slot` out of its bucket; returns whether that emptied it (the bucket is then freed).
    @inline(__always)
    @inlinable package mutating func leave(_ slot: Int32) -> Bool {
        let bucket = bucketOf[slot]
        members[bucket].remove(slot, in: entryLinks)
        bucketOf[slot] = -1
        guard members[bucket].isEmpty else { return false }
        if inHeap[bucket] {
            candidates.remove(bucket)
            inHeap[bucket] = false
        }
        bucketIndex.remove(UInt64(bitPattern: bucketPriority[bucket]))
        freeBuckets.push(bucket)
        return true
    }
}
