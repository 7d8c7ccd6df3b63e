/// A doubly linked list of slot numbers whose links live in a slot array, so linking and
/// unlinking never allocate. Several lists can share one `SlotLinks` storage when a slot
/// belongs to at most one of them at a time (LFU's frequency lists do).
///
/// A slot with no neighbour on one side (an end of its list) answers nil there.
///
/// - Complexity: O(1) append, prepend, remove and move.
@usableFromInline package struct SlotLinks {
    /// Both links of a slot. Stored as plain `Int32`s, -1 for "no neighbour", so a slot's links
    /// take 8 bytes (two `Int32?` would take 16); the encoding stays in this type, whose
    /// accessors answer and take `Int32?`.
    @usableFromInline package struct Link {
        @usableFromInline package var previous: Int32 = -1
        @usableFromInline package var next: Int32 = -1

        @inlinable package init(previous: Int32 = -1, next: Int32 = -1) {
            self.previous = previous
            self.next = next
        }
    }

    // Both links of a slot side by side: one cache line per node visited.
    @usableFromInline package let link = SlotArray<Link>(count: 0, filling: Link())

    /// Makes room for slots `0..<count`.
    @inlinable package func grow(to count: Int) {
        link.grow(to: count, filling: Link())
    }

    // The stored form of a neighbour and back. Decoding tests `== -1` so that decoding then
    // encoding again folds to nothing.
    @inline(__always) @inlinable package static func decode(_ stored: Int32) -> Int32? { stored == -1 ? nil : stored }
    @inline(__always) @inlinable package static func encode(_ slot: Int32?) -> Int32 { slot ?? -1 }

    /// The slot before `slot` in its list (towards the head), or nil at the head.
    @inline(__always) @inlinable package func previous(_ slot: Int32) -> Int32? { Self.decode(link[slot].previous) }

    /// The slot after `slot` in its list (towards the tail), or nil at the tail.
    @inline(__always) @inlinable package func next(_ slot: Int32) -> Int32? { Self.decode(link[slot].next) }

    /// Sets both neighbours of `slot` (nil: none on that side).
    @inline(__always)
    @inlinable package func setNeighbours(of slot: Int32, previous: Int32?, next: Int32?) {
        link[slot] = Link(previous: Self.encode(previous), next: Self.encode(next))
    }

    /// Sets the slot before `slot` (nil: `slot` is now the head).
    @inline(__always)
    @inlinable package func setPrevious(of slot: Int32, to previous: Int32?) {
        link[slot].previous = Self.encode(previous)
    }

    /// Sets the slot after `slot` (nil: `slot` is now the tail).
    @inline(__always)
    @inlinable package func setNext(of slot: Int32, to next: Int32?) { link[slot].next = Self.encode(next) }

    /// Starts loading `slot`'s links and, once they are loaded (`settled`), its successor's: what
    /// unlinking `slot` from a list's head touches.
    @inline(__always)
    @inlinable package func prefetch(_ slot: Int32, settled: Bool) {
        link.prefetch(Int(slot))
        if settled, let after = next(slot) { link.prefetch(Int(after)) }
    }

    /// Starts loading `slot`'s links and, once they are loaded (`settled`), both neighbours':
    /// what moving `slot` within a list touches.
    @inline(__always)
    @inlinable package func prefetchMove(_ slot: Int32, settled: Bool) {
        guard settled else {
            link.prefetch(Int(slot))
            return
        }
        let around = link[slot]
        if let before = Self.decode(around.previous) { link.prefetch(Int(before)) }
        if let after = Self.decode(around.next) { link.prefetch(Int(after)) }
    }

    @inlinable package init() {}
}
