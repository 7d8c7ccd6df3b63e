import CacheEngine
import CacheLab
import ClientModel
import Testing

@testable import RecipeClient

/// A memory hit is answered at once, ahead of earlier downloads, while its lookup keeps its turn:
/// the outcomes stay the simulator's.
@Suite("Memory hits answered at once", .timeLimit(.minutes(1)))
struct MemoryHitsAtOnceTests {
    typealias F = ImageFixtures

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
                let miss = await pipeline.request(slow, at: 1)
                let hit = await pipeline.request(cached, at: 2)
                let asked = clock.now
                let missing = Task { (try await pipeline.image(for: miss), clock.now) }
                let shown = try await pipeline.image(for: hit)
                let hitAnswered = clock.now
                let (downloaded, missAnswered) = try await missing.value

                // Then the cached photo is answered from memory well before the download ends
                #expect(shown.source == .memory && shown.bytes == F.bytes(of: photos[0]))
                #expect(asked.duration(to: hitAnswered) < .milliseconds(500))
                #expect(hitAnswered < missAnswered)
                #expect(downloaded.source == .network && downloaded.bytes == F.bytes(of: photos[1]))
                #expect(asked.duration(to: missAnswered) >= .milliseconds(900))
                try await pipeline.checkInvariants()
            }
        }
    }

    @Test func theEarlyHitsLookupStillRunsInItsTurnSoTheOutcomesAreTheSimulators() async throws {
        // Given a memory tier that fits two photos, holding b then c, and a download of a held back
        let images = (0..<3).map { StoreFixtures.image(UInt64($0), count: 1_000) }
        let (a, b, c) = ("https://photos.example/a.jpg", "https://photos.example/b.jpg", "https://photos.example/c.jpg")
        let downloader = HeldDownloader([a: .success(images[0]), b: .success(images[1]), c: .success(images[2])])
        let client = ClientConfiguration(
            name: "memory", memory: TierConfiguration(policy: .lru, capacity: images[1].count + images[2].count),
            disk: nil, memoryCost: .encoded)
        let pipeline = try ImagePipeline(client: client, diskPath: nil, downloader: downloader, at: 0)
        _ = try await pipeline.image(for: b, at: 1)
        _ = try await pipeline.image(for: c, at: 2)
        downloader.hold(a)

        // When a is asked for, then b
        let miss = await pipeline.request(a, at: 3)
        let hit = await pipeline.request(b, at: 4)
        let missing = Task { try await pipeline.image(for: miss) }
        let shown = try await pipeline.image(for: hit)

        // Then b is shown at once, from memory, while a still downloads
        #expect(shown.source == .memory && shown.bytes == images[1])
        #expect(await pipeline.stats.downloads == 2)

        // And once a arrives, its insertion evicts b (least recently used: b's lookup had not run),
        // so b's turn downloads it again, exactly as the simulator counts the same requests
        downloader.release(a)
        #expect(try await missing.value.source == .network)
        try await F.waitUntil("b's turn has run") { await pipeline.stats.downloads == 4 }
        var trace = Trace(name: "early", keyNames: [b, c, a, b])
        for (position, image) in [images[1], images[2], images[0], images[1]].enumerated() {
            trace.append(time: Int64(position + 1), key: UInt64(position), size: image.count)
        }
        let simulated = Replay.simulate(trace, client: client)
        #expect(simulated.misses == 4)
        #expect(await pipeline.stats.bytesDownloaded == simulated.bytesDownloaded)
        #expect(await pipeline.holdings.memoryCount == 2)
        try await pipeline.checkInvariants()
    }

    @Test func aDiskHitWaitsForItsTurn() async throws {
        try await F.withStorePath { path in
            // Given a photo on disk only (a relaunch emptied memory), and a download held back
            let images = (0..<2).map { StoreFixtures.image(UInt64($0), count: 1_000) }
            let (onDisk, slow) = ("https://photos.example/disk.jpg", "https://photos.example/slow.jpg")
            let downloader = HeldDownloader([onDisk: .success(images[0]), slow: .success(images[1])])
            do {
                let first = try ImagePipeline(client: F.makeClient(), diskPath: path, downloader: downloader, at: 0)
                _ = try await first.image(for: onDisk, at: 1)
            }
            let pipeline = try ImagePipeline(client: F.makeClient(), diskPath: path, downloader: downloader, at: 2)
            downloader.hold(slow)

            // When the slow photo is asked for, then the one on disk
            let miss = await pipeline.request(slow, at: 3)
            let hit = await pipeline.request(onDisk, at: 4)

            // Then the disk hit has no early answer: it is read in its turn, after the download
            #expect(await pipeline.earlyImage(for: hit) == nil)
            let missing = Task { try await pipeline.image(for: miss) }
            let fromDisk = Task { try await pipeline.image(for: hit) }
            try await F.waitUntil("the download has started") { downloader.requests.contains(slow) }
            downloader.release(slow)
            #expect(try await missing.value.source == .network)
            #expect(try await fromDisk.value.source == .disk)
            try await pipeline.checkInvariants()
        }
    }

    @Test func aCancelledRequestIsNotAnsweredEarly() async throws {
        // Given a photo in memory behind a download held back
        let images = (0..<2).map { StoreFixtures.image(UInt64($0), count: 1_000) }
        let (cached, slow) = ("https://photos.example/cached.jpg", "https://photos.example/slow.jpg")
        let downloader = HeldDownloader([cached: .success(images[0]), slow: .success(images[1])])
        let client = ClientConfiguration(
            name: "memory", memory: TierConfiguration(policy: .lru, capacity: 10_000), disk: nil, memoryCost: .encoded)
        let pipeline = try ImagePipeline(client: client, diskPath: nil, downloader: downloader, at: 0)
        _ = try await pipeline.image(for: cached, at: 1)
        downloader.hold(slow)
        let miss = await pipeline.request(slow, at: 2)
        let hit = await pipeline.request(cached, at: 3)

        // When the cached photo's task is cancelled before it loads
        let cancelled = Task {
            while !Task.isCancelled { await Task.yield() }
            return try await pipeline.image(for: hit)
        }
        cancelled.cancel()

        // Then it throws rather than answer, and the line goes on
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        let missing = Task { try await pipeline.image(for: miss) }
        downloader.release(slow)
        #expect(try await missing.value.source == .network)
        #expect(try await pipeline.image(for: cached, at: 4).source == .memory)
        try await pipeline.checkInvariants()
    }
}
