import Testing

@testable import CacheLab

/// Each policy's own eviction order, on hand-computed sequences (unit mode, capacity 3).
@Suite("Eviction order per policy")
struct OrderTests {
    @Test func lruEvictsLeastRecentlyUsed() {
        let cache = Fixtures.makeCache(.lru, capacity: 3, sizeMode: .unit)
        // Given 1, 2, 3 inserted and 1 used again
        cache.requests([1, 2, 3, 1])
        // When 4 arrives, then 2 (least recent) goes
        cache.requests([4])
        #expect(cache.storedKeys == [3, 1, 4])
    }

    @Test func fifoIgnoresHits() {
        let cache = Fixtures.makeCache(.fifo, capacity: 3, sizeMode: .unit)
        cache.requests([1, 2, 3, 1])
        cache.requests([4])
        #expect(cache.storedKeys == [2, 3, 4])
    }

    @Test func lfuEvictsLeastFrequentThenLeastRecent() {
        let cache = Fixtures.makeCache(.lfu, capacity: 3, sizeMode: .unit)
        // Given frequencies 1:3, 2:1, 3:1 (2 entered frequency 1 before 3)
        let hits = cache.requests([1, 2, 3, 1, 1])
        #expect(hits == [false, false, false, true, true])
        // When 4 arrives, then 2 goes (lowest frequency, least recent within it)
        cache.requests([4])
        #expect(cache.storedKeys == [3, 4, 1])
        // When 3 is used (frequency 2) and 5 arrives, then 4 goes
        cache.requests([3, 5])
        #expect(cache.storedKeys == [5, 3, 1])
    }

    @Test func lfuForgetsFrequencyOnceEvicted() {
        let cache = Fixtures.makeCache(.lfu, capacity: 2, sizeMode: .unit)
        cache.requests([1, 1, 1, 2, 3])  // 2 evicted by 3 (1 has frequency 3)
        cache.requests([4])  // 3 evicted
        #expect(cache.storedKeys == [4, 1])
        cache.requests([2])  // 2 comes back with frequency 1; 4 (frequency 1, older) goes
        #expect(cache.storedKeys == [2, 1])
    }

    @Test func lfuTiesAmongHigherFrequenciesGoToTheLeastRecent() {
        let cache = Fixtures.makeCache(.lfu, capacity: 3, sizeMode: .unit)
        cache.requests([1, 2, 3, 2, 1, 3])  // all at frequency 2; order entered: 2, 1, 3
        cache.requests([4])  // 4 at frequency 1 is not yet a victim; 2 goes? No: 4 is inserted after evicting
        // The victim was chosen before 4 came in: lowest frequency is 2, least recent there is 2.
        #expect(cache.storedKeys == [4, 1, 3])
    }

    @Test func byteModeEvictsUntilTheNewEntryFits() {
        let cache = Fixtures.makeCache(.lru, capacity: 100)
        cache.requests([1, 2, 3], size: 30)
        cache.requests([4], size: 50)  // needs 40 more than free: evicts 1 and 2
        #expect(cache.storedKeys == [3, 4])
        #expect(cache.evictions == 2)
        #expect(cache.totalCost == 80)
    }
}
