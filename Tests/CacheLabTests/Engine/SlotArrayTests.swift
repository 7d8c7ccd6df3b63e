import CacheEngine
import Testing

@testable import CacheLab

@Suite("SlotArray: per-slot storage")
struct SlotArrayTests {
    @Test func storageGrownPastTheHugePageSizeKeepsItsElements() {
        let ledger = StorageLedger()
        StorageLedger.$current.withValue(ledger) {
            // Given a small array, grown across the size from which storage asks for huge pages
            let array = SlotArray<Int64>(count: 1_000, filling: 7)
            for index in 0..<1_000 { array[index] = Int64(index) }
            let large = SlotArray<Int64>.hugePageBytes / 8 + 1
            array.grow(to: large, filling: -1)
            // Then the old elements are kept, the new ones filled, and the last one is usable
            #expect((0..<1_000).allSatisfy { array[$0] == Int64($0) })
            #expect(array[1_000] == -1 && array[large - 1] == -1)
            array[large - 1] = 42
            // And a second growth, from huge-page storage to huge-page storage, keeps them too
            array.grow(to: large * 2, filling: 5)
            #expect(array[999] == 999 && array[large - 1] == 42 && array[large * 2 - 1] == 5)
            array.fill(with: 3)
            #expect(array[0] == 3 && array[large * 2 - 1] == 3)
            #expect(ledger.bytes == large * 2 * 8, "charged as any storage")
        }
        #expect(ledger.bytes == 0, "freed")
    }

    @Test func storageMadeLargeStartsFilled() {
        let count = SlotArray<Int32>.hugePageBytes / 4 * 3
        let array = SlotArray<Int32>(count: count, filling: -1)
        #expect(array.count == count)
        #expect(array[0] == -1 && array[count / 2] == -1 && array[count - 1] == -1)
    }
}
