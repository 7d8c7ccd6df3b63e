import CacheEngine
import CacheLab
import ClientModel
import Testing

@testable import RecipeClient

/// No request waits for another: a hit is answered when it is made, a miss waits for its own
/// download alone, and a download's image is stored when it ends — as the simulator models it.
@Suite("Independent requests", .timeLimit(.minutes(1)))
struct IndependentRequestsTests {
    typealias F = ImageFixtures

    static let images = (0..<3).map { StoreFixtures.image(UInt64($0), count: 1_000) }
    static let (a, b, c) = (
        "https://photos.example/a.jpg", "https://photos.example/b.jpg", "https://photos.example/c.jpg"
    )

    /// A pipeline with a memory tier alone, LRU, costing images by their bytes.
    static func memoryOnly(capacity: Int, _ downloader: HeldDownloader) throws -> ImagePipeline {
        let client = ClientConfiguration(
            name: "memory", memory: TierConfiguration(policy: .lru, capacity: capacity), disk: nil, memoryCost: .encoded
        )
        return try ImagePipeline(client: client, diskPath: nil, downloader: downloader, at: 0)
    }

    static func downloader() -> HeldDownloader {
        HeldDownloader([a: .success(images[0]), b: .success(images[1]), c: .success(images[2])])
    }

    @Test func aMemoryHitAfterASlowMissIsAnsweredBeforeTheMissCompletes() async throws {
        try await F.withStorePath { path in
            try await F.withServer(F.makeConfiguration(latency: .seconds(1))) { server in
                // Given a photo in memory, and a server that takes a second to answer
                let photos = F.smallPhotos(of: server)
                let (cached, slow) = (F.url(of: photos[0], on: server), F.url(of: photos[1], on: server))
                let pipeline = try F.makePipeline(path: path)
                _ = try await pipeline.image(for: cached, at: 0)

                // When a photo no tier holds is asked for, then the cached one
                let clock = ContinuousClock()
                let asked = clock.now
                let missing = Task { (try await pipeline.image(for: slow, at: 1), clock.now) }
                try await F.waitUntil("the download has started") { await server.stats()[.smallPhoto].requests == 2 }
                let shown = try await pipeline.image(for: cached, at: 2)
                let hitAnswered = clock.now
                let (downloaded, missAnswered) = try await missing.value

                // Then the cached photo is answered from memory well before the download ends
                #expect(shown.source == .memory && shown.bytes == F.bytes(of: photos[0]))
                #expect(hitAnswered < missAnswered)
                #expect(downloaded.source == .network && downloaded.bytes == F.bytes(of: photos[1]))
                #expect(asked.duration(to: missAnswered) >= .milliseconds(900))
                try await pipeline.checkInvariants()
            }
        }
    }

    @Test func aDiskHitAfterASlowMissIsAnsweredAtOnce() async throws {
        try await F.withStorePath { path in
            // Given a photo on disk only (a relaunch emptied memory), and a download held back
            let downloader = Self.downloader()
            do {
                let first = try ImagePipeline(client: F.makeClient(), diskPath: path, downloader: downloader, at: 0)
                _ = try await first.image(for: Self.a, at: 1)
            }
            let pipeline = try ImagePipeline(client: F.makeClient(), diskPath: path, downloader: downloader, at: 2)
            downloader.hold(Self.b)

            // When the held photo is asked for, then the one on disk
            let missing = Task { try await pipeline.image(for: Self.b, at: 3) }
            try await F.waitUntil("the download has started") { downloader.requests.contains(Self.b) }
            let fromDisk = try await pipeline.image(for: Self.a, at: 4)

            // Then the disk hit is answered while the download is still held
            #expect(fromDisk.source == .disk && fromDisk.bytes == Self.images[0])
            #expect(await pipeline.stats.downloads == 0)
            downloader.release(Self.b)
            #expect(try await missing.value.source == .network)
            try await pipeline.checkInvariants()
        }
    }

