/// A stack of free slot numbers in preallocated storage.
@usableFromInline package struct SlotStack {
    @usableFromInline package let storage = SlotArray<Int32>(count: 0, filling: -1)
    @usableFromInline package var count = 0

    @inlinable package var isEmpty: Bool { count == 0 }

    @inline(__always)
    @inlinable package mutating func push(_ slot: Int32) {
        if count == storage.count { storage.grow(to: Swift.max(16, count * 2), filling: -1) }
        storage[count] = slot
        count += 1
    }

    @inline(__always)
    @inlinable package mutating func pop() -> Int32 {
        count -= 1
        return storage[count]
    }

    @inlinable package mutating func removeAll() { count = 0 }

    @inlinable package func reserve(_ capacity: Int) { storage.grow(to: capacity, filling: -1) }

    @inlinable package init(count: Int = 0) {
        self.count = count
    }
}
