import CacheEngine
import CacheLab
import ClientModel
import Testing

@testable import RecipeClient

/// The memory tier: the engine's capacity and eviction order, plus pins kept beside it.
@Suite("MemoryTier")
struct MemoryTierTests {
    typealias F = StoreFixtures

    /// An LRU memory tier of `capacity` bytes; images of `F.image` are 100 bytes.
    func makeTier(capacity: Int = 300, ttl: Int64? = nil) -> MemoryTier<LRUPolicy> {
        MemoryTier(configuration: CacheConfiguration(capacity: capacity, ttl: ttl))
    }

    /// Inserts images 1...count at times 1...count.
    func fill(_ tier: MemoryTier<LRUPolicy>, _ numbers: ClosedRange<Int>) {
        for number in numbers {
            #expect(tier.insert(F.image(UInt64(number)), forKey: F.url(number), at: Int64(number)))
            tier.checkInvariants()
        }
    }

    @Test func holdsUpToItsCapacityAndEvictsTheLeastRecentlyUsed() {
        // Given a full tier where image 1 was used after 2 and 3
        let tier = makeTier()
        fill(tier, 1...3)
        #expect(tier.value(forKey: F.url(1), at: 4) == F.image(1))

        // When a fourth image arrives
        fill(tier, 4...4)

        // Then image 2 is the one evicted
        #expect(tier.count == 3 && tier.totalBytes == 300 && tier.evictions == 1)
        #expect(tier.value(forKey: F.url(2), at: 5) == nil)
        #expect([1, 3, 4].allSatisfy { tier.value(forKey: F.url($0), at: 6) == F.image(UInt64($0)) })
        tier.checkInvariants()
    }

    @Test func anImageWithPixelsCostsItsDecodedBitmapOrItsBytes() {
        // Given 100-byte images of 10×10 pixels (a 400-byte bitmap) and a 1,000-byte tier
        let pixels = PixelSize(width: 10, height: 10).packed
        let decoded = makeTier(capacity: 1_000)
        let encoded = MemoryTier<LRUPolicy>(configuration: CacheConfiguration(capacity: 1_000), cost: .encoded)
        for number in 1...3 {
            decoded.insert(F.image(UInt64(number)), forKey: F.url(number), at: Int64(number), pixels: pixels)
            encoded.insert(F.image(UInt64(number)), forKey: F.url(number), at: Int64(number), pixels: pixels)
        }

        // Then decoded it holds two bitmaps (800 bytes), encoded all three images (300 bytes)
        #expect(decoded.count == 2 && decoded.totalBytes == 800 && decoded.peakCost == 800)
        #expect(encoded.count == 3 && encoded.totalBytes == 300)
        // And a pinned bitmap keeps its decoded cost
        #expect(decoded.pin(F.url(3), at: 0))
        #expect(decoded.pinnedBytes == 400)
        decoded.checkInvariants()
    }

    @Test func imageBiggerThanTheCapacityIsRefusedAndDropsTheOldOne() {
        let tier = makeTier()
        fill(tier, 1...1)
        #expect(!tier.insert(F.image(9, count: 301), forKey: F.url(1), at: 2))
        #expect(tier.value(forKey: F.url(1), at: 3) == nil)
        #expect(tier.count == 0 && tier.totalBytes == 0)
        tier.checkInvariants()
    }

    @Test func pinnedImageIsNeverEvictedAndDoesNotCountAgainstTheCapacity() {
        // Given a full tier with image 1 pinned
        let tier = makeTier()
        fill(tier, 1...3)
        #expect(tier.pin(F.url(1), at: 0))
        #expect(!tier.pin(F.url(9), at: 0))

        // When three more images arrive
        fill(tier, 4...6)

        // Then image 1 stays beside a full engine, and 2 and 3 are gone
        #expect(tier.value(forKey: F.url(1), at: 7) == F.image(1))
        #expect(tier.count == 4 && tier.totalBytes == 400)
        #expect(!tier.contains(F.url(2), at: 7) && !tier.contains(F.url(3), at: 7))
        tier.checkInvariants()
    }

    @Test func replacingAPinnedImageKeepsItPinned() {
        let tier = makeTier()
        fill(tier, 1...1)
        tier.pin(F.url(1), at: 0)
        #expect(tier.insert(F.image(7, count: 150), forKey: F.url(1), at: 2))
        fill(tier, 2...4)
        #expect(tier.value(forKey: F.url(1), at: 5) == F.image(7, count: 150))
        #expect(tier.totalBytes == 450)
        tier.checkInvariants()
    }

