import CacheEngine
import ClientModel
import Testing

@testable import RecipeClient

/// The prefetcher: bounded, below the rows on screen, coalesced with them, cancelled on a turn.
@Suite("ImagePrefetcher", .timeLimit(.minutes(1)))
struct ImagePrefetcherTests {
    typealias F = ImageFixtures

    static let urls = (0..<5).map { "https://photos.example/\($0).jpg" }
    static let images = (0..<5).map { StoreFixtures.image(UInt64($0), count: 1_000) }

    static func make(held: [Int]) throws -> (ImagePipeline, HeldDownloader) {
        var table: [String: Result<[UInt8], ImageLoadingError>] = [:]
        for (url, image) in zip(urls, images) { table[url] = .success(image) }
        let downloader = HeldDownloader(table)
        for index in held { downloader.hold(urls[index]) }
        let client = ClientConfiguration(
            name: "memory", memory: TierConfiguration(policy: .lru, capacity: 100_000), disk: nil, memoryCost: .encoded)
        return (try ImagePipeline(client: client, diskPath: nil, downloader: downloader, at: 0), downloader)
    }

    @Test func atMostMaxConcurrentRunAtOnceTheRestInOrder() async throws {
        // Given five photos to prefetch, their downloads held back
        let (pipeline, downloader) = try Self.make(held: [0, 1, 2, 3, 4])
        let prefetcher = ImagePrefetcher(pipeline: pipeline, maxConcurrent: 2)

        // When all five are asked for
        await prefetcher.startPrefetching(Self.urls, at: 1)

        // Then two downloads start (in either order), and the third only once the first ends
        try await F.waitUntil("two downloads started") { downloader.requests.count == 2 }
        try await Task.sleep(for: .milliseconds(50))
        #expect(Set(downloader.requests) == Set(Self.urls[0..<2]))
        downloader.release(Self.urls[0])
        try await F.waitUntil("the third started") { downloader.requests.count == 3 }
        #expect(downloader.requests.last == Self.urls[2])
        for url in Self.urls { downloader.release(url) }
        try await F.waitUntil("all five prefetched") { await prefetcher.completed == 5 }
        #expect(await pipeline.holdings.memoryCount == 5)
        #expect(await prefetcher.pending == 0)
    }

    @Test func aRowAskingForAPhotoBeingPrefetchedJoinsItsDownload() async throws {
        // Given a photo being prefetched, its download held back
        let (pipeline, downloader) = try Self.make(held: [0])
        let prefetcher = ImagePrefetcher(pipeline: pipeline)
        await prefetcher.startPrefetching([Self.urls[0]], at: 1)
        try await F.waitUntil("the prefetch's download started") { downloader.requests.count == 1 }

        // When its row asks for it
        let row = Task { try await pipeline.image(for: Self.urls[0], at: 2) }
        try await F.waitUntil("the row joined the download") { await pipeline.stats.coalesced == 1 }
        downloader.release(Self.urls[0])

        // Then the row waited for that download: one download, a delayed hit
        let image = try await row.value
        #expect(image.source == .delayed && image.bytes == Self.images[0])
        #expect(downloader.requests == [Self.urls[0]])
    }

    @Test func aRowIsNeverHeldBehindPrefetches() async throws {
        // Given two prefetches under way, held back, filling the prefetcher
        let (pipeline, downloader) = try Self.make(held: [0, 1])
        let prefetcher = ImagePrefetcher(pipeline: pipeline, maxConcurrent: 2)
        await prefetcher.startPrefetching(Array(Self.urls[0..<2]), at: 1)
        try await F.waitUntil("both prefetches started") { downloader.requests.count == 2 }

        // When a row asks for another photo
        let image = try await pipeline.image(for: Self.urls[2], at: 2)

        // Then it is downloaded and served while the prefetches still wait
        #expect(image.source == .network && image.bytes == Self.images[2])
        #expect(await prefetcher.pending == 2)
        await prefetcher.stopAll()
    }

