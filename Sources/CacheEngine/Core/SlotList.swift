/// The ends of one list threaded through a `SlotLinks`: the head is the oldest end (where
/// `removeHead` takes from), the tail the newest (where `append` adds).
///
/// `first` and `last` answer nil for an empty list; `head` and `tail` are for callers that know
/// the list is not empty (checked by `assert`).
@usableFromInline package struct SlotList {
    // The ends as plain `Int32`s, -1 when the list is empty, so a list takes 16 bytes in the
    // per-frequency arrays of LFU and its kin (two `Int32?` would take 24). The encoding stays in
    // this type: `first` and `last` decode it.
    @usableFromInline package var headSlot: Int32 = -1
    @usableFromInline package var tailSlot: Int32 = -1
    @usableFromInline package var count = 0

    @inlinable package var isEmpty: Bool { count == 0 }

    /// The head (oldest) slot, or nil when the list is empty.
    @inline(__always) @inlinable package var first: Int32? { Self.decode(headSlot) }

    /// The tail (newest) slot, or nil when the list is empty.
    @inline(__always) @inlinable package var last: Int32? { Self.decode(tailSlot) }

    /// The head (oldest) slot. The list must not be empty; `first` answers nil when it is.
    @inline(__always) @inlinable package var head: Int32 {
        assert(!isEmpty, "SlotList: head of an empty list")
        return headSlot
    }

    /// The tail (newest) slot. The list must not be empty; `last` answers nil when it is.
    @inline(__always) @inlinable package var tail: Int32 {
        assert(!isEmpty, "SlotList: tail of an empty list")
        return tailSlot
    }

    // Decoding tests `== -1` so that decoding then encoding again folds to nothing.
    @inline(__always) @inlinable package static func decode(_ stored: Int32) -> Int32? { stored == -1 ? nil : stored }
    @inline(__always) @inlinable package static func encode(_ slot: Int32?) -> Int32 { slot ?? -1 }

    /// Links `slot` after the tail (the newest end).
    @inline(__always)
    @inlinable package mutating func append(_ slot: Int32, in links: SlotLinks) {
        let before = last
        links.setNeighbours(of: slot, previous: before, next: nil)
        if let before { links.setNext(of: before, to: slot) } else { headSlot = slot }
        tailSlot = slot
        count += 1
    }

    /// Links `slot` before the head (the oldest end).
    @inline(__always)
    @inlinable package mutating func prepend(_ slot: Int32, in links: SlotLinks) {
        let after = first
        links.setNeighbours(of: slot, previous: nil, next: after)
        if let after { links.setPrevious(of: after, to: slot) } else { tailSlot = slot }
        headSlot = slot
        count += 1
    }

    /// Unlinks `slot`, which must be in this list.
    @inline(__always)
    @inlinable package mutating func remove(_ slot: Int32, in links: SlotLinks) {
        let before = links.previous(slot)
        let after = links.next(slot)
        if let before { links.setNext(of: before, to: after) } else { headSlot = Self.encode(after) }
        if let after { links.setPrevious(of: after, to: before) } else { tailSlot = Self.encode(before) }
        count -= 1
    }

    /// Links `slot` right after `anchor`, which must be in this list.
    @inline(__always)
    @inlinable package mutating func insert(_ slot: Int32, after anchor: Int32, in links: SlotLinks) {
        guard let following = links.next(anchor) else { return append(slot, in: links) }
        links.setNeighbours(of: slot, previous: anchor, next: following)
        links.setNext(of: anchor, to: slot)
        links.setPrevious(of: following, to: slot)
        count += 1
    }

    /// Moves `slot`, which must be in this list, to the tail.
    @inline(__always)
    @inlinable package mutating func moveToTail(_ slot: Int32, in links: SlotLinks) {
        guard slot != tailSlot else { return }
        remove(slot, in: links)
        append(slot, in: links)
    }

    /// Unlinks and returns the head; the list must not be empty.
    @inline(__always)
    @inlinable package mutating func removeHead(in links: SlotLinks) -> Int32 {
        let slot = head
        remove(slot, in: links)
        return slot
    }

    @inlinable package mutating func removeAll() {
        headSlot = -1
        tailSlot = -1
        count = 0
    }

    /// The slots from head to tail.
    @inlinable package func slots(in links: SlotLinks) -> [Int32] {
        var result: [Int32] = []
        var next = first
        while let slot = next {
            result.append(slot)
            next = links.next(slot)
        }
        return result
    }

    /// Checks that the links agree in both directions and that `count` is right.
    @inlinable package func checkInvariants(in links: SlotLinks, name: String) {
        var walked = 0
        var previous: Int32? = nil
        var next = first
        while let slot = next {
            precondition(links.previous(slot) == previous, "\(name): broken back link at slot \(slot)")
            walked += 1
            precondition(walked <= count, "\(name): more linked slots than count \(count) (a cycle?)")
            previous = slot
            next = links.next(slot)
        }
        precondition(
            previous == last, "\(name): tail \(last.map(String.init) ?? "none") is not the last linked slot")
        precondition(walked == count, "\(name): count \(count) but \(walked) linked")
    }

    @inlinable package init(headSlot: Int32 = -1, tailSlot: Int32 = -1, count: Int = 0) {
        self.headSlot = headSlot
        self.tailSlot = tailSlot
        self.count = count
    }
}