    @Test func unpinnedImageCountsAgainTheCapacityAsMostRecentlyUsed() {
        // Given a full engine and a pinned image beside it
        let tier = makeTier()
        fill(tier, 1...4)
        tier.pin(F.url(4), at: 0)
        fill(tier, 5...5)
        #expect(tier.count == 4 && tier.evictions == 1)

        // When it is unpinned
        tier.unpin(F.url(4), at: 10)

        // Then it evicts the least recently used to fit, and is itself the last in line
        #expect(tier.count == 3 && tier.totalBytes == 300 && tier.evictions == 2)
        #expect(!tier.contains(F.url(2), at: 10))
        fill(tier, 6...7)
        #expect(tier.contains(F.url(4), at: 11))
        #expect(!tier.contains(F.url(3), at: 11) && !tier.contains(F.url(5), at: 11))
        tier.checkInvariants()
    }

    @Test func trimEvictsUnpinnedImagesDownToTheTarget() {
        let tier = makeTier()
        fill(tier, 1...3)
        tier.pin(F.url(2), at: 0)
        tier.trim(toCost: 100)
        // Image 3, the most recent unpinned one, fits the target; the pinned one is kept beside it
        #expect(tier.count == 2 && tier.totalBytes == 200)
        #expect(tier.contains(F.url(2), at: 4) && tier.contains(F.url(3), at: 4) && !tier.contains(F.url(1), at: 4))
        tier.trim(toCost: 0)
        #expect(tier.count == 1 && tier.value(forKey: F.url(2), at: 5) == F.image(2))
        tier.checkInvariants()
    }

    @Test func containsAndValueRespectTheLifetimeButPinsNeverExpire() {
        // Given images living 100 ms, inserted at 1 and 2, image 2 pinned
        let tier = makeTier(ttl: 100)
        fill(tier, 1...2)
        tier.pin(F.url(2), at: 0)

        // Then before the end of their lifetime they are there
        #expect(tier.contains(F.url(1), at: 50) && tier.contains(F.url(2), at: 50))

        // And after it the unpinned one is gone, without `contains` having dropped it
        #expect(!tier.contains(F.url(1), at: 500))
        #expect(tier.expirations == 0 && tier.count == 2)
        #expect(tier.value(forKey: F.url(1), at: 500) == nil)
        #expect(tier.expirations == 1 && tier.count == 1)
        #expect(tier.contains(F.url(2), at: 500) && tier.value(forKey: F.url(2), at: 500) == F.image(2))
        tier.checkInvariants()
    }

    @Test func anExpiredImageIsNotPinned() {
        let tier = makeTier(ttl: 100)
        fill(tier, 1...1)
        #expect(!tier.pin(F.url(1), at: 500))
        #expect(tier.pin(F.url(1), at: 50))
        tier.checkInvariants()
    }

    @Test func removeDropsAPinnedOrUnpinnedImageWithoutCountingAnEviction() {
        let tier = makeTier()
        fill(tier, 1...2)
        tier.pin(F.url(1), at: 0)
        tier.remove(F.url(1))
        tier.remove(F.url(2))
        #expect(tier.count == 0 && tier.totalBytes == 0 && tier.evictions == 0)
        tier.checkInvariants()
    }

    @Test(arguments: PolicyKind.online)
    func everyPolicyMakesATierThatKeepsItsCapacity(policy: PolicyKind) throws {
        let tier = try policy.makeMemoryTier(configuration: policy.configuration(capacity: 300))
        // Images small enough for the policy to store (2Q and S3-FIFO take only a share), seven
        // more than fit.
        let size = policy.admissionShare.map { min(100, Int(300 * $0) - 1) } ?? 100
        // Each image past the capacity evicts, or (GDSF, adaptive W-TinyLFU) may be declined.
        var declined = 0
        for number in 1...(300 / size + 7) {
            if try !tier.insert(F.image(UInt64(number), count: size), forKey: F.url(number), at: Int64(number)) {
                declined += 1
            }
            #expect(tier.totalBytes <= 300)
            try tier.checkInvariants()
        }
        // CLOCK-Pro (libCacheSim's defaults) never evicts: it stores only into half the tier.
        #expect(tier.count >= 1 && (tier.evictions + declined >= 7 || policy == .clockpro))
        #expect(declined == 0 || policy.mayDeclineNewEntries)
    }

    @Test func aPipelineWithATierThatNeedsTheFutureIsRefused() {
        let client = ClientConfiguration(
            name: "opt", memory: TierConfiguration(policy: .belady, capacity: 1_000), disk: nil)
        #expect(throws: PolicyError.needsFuture(.belady, place: "a client's memory tier")) {
            _ = try ImagePipeline(client: client, diskPath: nil, downloader: URLSessionImageDownloader(), at: 0)
        }
    }

    @Test func aPolicyThatNeedsTheFutureIsRefused() {
        // A client never knows when an image will be asked for again: Belady cannot order its tier.
        #expect(throws: PolicyError.needsFuture(.belady, place: "a client's memory tier")) {
            _ = try PolicyKind.belady.makeMemoryTier(configuration: PolicyKind.belady.configuration(capacity: 300))
        }
    }
}
