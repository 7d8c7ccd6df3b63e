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

/// A stack of free slot numbers in preallocated storage.
struct SlotStack {
    private let storage = SlotArray<Int32>(count: 0, filling: -1)
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    @inline(__always)
    mutating func push(_ slot: Int32) {
        if count == storage.count { storage.grow(to: Swift.max(16, count * 2), filling: -1) }
        storage[count] = slot
        count += 1
    }

    @inline(__always)
    mutating func pop() -> Int32 {
        count -= 1
        return storage[count]
    }

    mutating func removeAll() { count = 0 }

    func reserve(_ capacity: Int) { storage.grow(to: capacity, filling: -1) }
}

/// The ends of one list threaded through a `SlotLinks`. `head` is the oldest end.
struct SlotList {
    private(set) var head: Int32 = -1
    private(set) var tail: Int32 = -1
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// Links `slot` after the tail (the newest end).
    @inline(__always)
    mutating func append(_ slot: Int32, in links: SlotLinks) {
        links.link[slot].previous = tail
        links.link[slot].next = -1
        if tail >= 0 { links.link[tail].next = slot } else { head = slot }
        tail = slot
        count += 1
    }

    /// Links `slot` before the head (the oldest end).
    @inline(__always)
    mutating func prepend(_ slot: Int32, in links: SlotLinks) {
        links.link[slot].previous = -1
        links.link[slot].next = head
        if head >= 0 { links.link[head].previous = slot } else { tail = slot }
        head = slot
        count += 1
    }

    /// Unlinks `slot`, which must be in this list.
    @inline(__always)
    mutating func remove(_ slot: Int32, in links: SlotLinks) {
        let before = links.previous(slot)
        let after = links.next(slot)
        if before >= 0 { links.link[before].next = after } else { head = after }
        if after >= 0 { links.link[after].previous = before } else { tail = before }
        count -= 1
    }

    /// Links `slot` right after `anchor`, which must be in this list.
    @inline(__always)
    mutating func insert(_ slot: Int32, after anchor: Int32, in links: SlotLinks) {
        let following = links.next(anchor)
        guard following >= 0 else { return append(slot, in: links) }
        links.link[slot].previous = anchor
        links.link[slot].next = following
        links.link[anchor].next = slot
        links.link[following].previous = slot
        count += 1
    }

    /// Moves `slot`, which must be in this list, to the tail.
    @inline(__always)
    mutating func moveToTail(_ slot: Int32, in links: SlotLinks) {
        guard slot != tail else { return }
        remove(slot, in: links)
        append(slot, in: links)
    }

    /// Unlinks and returns the head; the list must not be empty.
    @inline(__always)
    mutating func removeHead(in links: SlotLinks) -> Int32 {
        let slot = head
        remove(slot, in: links)
        return slot
    }

    mutating func removeAll() {
        head = -1
        tail = -1
        count = 0
    }

    /// The slots from head to tail.
    func slots(in links: SlotLinks) -> [Int32] {
        var result: [Int32] = []
        var slot = head
        while slot >= 0 {
            result.append(slot)
            slot = links.next(slot)
        }
        return result
    }

    /// Checks that the links agree in both directions and that `count` is right.
    func checkInvariants(in links: SlotLinks, name: String) {
        var walked = 0
        var previous: Int32 = -1
        var slot = head
        while slot >= 0 {
            precondition(links.previous(slot) == previous, "\(name): broken back link at slot \(slot)")
            walked += 1
            precondition(walked <= count, "\(name): more linked slots than count \(count) (a cycle?)")
            previous = slot
            slot = links.next(slot)
        }
        precondition(previous == tail, "\(name): tail \(tail) is not the last linked slot \(previous)")
        precondition(walked == count, "\(name): count \(count) but \(walked) linked")
    }
}
