/// Evicts the least frequently used entry first; among equals, the one least recently used.
///
/// Frequency is counted only while an entry is cached: it starts at 1 on insertion and a hit adds
/// one and moves the entry to the most-recent end of its new frequency's list. The victim is the
/// oldest entry of the lowest frequency. Matches libCacheSim's `LFU` exactly.
///
/// Buckets, one per frequency in use, form a list ordered by frequency (Shah, Mitra and Matani,
/// "An O(1) algorithm for implementing the LFU cache eviction scheme", 2010), each with its own list
/// of entries; bucket nodes come from a preallocated pool.
///
/// - Complexity: O(1) access, insert and evict.
/// - Invariant: buckets are in strictly increasing frequency, none is empty, and each entry sits
///   in the bucket of its frequency.
public struct LFUPolicy: EvictionPolicy {
    public static let libCacheSimName: String? = "LFU"
    public static let summary = "least frequently used first, ties least recent (libCacheSim LFU)"
    public static let relativeCost = 1.6

    @usableFromInline package let entryLinks = SlotLinks()
    /// Each slot's bucket; -1 (stored, never read) while the slot is in none.
    @usableFromInline package let bucketOf = SlotArray<Int32>(count: 0, filling: -1)
    // The bucket pool: bucket `b` counts `frequency[b]` and holds `members[b]`.
    @usableFromInline package let frequency = SlotArray<Int>(count: 0, filling: 0)
    @usableFromInline package let members = SlotArray<SlotList>(count: 0, filling: SlotList())
    @usableFromInline package let bucketLinks = SlotLinks()
    @usableFromInline package var buckets = SlotList()
    @usableFromInline package var freeBuckets = SlotStack()

    @inlinable public init(configuration: CacheConfiguration) {}

    @inlinable public mutating func grow(to slotCount: Int) {
        entryLinks.grow(to: slotCount)
        bucketOf.grow(to: slotCount, filling: -1)
        // One bucket per live entry is the most that can be in use, plus one being created.
        let bucketCount = slotCount + 1
        let old = frequency.count
        guard bucketCount > old else { return }
        frequency.grow(to: bucketCount, filling: 0)
        members.grow(to: bucketCount, filling: SlotList())
        bucketLinks.grow(to: bucketCount)
        freeBuckets.reserve(bucketCount)
        for bucket in (old..<bucketCount).reversed() { freeBuckets.push(Int32(bucket)) }
    }

    @inlinable public mutating func inserted(_ slot: Int32, key: UInt64, cost: Int) {
        let bucket: Int32
        if let first = buckets.first, frequency[Int(first)] == 1 {
            bucket = first
        } else {
            bucket = makeBucket(frequency: 1)
            buckets.prepend(bucket, in: bucketLinks)
        }
        join(slot, bucket)
    }

    @inlinable public mutating func accessed(_ slot: Int32) {
        let bucket = bucketOf[Int(slot)]
        let wanted = frequency[Int(bucket)] + 1
        let target: Int32
        if let next = bucketLinks.next(bucket), frequency[Int(next)] == wanted {
            target = next
        } else {
            target = makeBucket(frequency: wanted)
            buckets.insert(target, after: bucket, in: bucketLinks)
        }
        leave(slot)
        join(slot, target)
    }

    @inlinable public mutating func removed(_ slot: Int32, key: UInt64) { leave(slot) }

    @inlinable public mutating func evict() -> Int32? {
        let slot = members[Int(buckets.head)].head
        leave(slot)
        return slot
    }

    @inlinable public mutating func removeAll() {
        for bucket in buckets.slots(in: bucketLinks) {
            members[Int(bucket)].removeAll()
            freeBuckets.push(bucket)
        }
        buckets.removeAll()
    }

    @inlinable public func checkedSlots() -> [Int32] {
        buckets.checkInvariants(in: bucketLinks, name: "LFU.buckets")
        var result: [Int32] = []
        var previousFrequency = 0
        for bucket in buckets.slots(in: bucketLinks) {
            precondition(frequency[Int(bucket)] > previousFrequency, "LFU: buckets out of order")
            previousFrequency = frequency[Int(bucket)]
            members[Int(bucket)].checkInvariants(in: entryLinks, name: "LFU.bucket(\(previousFrequency))")
            precondition(!members[Int(bucket)].isEmpty, "LFU: empty bucket \(previousFrequency) kept")
            for slot in members[Int(bucket)].slots(in: entryLinks) {
                precondition(bucketOf[Int(slot)] == bucket, "LFU: slot \(slot) in the wrong bucket")
                result.append(slot)
            }
        }
        return result
    }

    /// The frequency the policy counts for `slot` (for tests).
    @inlinable package func frequency(of slot: Int32) -> Int { frequency[Int(bucketOf[Int(slot)])] }

    @inline(__always)
    @inlinable package mutating func join(_ slot: Int32, _ bucket: Int32) {
        members[Int(bucket)].append(slot, in: entryLinks)
        bucketOf[Int(slot)] = bucket
    }

    // Takes `slot` out of its bucket and frees the bucket if that emptied it.
    @inline(__always)
    @inlinable package mutating func leave(_ slot: Int32) {
        let bucket = bucketOf[Int(slot)]
        members[Int(bucket)].remove(slot, in: entryLinks)
        bucketOf[Int(slot)] = -1
        if members[Int(bucket)].isEmpty {
            buckets.remove(bucket, in: bucketLinks)
            freeBuckets.push(bucket)
        }
    }

    @inline(__always)
    @inlinable package mutating func makeBucket(frequency value: Int) -> Int32 {
        let bucket = freeBuckets.pop()
        frequency[Int(bucket)] = value
        members[Int(bucket)].removeAll()
        return bucket
    }
}
