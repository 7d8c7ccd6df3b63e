import CacheEngine
import Testing

@testable import CacheLab

@Suite("size: trimming to a low-water mark")
struct SizeBoundedTests {
    @Test func defaultsToNukesSeventyPercent() {
        #expect(PolicyKind.size.configuration(capacity: 1_000).trimRatio == 0.7)
        #expect(PolicyKind.size.configuration(capacity: 1_000).lowWaterMark == 700)
        #expect(PolicyKind.lru.configuration(capacity: 1_000).trimRatio == 1)
    }

    @Test func overflowTrimsLeastRecentlyUsedDownToTheLowWaterMark() {
        // Given 10 entries of 10 bytes filling a 100-byte cache, 1 used last
        let cache = Fixtures.makeCache(.size, capacity: 100)
        cache.requests(Array(1...10), size: 10)
        cache.requests([1], size: 10)
        #expect(cache.evictions == 0)
        // When an 11th entry overflows, then LRU entries go until total + new ≤ 70
        cache.requests([11], size: 10)
        #expect(cache.totalCost == 70)
        #expect(cache.evictions == 4)
        #expect(cache.storedKeys == [6, 7, 8, 9, 10, 1, 11])
    }

    @Test func noTrimUntilTheLimitIsPassed() {
        let cache = Fixtures.makeCache(.size, capacity: 100)
        cache.requests(Array(1...10), size: 10)
        #expect(cache.totalCost == 100)
        #expect(cache.evictions == 0)
    }

    @Test func kingfishersHalfRatio() {
        let cache = Fixtures.makeCache(.size, capacity: 100, trimRatio: 0.5)
        cache.requests(Array(1...10), size: 10)
        cache.requests([11], size: 10)
        #expect(cache.totalCost == 50)
        #expect(cache.storedKeys == [7, 8, 9, 10, 11])
    }

    @Test func anEntryBiggerThanTheLowWaterMarkStillFitsUnderTheLimit() {
        let cache = Fixtures.makeCache(.size, capacity: 100)
        cache.requests([1, 2, 3], size: 30)
        cache.requests([4], size: 80)  // 80 > 70: evict just enough to fit under 100
        #expect(cache.storedKeys == [4])
        #expect(cache.totalCost == 80)
    }

    @Test func trimRatioWorksOnTopOfFIFO() {
        let cache = Fixtures.makeCache(.fifo, capacity: 100, trimRatio: 0.5)
        cache.requests(Array(1...10), size: 10)
        cache.requests([1, 11], size: 10)
        #expect(cache.storedKeys == [7, 8, 9, 10, 11])
    }
}

@Suite("ttl: fixed and sliding expiry")
struct TTLTests {
    @Test func ttlDefaultsToKingfishersThreeHundredSeconds() {
        #expect(PolicyKind.ttl.configuration(capacity: 10).ttl == 300_000)
        #expect(PolicyKind.lru.configuration(capacity: 10).ttl == nil)
    }

    @Test func fixedExpiryCountsFromInsertion() {
        let cache = Fixtures.makeCache(.ttl, capacity: 100, ttl: 1_000)
        #expect(cache.request(1, size: 10, at: 0) == false)
        #expect(cache.request(1, size: 10, at: 600) == true)  // a hit does not extend a fixed lifetime
        #expect(cache.request(1, size: 10, at: 999) == true)
        #expect(cache.request(1, size: 10, at: 1_000) == false)  // expired at exactly insertion + ttl
        #expect(cache.expirations == 1)
        #expect(cache.request(1, size: 10, at: 1_500) == true)  // re-inserted at 1,000
    }

    @Test func slidingExpiryCountsFromTheLastUse() {
        let cache = Fixtures.makeCache(.ttl, capacity: 100, ttl: 1_000, ttlMode: .sliding)
        #expect(cache.request(1, size: 10, at: 0) == false)
        #expect(cache.request(1, size: 10, at: 600) == true)
        #expect(cache.request(1, size: 10, at: 1_500) == true)  // 1,500 < 600 + 1,000
        #expect(cache.request(1, size: 10, at: 2_500) == false)  // 2,500 = 1,500 + 1,000
        #expect(cache.expirations == 1)
    }

    @Test func anExpiredEntryIsAMissAndCountsAsAnExpirationNotAnEviction() {
        let cache = Fixtures.makeCache(.lru, capacity: 100, ttl: 100)
        cache.requests([1], size: 10, at: 0)
        #expect(cache.lookup(1, at: 100) == false)
        #expect(cache.expirations == 1)
        #expect(cache.evictions == 0)
        #expect(cache.count == 0)
    }

    @Test func expiredEntriesGoBeforeAnyLiveEntryIsEvicted() {
        // Given a full cache where 1 and 2 expire at 100 and 3 lives longer
        let cache = Fixtures.makeCache(.lru, capacity: 30, ttl: 100)
        cache.requests([1, 2], size: 10, at: 0)
        cache.requests([3], size: 10, at: 50)
        cache.requests([1, 2], size: 10, at: 60)  // hits: LRU order now 3, 1, 2
        // When 4 needs room at 120, then the expired 1 and 2 go, not the least recent 3
        cache.requests([4], size: 20, at: 120)
        #expect(cache.storedKeys == [3, 4])
        #expect(cache.expirations == 2)
        #expect(cache.evictions == 0)
    }

    @Test func expiryWorksOnTopOfLFU() {
        // Given 1 used often and 2 once, with a fixed lifetime of 100
        let cache = Fixtures.makeCache(.lfu, capacity: 3, sizeMode: .unit, ttl: 100)
        cache.requests([1, 1, 1, 2], at: 0)
        cache.requests([3], at: 90)
        // When time passes the lifetime of 1 and 2, then even the most frequent one expires
        #expect(cache.lookup(1, at: 100) == false)
        #expect(cache.expirations == 1)
        // And 3 is still live and 2 expires when found
        #expect(cache.lookup(3, at: 150) == true)
        #expect(cache.lookup(2, at: 150) == false)
        #expect(cache.expirations == 2)
        // And LFU order still holds among live entries: 4 and 5 fill, 6 evicts the least frequent
        cache.requests([4, 5], at: 160)
        cache.requests([6], at: 161)
        #expect(cache.evictions == 1)
        #expect(cache.storedKeys == [5, 6, 3])
    }

    @Test func slidingExpiryKeepsTheExpiryListInUseOrder() {
        let cache = Fixtures.makeCache(.fifo, capacity: 20, ttl: 100, ttlMode: .sliding)
        cache.requests([1, 2], size: 10, at: 0)
        cache.requests([1], size: 10, at: 80)  // 1 now expires at 180, 2 at 100
        cache.requests([3], size: 10, at: 150)  // needs room: 2 has expired, 1 has not
        #expect(Set(cache.storedKeys) == [1, 3])
        #expect(cache.expirations == 1)
        #expect(cache.evictions == 0)
    }
}
