/// The ends of one list threaded through a `SlotLinks`. `head` is the oldest end.
struct SlotList {
    private(set) var head: Int32 = -1
    private(set) var tail: Int32 = -1
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// The first slot, or nil when the list is empty.
    var first: Int32? { head >= 0 ? head : nil }

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
