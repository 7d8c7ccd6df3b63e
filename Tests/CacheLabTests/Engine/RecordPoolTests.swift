import CacheEngine
import Testing

@testable import CacheLab

/// The numbered records behind LeCaR's ghosts and every `KeyedRecords`, and the index's in-place
/// replacement that keeps a ghost under its key.
@Suite("RecordPool and SlotIndex.replace")
struct RecordPoolTests {
    @Test func aFreedPlaceIsTheNextOneGivenAndItsFieldsAreReset() {
        // Given three records of the pool's first sixteen places
        var pool = RecordPool(filler: Int8(-1))
        let records = [pool.add(cost: 10, extra: 1), pool.add(cost: 20, extra: 2), pool.add(cost: 30, extra: 3)]
        #expect(records == [0, 1, 2] && pool.count == 3 && pool.capacity == 16)
        #expect(pool.costs[1] == 20 && pool.extras[2] == 3)
        // When the middle one goes
        pool.remove(records[1])
        // Then its extra fields hold the filler again, and the next record takes its place
        #expect(pool.extras[1] == -1 && pool.count == 2)
        #expect(pool.add(cost: 40, extra: 4) == 1)
        #expect(pool.costs[1] == 40 && pool.extras[1] == 4)
        pool.checkPlaces(live: 3, name: "pool")
    }

    @Test func aFullPoolDoublesAndKeepsItsRecords() {
        var pool = RecordPool(filler: Int8(0))
        for number in 0..<17 { #expect(pool.add(cost: number, extra: 1) == Int32(number)) }
        #expect(pool.capacity == 32 && pool.count == 17)
        #expect((0..<17).allSatisfy { pool.costs[Int32($0)] == $0 })
        pool.checkPlaces(live: 17, name: "pool")
    }

    @Test func removeAllFreesEveryPlaceLowestFirst() {
        var pool = RecordPool(filler: Int8(0))
        for number in 0..<5 { _ = pool.add(cost: number, extra: 9) }
        pool.removeAll()
        #expect(pool.count == 0 && pool.extras[3] == 0)
        pool.checkPlaces(live: 0, name: "pool")
        #expect(pool.add(cost: 1, extra: 1) == 0)
    }

    @Test func replaceChangesOneKeysSlotAndNoOtherKeys() {
        // Given six keys in an index of sixteen buckets
        var index = SlotIndex<UInt64>(minimumCapacity: 8)
        let keys: [UInt64] = (1...6).map { $0 * 1_000_003 }
        for (slot, key) in keys.enumerated() { index.insert(key, slot: Int32(slot)) }
        // When one key's slot is replaced
        index.replace(keys[2], slot: 1 << 30)
        // Then it answers the new slot, every other key its own, and the count is unchanged
        #expect(index.slot(for: keys[2]) == 1 << 30)
        #expect(keys.enumerated().allSatisfy { $0.offset == 2 || index.slot(for: $0.element) == Int32($0.offset) })
        #expect(index.count == keys.count)
        index.checkInvariants()
    }
}
