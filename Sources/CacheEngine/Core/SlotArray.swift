import CPrefetch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Fixed-capacity storage indexed by slot number, for the engine's and the policies' per-entry
/// fields. Unlike `Array` it is a reference with no copy-on-write, so a write is one store: no
/// uniqueness check, no reallocation. It grows only when asked to (`grow(to:filling:)`).
///
/// Its owner (a `Cache` or one of its policies) is the only user; it is never shared.
/// Indices are checked in debug builds only.
///
/// Its allocations are charged to `StorageLedger.current`, if any, so a replay can report what
/// its cache's bookkeeping costs.
@usableFromInline package final class SlotArray<Element> {
    @exclusivity(unchecked) @usableFromInline package var count: Int
    @exclusivity(unchecked) @usableFromInline package var base: UnsafeMutablePointer<Element>
    @usableFromInline package let ledger = StorageLedger.current
    /// `base` came from the C allocator (`calloc` in `init(zeroedCount:)`, `posix_memalign` for
    /// huge pages), so it goes back with `free`.
    @exclusivity(unchecked) @usableFromInline package var fromC = false

    @inlinable package init(count: Int, filling value: Element) {
        self.count = count
        (base, fromC) = Self.allocate(Swift.max(count, 1))
        base.initialize(repeating: value, count: count)
        ledger?.record(Self.bytes(Swift.max(count, 1)))
    }

    /// A copy of `elements`.
    @inlinable package init(copying elements: [Element]) where Element: BitwiseCopyable {
        count = elements.count
        (base, fromC) = Self.allocate(Swift.max(count, 1))
        elements.withUnsafeBufferPointer { source in
            if let start = source.baseAddress { base.initialize(from: start, count: source.count) }
        }
        ledger?.record(Self.bytes(Swift.max(count, 1)))
    }

    /// `count` elements whose bits are all zero, in memory the system hands out already zeroed
    /// (`calloc`, which maps a large block lazily): a big table that stays mostly empty, such as
    /// libCacheSim's 2^24 hash buckets, costs neither the time to fill it nor the memory of the
    /// pages never touched. The ledger still counts all of it.
    @inlinable package init(zeroedCount count: Int) where Element: BitwiseCopyable {
        self.count = count
        guard let memory = calloc(Swift.max(count, 1), MemoryLayout<Element>.stride) else {
            fatalError("SlotArray: calloc of \(count) elements failed")
        }
        base = memory.bindMemory(to: Element.self, capacity: Swift.max(count, 1))
        fromC = true
        ledger?.record(Self.bytes(Swift.max(count, 1)))
    }

    deinit {
        base.deinitialize(count: count)
        release(base)
        ledger?.record(-Self.bytes(Swift.max(count, 1)))
    }

    @inlinable package func release(_ pointer: UnsafeMutablePointer<Element>) {
        if fromC { free(pointer) } else { pointer.deallocate() }
    }

    @inlinable package static func bytes(_ count: Int) -> Int { count * MemoryLayout<Element>.stride }

    /// Storage this large or larger goes on huge pages where the system has them.
    @inlinable package static var hugePageBytes: Int { 2 << 20 }

    // Uninitialized storage for `count` elements, and whether it came from the C allocator. From
    // `hugePageBytes` up, on Linux, it is aligned to a huge page and the kernel is asked to back
    // it with huge pages (`MADV_HUGEPAGE`; transparent huge pages are often enabled for such
    // requests only): a table of several megabytes read at random then misses the TLB far less
    // (each miss a page walk on top of the cache miss). Elsewhere, or if the system says no, it
    // is ordinary memory.
    @inlinable package static func allocate(_ count: Int) -> (UnsafeMutablePointer<Element>, fromC: Bool) {
        #if os(Linux)
            let size = bytes(count)
            if size >= hugePageBytes && MemoryLayout<Element>.alignment <= hugePageBytes {
                var memory: UnsafeMutableRawPointer?
                if posix_memalign(&memory, hugePageBytes, size) == 0, let memory {
                    _ = madvise(memory, size, MADV_HUGEPAGE)
                    return (memory.bindMemory(to: Element.self, capacity: count), true)
                }
            }
        #endif
        return (.allocate(capacity: count), false)
    }

    // Addressors rather than get/set, so `array[i].field = x` is one store in place.
    @inlinable package subscript(index: Int) -> Element {
        @inline(__always) unsafeAddress {
            assert(index >= 0 && index < count, "SlotArray index \(index) out of 0..<\(count)")
            return UnsafePointer(base + index)
        }
        @inline(__always) unsafeMutableAddress {
            assert(index >= 0 && index < count, "SlotArray index \(index) out of 0..<\(count)")
            return base + index
        }
    }

    @inlinable package subscript(slot: Int32) -> Element {
        @inline(__always) unsafeAddress { UnsafePointer(base + Int(slot)) }
        @inline(__always) unsafeMutableAddress { base + Int(slot) }
    }

    /// Where element `index` is, for code that works on one element through several steps: valid
    /// until the array grows.
    @inline(__always)
    @inlinable package func address(_ index: Int) -> UnsafeMutablePointer<Element> {
        assert(index >= 0 && index < count, "SlotArray index \(index) out of 0..<\(count)")
        return base + index
    }

    /// Starts loading element `index`'s cache line (a hint; out-of-range indices are not read).
    @inline(__always)
    @inlinable package func prefetch(_ index: Int) {
        cachelab_prefetch(UnsafeRawPointer(base + index))
    }

    /// Grows to `newCount` elements, the new ones set to `value`. Never shrinks.
    @inlinable package func grow(to newCount: Int, filling value: Element) {
        guard newCount > count else { return }
        let (grown, grownFromC) = Self.allocate(newCount)
        grown.moveInitialize(from: base, count: count)
        (grown + count).initialize(repeating: value, count: newCount - count)
        release(base)
        fromC = grownFromC
        base = grown
        // One entry for the swap, so the ledger's peak is the new size, not old plus new.
        ledger?.record(Self.bytes(newCount) - Self.bytes(Swift.max(count, 1)))
        count = newCount
    }

    /// Sets every element to `value`.
    @inlinable package func fill(with value: Element) {
        for index in 0..<count { base[index] = value }
    }
}
