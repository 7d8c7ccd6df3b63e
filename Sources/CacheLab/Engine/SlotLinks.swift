/// A doubly linked list of slot numbers whose links live in two slot arrays, so linking and
/// unlinking never allocate. Several lists can share one `SlotLinks` storage when a slot
/// belongs to at most one of them at a time (LFU's frequency lists do).
///
/// - Complexity: O(1) append, prepend, remove and move.
struct SlotLinks {
    struct Link {
        var previous: Int32 = -1
        var next: Int32 = -1
    }

    // Both links of a slot side by side: one cache line per node visited.
    let link = SlotArray<Link>(count: 0, filling: Link())

    /// Makes room for slots `0..<count`.
    func grow(to count: Int) {
        link.grow(to: count, filling: Link())
    }

    @inline(__always) func previous(_ slot: Int32) -> Int32 { link[slot].previous }
    @inline(__always) func next(_ slot: Int32) -> Int32 { link[slot].next }

    /// Starts loading `slot`'s links and, once they are loaded (`settled`), its successor's: what
    /// unlinking `slot` from a list's head touches.
    @inline(__always)
    func prefetch(_ slot: Int32, settled: Bool) {
        link.prefetch(Int(slot))
        if settled, case let after = link[slot].next, after >= 0 { link.prefetch(Int(after)) }
    }

    /// Starts loading `slot`'s links and, once they are loaded (`settled`), both neighbours':
    /// what moving `slot` within a list touches.
    @inline(__always)
    func prefetchMove(_ slot: Int32, settled: Bool) {
        guard settled else {
            link.prefetch(Int(slot))
            return
        }
        let around = link[slot]
        if around.previous >= 0 { link.prefetch(Int(around.previous)) }
        if around.next >= 0 { link.prefetch(Int(around.next)) }
    }
}
