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

    @Test func freedPlacesGoOutLastFreedFirstThenTheLowestNeverUsed() {
        // Given five records, of which the second and the fourth are freed, in that order
        var pool = RecordPool(filler: Int8(0))
        for number in 0..<5 { _ = pool.add(cost: number, extra: 1) }
        pool.remove(1)
        pool.remove(3)
        pool.checkPlaces(live: 3, name: "pool")
        // Then the next records take 3, then 1, then the places never used, lowest first
        #expect((0..<4).map { _ in pool.add(cost: 0, extra: 2) } == [3, 1, 5, 6])
        pool.checkPlaces(live: 7, name: "pool")
        // And emptied, it starts again from place 0, each place used holding the filler again
        pool.removeAll()
        #expect(pool.count == 0 && (0..<7).allSatisfy { pool.extras[Int32($0)] == 0 })
        #expect((0..<3).map { _ in pool.add(cost: 0, extra: 2) } == [0, 1, 2])
    }

    @Test func aCacheHandsOutSlotsAsAStackOfEveryFreeSlotWould() {
        // Given a cache with room for 64 entries holding keys 1 to 5 in slots 0 to 4
        let cache = Cache<UInt64, Int, FIFOPolicy>(
            configuration: CacheConfiguration(capacity: 1_000, sizeMode: .unit), expectedCount: 64)
        for key in UInt64(1)...5 { #expect(cache.insert(Int(key), forKey: key, size: 1, at: 0)) }
        func slot(_ key: UInt64) -> Int32? { cache.core.pointee.liveSlot(for: key) }
        #expect((UInt64(1)...5).map(slot) == [0, 1, 2, 3, 4])
        // When keys 2 and 4 go, then four more come
        _ = cache.removeValue(forKey: 2)
        _ = cache.removeValue(forKey: 4)
        for key in UInt64(6)...9 { #expect(cache.insert(Int(key), forKey: key, size: 1, at: 0)) }
        // Then they take the slot freed last, the other freed one, then the lowest never used
        #expect((UInt64(6)...9).map(slot) == [3, 1, 5, 6])
        #expect(cache.count == 7)
        cache.core.pointee.checkInvariants()
        // And emptied, the cache gives slot 0 again, its index empty of the keys it held
        cache.removeAll()
        cache.core.pointee.checkInvariants()
        #expect(cache.count == 0 && cache.core.pointee.index.count == 0)
        #expect((UInt64(1)...9).allSatisfy { slot($0) == nil })
        #expect(cache.insert(10, forKey: 10, size: 1, at: 0) && slot(10) == 0)
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