    @Test func stoppingDropsTheWaitingAndCancelsTheRunningWhichStoreNothing() async throws {
        // Given one prefetch under way (held back) and one waiting behind it
        let (pipeline, downloader) = try Self.make(held: [0])
        let prefetcher = ImagePrefetcher(pipeline: pipeline, maxConcurrent: 1)
        await prefetcher.startPrefetching(Array(Self.urls[0..<2]), at: 1)
        try await F.waitUntil("the first prefetch waits for its download") { await pipeline.waiterCount == 1 }

        // When the scroll turns and both are stopped (and the download ends after)
        await prefetcher.stopPrefetching(Array(Self.urls[0..<2]))
        try await F.waitUntil("the prefetch left its download") { await pipeline.waiterCount == 0 }
        downloader.release(Self.urls[0])

        // Then the running one's download ends cancelled, the waiting one never starts, and
        // nothing is stored
        try await F.waitUntil("the download ended cancelled") { await pipeline.stats.cancelledDownloads == 1 }
        #expect(downloader.requests == [Self.urls[0]])
        #expect(await prefetcher.pending == 0)
        #expect(await prefetcher.completed == 0)
        #expect(await pipeline.holdings.memoryCount == 0)
        try await pipeline.checkInvariants()
    }

    @Test func aRowThatAskedKeepsTheDownloadOfAStoppedPrefetch() async throws {
        // Given a photo being prefetched, its download held back
        let (pipeline, downloader) = try Self.make(held: [0])
        let prefetcher = ImagePrefetcher(pipeline: pipeline)
        await prefetcher.startPrefetching([Self.urls[0]], at: 1)

        // When its row has asked for it (not yet awaiting it) and the prefetch is stopped
        let request = await pipeline.request(Self.urls[0], at: 2)
        await prefetcher.stopPrefetching([Self.urls[0]])
        downloader.release(Self.urls[0])

        // Then the download went on for the row: one download, a delayed hit, nothing cancelled
        let image = try await pipeline.image(for: request)
        #expect(image.source == .delayed && image.bytes == Self.images[0])
        #expect(downloader.requests == [Self.urls[0]])
        #expect(await pipeline.stats.cancelledDownloads == 0)
    }

    @Test func aPhotoAskedForAfterItsPrefetchStoppedIsDownloadedAfresh() async throws {
        // Given a prefetch stopped while its download was under way
        let (pipeline, downloader) = try Self.make(held: [0])
        let prefetcher = ImagePrefetcher(pipeline: pipeline)
        await prefetcher.startPrefetching([Self.urls[0]], at: 1)
        await prefetcher.stopPrefetching([Self.urls[0]])
        downloader.release(Self.urls[0])

        // When its row asks for it
        let request = await pipeline.request(Self.urls[0], at: 2)

        // Then the row starts a download of its own rather than joining the cancelled one
        #expect(request.startedDownload)
        let image = try await pipeline.image(for: request)
        #expect(image.source == .network && image.bytes == Self.images[0])
        try await F.waitUntil("the prefetch's download ended cancelled") {
            await pipeline.stats.cancelledDownloads == 1
        }
    }

    @Test func reportsSayWhatBecameOfEachPrefetch() async throws {
        // Given a prefetcher of one slot, one photo in memory, and a download held back
        let (pipeline, downloader) = try Self.make(held: [1])
        _ = try await pipeline.image(for: Self.urls[0], at: 0)
        let prefetcher = ImagePrefetcher(pipeline: pipeline, maxConcurrent: 1, priority: .low, keepsReports: true)

        // When the held photo, the one in memory, the held one again and a third are asked for,
        // and the third is stopped while it waits
        await prefetcher.startPrefetching(Self.urls[1], at: 1, pixels: 0, token: 10)
        await prefetcher.startPrefetching(Self.urls[0], at: 1, pixels: 0, token: 11)
        await prefetcher.startPrefetching(Self.urls[1], at: 1, pixels: 0, token: 12)
        await prefetcher.startPrefetching(Self.urls[2], at: 1, pixels: 0, token: 13)
        await prefetcher.stopPrefetching([Self.urls[2]])
        downloader.release(Self.urls[1])
        await prefetcher.finishing(Self.urls[1])

        // Then each is reported: the first made and ended by its download, the second waited
        // behind it and was a memory hit when the slot freed, the repeat and the stopped one
        // were never made
        #expect(
            await prefetcher.takeReports() == [
                .made(token: 10, outcome: .network), .dropped(token: 12), .dropped(token: 13),
                .ended(token: 10, outcome: .network), .made(token: 11, outcome: .memory),
            ])
        #expect(await prefetcher.pending == 0)
    }
}