    @Test func aRequestNeverLoadedHoldsUpNothingAndItsDownloadIsStillStored() async throws {
        // Given a request made and never loaded (a row gone before it asked for its image), its
        // download held back
        let downloader = Self.downloader()
        let pipeline = try Self.memoryOnly(capacity: 10_000, downloader)
        downloader.hold(Self.a)
        let forgotten = await pipeline.request(Self.a, at: 1)
        #expect(forgotten.startedDownload)

        // When another photo is asked for
        let other = try await pipeline.image(for: Self.b, at: 2)

        // Then it is served at once, and the forgotten download, once it ends, is stored
        #expect(other.source == .network && other.bytes == Self.images[1])
        downloader.release(Self.a)
        try await F.waitUntil("the forgotten download is stored") { await pipeline.holdings.memoryCount == 2 }
        #expect(try await pipeline.image(for: Self.a, at: 3).source == .memory)
        try await pipeline.checkInvariants()
    }

    @Test func aDownloadsImageIsStoredWhenItEndsAsTheSimulatorModelsIt() async throws {
        // Given a memory tier that fits two photos, holding b then c, and a download of a held back
        let images = Self.images
        let downloader = Self.downloader()
        let pipeline = try Self.memoryOnly(capacity: images[1].count + images[2].count, downloader)
        let client = pipeline.client
        _ = try await pipeline.image(for: Self.b, at: 1)
        _ = try await pipeline.image(for: Self.c, at: 2)
        downloader.hold(Self.a)

        // When a is asked for, then b while a downloads, then a arrives, then c
        let missing = Task { try await pipeline.image(for: Self.a, at: 3) }
        try await F.waitUntil("the download has started") { downloader.requests.contains(Self.a) }
        #expect(try await pipeline.image(for: Self.b, at: 3).source == .memory)
        downloader.release(Self.a)
        #expect(try await missing.value.source == .network)
        let last = try await pipeline.image(for: Self.c, at: 4)

        // Then a's insertion, at its end, evicted c (b's hit had come first), so c is downloaded
        // again: as the simulator counts the same requests with a's download ending after b
        #expect(last.source == .network)
        var trace = Trace(name: "ends", keyNames: [Self.b, Self.c, Self.a])
        for (position, key) in [0, 1, 2, 0, 1].enumerated() {
            // a's download, over loopback, ends 0.2 ms after its request: after b's, in the same
            // millisecond, and before c's
            let time = Int64([1, 2, 3, 3, 4][position])
            trace.append(time: time, key: UInt64(key), size: images[[1, 2, 0][key]].count)
        }
        var simulated = client
        simulated.network = .loopback
        let outcomes = Replay.simulate(trace, client: simulated, outcomes: true).outcomes
        #expect(outcomes == [.network, .network, .network, .memory, .network])
        #expect(await pipeline.stats.downloads == 4)
        try await pipeline.checkInvariants()
    }

    @Test func aCancelledRequestThrowsAtOnceAndItsDownloadStoresNothing() async throws {
        // Given a download held back, its only request waiting for it
        let downloader = Self.downloader()
        let pipeline = try Self.memoryOnly(capacity: 10_000, downloader)
        downloader.hold(Self.a)
        let waiting = Task { try await pipeline.image(for: Self.a, at: 1) }
        try await F.waitUntil("the download has started") { downloader.requests.contains(Self.a) }

        // When its task is cancelled
        waiting.cancel()

        // Then it throws while the download is still held, and the download, cancelled, stores
        // nothing
        await #expect(throws: CancellationError.self) { try await waiting.value }
        downloader.release(Self.a)
        try await F.waitUntil("the download has ended cancelled") { await pipeline.stats.cancelledDownloads == 1 }
        #expect(await pipeline.holdings.memoryCount == 0)
        #expect(try await pipeline.image(for: Self.b, at: 2).source == .network)
        try await pipeline.checkInvariants()
    }
}
