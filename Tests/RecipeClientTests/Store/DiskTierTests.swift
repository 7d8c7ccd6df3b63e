import CacheEngine
import CacheLab
import ClientModel
import Testing

@testable import RecipeClient

@Suite("DiskTier")
struct DiskTierTests {
    typealias F = StoreFixtures

    @Test func insertThenValueReturnsTheBytes() throws {
        try F.withStorePath { path in
            let tier = try F.makeLRUTier(path: path)
            #expect(try tier.insert(F.image(1), forKey: F.url(1), at: 1))
            #expect(try tier.value(forKey: F.url(1), at: 2) == F.image(1))
            #expect(try tier.value(forKey: F.url(2), at: 2) == nil)
            #expect(tier.count == 1 && tier.totalBytes == 100)
            try tier.checkInvariants()
        }
    }

    @Test func evictionDeletesTheRows() throws {
        try F.withStorePath { path in
            // Given a tier holding three 100-byte images, full
            let tier = try F.makeLRUTier(path: path, capacity: 300)
            for number in 1...3 { try tier.insert(F.image(UInt64(number)), forKey: F.url(number), at: Int64(number)) }
            // When a fourth arrives
            try tier.insert(F.image(4), forKey: F.url(4), at: 4)
            // Then the least recently used row is gone from SQLite, seen through another connection
            let raw = try SQLiteDatabase(path: path)
            var urls: [String] = []
            try raw.prepare("SELECT url FROM images ORDER BY url").forEachRow { urls.append($0.text(at: 0)) }
            #expect(urls == [2, 3, 4].map(F.url))
            #expect(tier.evictions == 1 && tier.totalBytes == 300)
            try tier.checkInvariants()
        }
    }

    @Test func reopeningServesTheBytesAndKeepsLRUOrder() throws {
        try F.withStorePath { path in
            // Given a full tier where 1 was used after 2 and 3
            do {
                let tier = try F.makeLRUTier(path: path, capacity: 300)
                for number in 1...3 {
                    try tier.insert(F.image(UInt64(number)), forKey: F.url(number), at: Int64(number))
                }
                _ = try tier.value(forKey: F.url(1), at: 10)
            }
            // When the app relaunches and a new image arrives
            let tier = try F.makeLRUTier(path: path, capacity: 300, at: 20)
            #expect(tier.count == 3)
            #expect(tier.evictionOrder == [2, 3, 1].map(F.url))
            try tier.insert(F.image(4), forKey: F.url(4), at: 21)
            // Then the victim is the least recently used from before the relaunch
            #expect(try tier.value(forKey: F.url(2), at: 22) == nil)
            for number in [1, 3, 4] {
                #expect(try tier.value(forKey: F.url(number), at: 23) == F.image(UInt64(number)))
            }
            try tier.checkInvariants()
        }
    }

    @Test func reopeningWithASmallerCapacityEvictsTheOldest() throws {
        try F.withStorePath { path in
            do {
                let tier = try F.makeLRUTier(path: path, capacity: 300)
                for number in 1...3 {
                    try tier.insert(F.image(UInt64(number)), forKey: F.url(number), at: Int64(number))
                }
            }
            let tier = try F.makeLRUTier(path: path, capacity: 150, at: 10)
            #expect(tier.evictionOrder == [F.url(3)])
            #expect(try tier.store.entries().map(\.url) == [F.url(3)])
            try tier.checkInvariants()
        }
    }

    @Test func pinnedEntriesSurviveAnyPressureAndARelaunch() throws {
        try F.withStorePath { path in
            // Given a pinned favourite
            do {
                let tier = try F.makeLRUTier(path: path, capacity: 300)
                try tier.insert(F.image(1), forKey: F.url(1), at: 1)
                #expect(try tier.pin(F.url(1), at: 0))
                // When a hundred other images stream through
                for number in 2...101 {
                    try tier.insert(F.image(UInt64(number)), forKey: F.url(number), at: Int64(number))
                    try tier.checkInvariants()
                }
                // Then it is still served, and not counted against the capacity
                #expect(try tier.value(forKey: F.url(1), at: 200) == F.image(1))
                #expect(tier.count == 4 && tier.totalBytes == 400)
            }
            // And it stays pinned after a relaunch, even at a capacity of nothing
            let tier = try F.makeLRUTier(path: path, capacity: 0, at: 300)
            #expect(tier.pinnedURLs == [F.url(1)])
            #expect(try tier.value(forKey: F.url(1), at: 301) == F.image(1))
            try tier.checkInvariants()
        }
    }

