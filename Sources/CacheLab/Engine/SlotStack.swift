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