    @Test func unpinningMakesAnEntryEvictableAgain() throws {
        try F.withStorePath { path in
            let tier = try F.makeLRUTier(path: path, capacity: 200)
            try tier.insert(F.image(1), forKey: F.url(1), at: 1)
            try tier.pin(F.url(1), at: 0)
            try tier.insert(F.image(2), forKey: F.url(2), at: 2)
            try tier.insert(F.image(3), forKey: F.url(3), at: 3)
            // When 1 is unpinned it becomes most recent, and the oldest unpinned entry makes room
            try tier.unpin(F.url(1), at: 4)
            #expect(tier.evictionOrder == [3, 1].map(F.url))
            #expect(try tier.store.entries().allSatisfy { !$0.pinned })
            try tier.checkInvariants()
            #expect(try tier.pin(F.url(9), at: 0) == false)
        }
    }

    @Test func aCorruptRowIsAMissAndLeavesTheEngine() throws {
        try F.withStorePath { path in
            let tier = try F.makeLRUTier(path: path)
            try tier.insert(F.image(1), forKey: F.url(1), at: 1)
            try tier.insert(F.image(2), forKey: F.url(2), at: 2)
            var damaged = F.image(1)
            damaged[0] ^= 0xFF
            try F.corrupt(path: path, url: F.url(1), bytes: damaged)
            #expect(try tier.value(forKey: F.url(1), at: 3) == nil)
            #expect(tier.store.corruptionsFound == 1)
            #expect(tier.count == 1 && tier.evictionOrder == [F.url(2)])
            try tier.checkInvariants()
        }
    }

    @Test func anImageBiggerThanTheCapacityIsNotStored() throws {
        try F.withStorePath { path in
            let tier = try F.makeLRUTier(path: path, capacity: 300)
            try tier.insert(F.image(1), forKey: F.url(1), at: 1)
            // A bigger image for the same URL replaces nothing: the old one goes, the new is refused
            #expect(try tier.insert(F.image(2, count: 301), forKey: F.url(1), at: 2) == false)
            #expect(try tier.value(forKey: F.url(1), at: 3) == nil)
            #expect(tier.count == 0)
            try tier.checkInvariants()
        }
    }

    @Test func expiredEntriesAreDeletedFromDisk() throws {
        try F.withStorePath { path in
            let configuration = PolicyKind.ttl.configuration(capacity: 1000, ttl: 100)
            let tier = try DiskTier<LRUPolicy>(path: path, configuration: configuration, at: 0)
            try tier.insert(F.image(1), forKey: F.url(1), at: 0)
            #expect(try tier.value(forKey: F.url(1), at: 100) == nil)
            #expect(try tier.store.entries().isEmpty)
            try tier.checkInvariants()
        }
    }

    @Test(arguments: PolicyKind.online)
    func everyPolicyKeepsDiskAndEngineInStep(kind: PolicyKind) throws {
        try F.withStorePath { path in
            var generator = SplitMix64(seed: 42)
            var now: Int64 = 0
            // W-TinyLFU and LIRS store only images that fit 1 % of the store: a bigger store, more
            // images.
            let (capacity, images) = kind == .wtinylfu || kind == .lirs ? (25_000, UInt64(400)) : (1_000, 30)
            do {
                let tier = try kind.openDiskTier(path: path, capacity: capacity, at: now)
                for _ in 0..<300 {
                    now += 1
                    let number = Int(generator.next() % images)
                    let size = 50 + Int(generator.next() % 200)
                    if try tier.value(forKey: F.url(number), at: now) == nil {
                        try tier.insert(F.image(UInt64(number), count: size), forKey: F.url(number), at: now)
                    }
                    if number == 7 { try tier.pin(F.url(number), at: 0) }
                    try tier.checkInvariants()
                }
                #expect(tier.totalBytes > 0)
            }
            let reopened = try kind.openDiskTier(path: path, capacity: capacity, at: now)
            try reopened.checkInvariants()
            #expect(reopened.count > 0)
        }
    }

    @Test func aPolicyThatNeedsTheFutureIsRefusedBeforeTheStoreIsTouched() throws {
        try F.withStorePath { path in
            #expect(throws: PolicyError.needsFuture(.belady, place: "a client's disk tier")) {
                _ = try PolicyKind.belady.openDiskTier(path: path, capacity: 1_000, at: 0)
            }
        }
    }
}
