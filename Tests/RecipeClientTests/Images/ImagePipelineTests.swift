import CacheLab
import ClientModel
import FixtureServer
import Foundation
import Testing

@testable import RecipeClient

/// The image pipeline against an in-process fixture server over loopback: where each image comes
/// from, checked against the server's own counts and the store file.
@Suite("ImagePipeline", .timeLimit(.minutes(1)))
struct ImagePipelineTests {
    typealias F = ImageFixtures
    typealias Holdings = ImagePipeline.Holdings

    @Test func uncachedImageIsDownloadedOnceThenServedFromMemoryThenFromDiskAfterARelaunch() async throws {
        try await F.withStorePath { path in
            try await F.withServer { server in
                // Given an empty client and a photo it has never seen
                let photo = F.smallPhotos(of: server)[0]
                let url = F.url(of: photo, on: server)
                let pipeline = try F.makePipeline(path: path)

                // When it is asked for
                let first = try await pipeline.image(for: url, at: 1)

                // Then it is downloaded once, whole, and stored in both tiers
                #expect(first.source == .network)
                #expect(first.bytes == F.bytes(of: photo))
                #expect(ImageFormat.whole(first.bytes) == .jpeg)
                let served = await server.stats()
                #expect(served[.smallPhoto].requests == 1 && served[.smallPhoto].bytes == photo.size)
                let stats = await pipeline.stats
                let holdings = await pipeline.holdings
                #expect(stats == F.stats(downloads: 1, bytes: photo.size))
                #expect(
                    holdings
                        == Holdings(
                            memoryCount: 1, memoryBytes: photo.size, diskCount: 1, diskBytes: photo.size,
                            peakMemoryCost: photo.size, peakDiskBytes: photo.size))
                let rows = try F.storedEntries(path: path)
                #expect(rows.map(\.url) == [url] && rows.map(\.size) == [photo.size])

                // When it is asked for again, it comes from memory
                let second = try await pipeline.image(for: url, at: 2)
                #expect(second.source == .memory && second.bytes == first.bytes)
                try await pipeline.checkInvariants()

                // When the app relaunches (a new pipeline on the same file) and asks again
                let relaunched = try F.makePipeline(path: path, at: 3)
                let reopened = await relaunched.holdings
                // A new launch's memory peak starts at nothing; its disk's at what it opened with.
                #expect(reopened == Holdings(diskCount: 1, diskBytes: photo.size, peakDiskBytes: photo.size))
                let third = try await relaunched.image(for: url, at: 4)

                // Then it comes from disk, with no new request to the server, and is copied to memory
                #expect(third.source == .disk && third.bytes == first.bytes)
                #expect(await server.stats() == served)
                let relaunchedStats = await relaunched.stats
                #expect(relaunchedStats == F.stats())
                #expect(await relaunched.holdings.memoryCount == 1)
                try await relaunched.checkInvariants()
            }
        }
    }

    @Test func twentyConcurrentRequestsForOneImageMakeOneDownloadAndNineteenDelayedHits() async throws {
        try await F.withStorePath { path in
            try await F.withServer(F.makeConfiguration(latency: .milliseconds(300))) { server in
                // Given 20 requests for one uncached photo, made in order while its download,
                // 300 ms long, is under way
                let photo = F.smallPhotos(of: server)[1]
                let pipeline = try F.makePipeline(path: path)
                var requests: [ImagePipeline.Request] = []
                for time in 0..<20 {
                    requests.append(await pipeline.request(F.url(of: photo, on: server), at: Int64(time)))
                }

                // When they are loaded all at once
                let loaded = try await withThrowingTaskGroup(of: (Int, ImagePipeline.LoadedImage).self) { group in
                    for (index, request) in requests.enumerated() {
                        group.addTask { (index, try await pipeline.image(for: request)) }
                    }
                    var loaded: [Int: ImagePipeline.LoadedImage] = [:]
                    for try await (index, image) in group { loaded[index] = image }
                    return (0..<requests.count).map { loaded[$0]! }
                }

                // Then the server saw one request, the first got the download, the rest waited for
                // it (delayed hits, served from memory), and every one has the same, whole bytes
                let served = await server.stats()
                #expect(served[.smallPhoto].requests == 1 && served.paths[photo.path] == 1)
                #expect(loaded.map(\.source) == [.network] + Array(repeating: .delayed, count: 19))
                #expect(loaded.allSatisfy { $0.bytes == F.bytes(of: photo) })
                let stats = await pipeline.stats
                #expect(stats == F.stats(downloads: 1, bytes: photo.size, coalesced: 19))
                // And a request made after the download ended is a plain memory hit
                let later = try await pipeline.image(for: F.url(of: photo, on: server), at: 20)
                #expect(later.source == .memory)
                try await pipeline.checkInvariants()
            }
        }
    }

    @Test func cancellingLoadsThrowsPromptlyStoresNothingAndHoldsUpNoOtherRequest() async throws {
        try await F.withStorePath { path in
            try await F.withServer(F.makeConfiguration(latency: .seconds(4))) { server in
                // Given a slow server, and three requests whose downloads have reached it
                let photos = F.smallPhotos(of: server)
                let (first, second, kept) = (photos[2], photos[3], photos[4])
                let pipeline = try F.makePipeline(path: path)
                var requests: [ImagePipeline.Request] = []
                for (time, photo) in [first, second, kept].enumerated() {
                    requests.append(await pipeline.request(F.url(of: photo, on: server), at: Int64(time)))
                }
                let loads = requests.map { request in Task { try await pipeline.image(for: request) } }
                try await F.waitUntil("the three downloads reach the server") {
                    await server.stats()[.smallPhoto].requests == 3
                }
                let clock = ContinuousClock()
                let start = clock.now

                // When the task loading the second is cancelled, then the task loading the first
                // (each awaiting its own download)
                loads[1].cancel()
                await #expect(throws: CancellationError.self) { try await loads[1].value }
                loads[0].cancel()
                await #expect(throws: CancellationError.self) { try await loads[0].value }

                // Then both threw before the server would have answered (1.2 s was measured under
                // AddressSanitizer; the bound leaves room for a 2-core machine running the suite)
                #expect(start.duration(to: clock.now) < .milliseconds(3_500))

                // and the request after them is still served, from the network
                let image = try await loads[2].value
                #expect(image.source == .network && image.bytes == F.bytes(of: kept))

                // and nothing of the cancelled images is in any tier
                #expect(try await pipeline.cachedImage(for: requests[0].url, at: 3) == nil)
                #expect(try await pipeline.cachedImage(for: requests[1].url, at: 3) == nil)
                #expect(try F.storedEntries(path: path).map(\.url) == [requests[2].url])
                let holdings = await pipeline.holdings
                #expect(
                    holdings
                        == Holdings(
                            memoryCount: 1, memoryBytes: kept.size, diskCount: 1, diskBytes: kept.size,
                            peakMemoryCost: kept.size, peakDiskBytes: kept.size))
                var stats = await pipeline.stats
                // and both cancelled downloads are counted
                try await F.waitUntil("both cancelled downloads have ended") {
                    await pipeline.stats.cancelledDownloads == 2
                }
                stats = await pipeline.stats
                #expect(stats.cancelledDownloads == 2)
                stats.cancelledDownloads = 0
                #expect(stats == F.stats(downloads: 1, bytes: kept.size))
                try await pipeline.checkInvariants()
            }
        }
    }

    @Test func pinnedImageSurvivesEvictionInBothTiersAndIsEvictableAfterUnpin() async throws {
        try await F.withStorePath { path in
            try await F.withServer { server in
                // Given tiers that hold two or three small photos, and a favourite pinned in them
                let photos = F.smallPhotos(of: server)
                let favourite = F.url(of: photos[0], on: server)
                let fillers = photos[1...6].map { F.url(of: $0, on: server) }
                let moreFillers = photos[7...12].map { F.url(of: $0, on: server) }
                let pipeline = try F.makePipeline(client: F.makeClient(memory: 30_000, disk: 30_000), path: path)
                _ = try await pipeline.image(for: favourite, at: 0)
                #expect(try await pipeline.pin(favourite, at: 0))

                // When six more photos pass through
                var time: Int64 = 1
                for url in fillers {
                    _ = try await pipeline.image(for: url, at: time)
                    time += 1
                    try await pipeline.checkInvariants()
                }

                // Then the early ones were evicted from both tiers, and the favourite was not
                #expect(await pipeline.holdings.evictions > 0)
                #expect(try await pipeline.cachedImage(for: fillers[0], at: time) == nil)
                var rows = try F.storedEntries(path: path)
                #expect(!rows.contains { $0.url == fillers[0] })
                #expect(rows.first { $0.url == favourite }?.pinned == true)
                #expect(try await pipeline.cachedImage(for: favourite, at: time) == F.bytes(of: photos[0]))

                // When it is unpinned and six other photos pass through
                try await pipeline.unpin(favourite, at: time)
                for url in moreFillers {
                    _ = try await pipeline.image(for: url, at: time)
                    time += 1
                    try await pipeline.checkInvariants()
                }

                // Then it is gone from both tiers, and the next request downloads it again
                #expect(try await pipeline.cachedImage(for: favourite, at: time) == nil)
                rows = try F.storedEntries(path: path)
                #expect(!rows.contains { $0.url == favourite } && rows.allSatisfy { !$0.pinned })
                let again = try await pipeline.image(for: favourite, at: time)
                #expect(again.source == .network && again.bytes == F.bytes(of: photos[0]))
                #expect(await server.stats().paths[photos[0].path] == 2)
                try await pipeline.checkInvariants()
            }
        }
    }

    @Test func aRelaunchGivenTheFavouritesUnpinsWhatIsNoLongerOne() async throws {
        try await F.withStorePath { path in
            try await F.withServer { server in
                // Given two photos pinned on disk
                let urls = F.smallPhotos(of: server)[0...1].map { F.url(of: $0, on: server) }
                let client = F.makeClient(memory: 30_000, disk: 1_000_000)
                let pipeline = try F.makePipeline(client: client, path: path)
                for url in urls {
                    _ = try await pipeline.image(for: url, at: 0)
                    #expect(try await pipeline.pin(url, at: 0))
                }

                // When the app relaunches with only the first still a favourite
                let relaunched = try ImagePipeline(
                    client: client, diskPath: path, downloader: URLSessionImageDownloader(), at: 1,
                    favourites: [urls[0]])

                // Then the second's row is unpinned and counts against the capacity again
                let rows = try F.storedEntries(path: path)
                #expect(rows.first { $0.url == urls[0] }?.pinned == true)
                #expect(rows.first { $0.url == urls[1] }?.pinned == false)
                #expect(await relaunched.holdings.diskPinnedBytes == F.bytes(of: F.smallPhotos(of: server)[0]).count)
                try await relaunched.checkInvariants()
            }
        }
    }

    @Test func pinSurvivesARelaunchOnDisk() async throws {
        try await F.withStorePath { path in
            try await F.withServer { server in
                // Given a favourite pinned in a small disk tier
                let photos = F.smallPhotos(of: server)
                let favourite = F.url(of: photos[0], on: server)
                let client = F.makeClient(memory: 30_000, disk: 30_000)
                let pipeline = try F.makePipeline(client: client, path: path)
                _ = try await pipeline.image(for: favourite, at: 0)
                #expect(try await pipeline.pin(favourite, at: 0))

                // When the app relaunches and six photos pass through
                let relaunched = try F.makePipeline(client: client, path: path, at: 1)
                for (offset, photo) in photos[1...6].enumerated() {
                    _ = try await relaunched.image(for: F.url(of: photo, on: server), at: 2 + Int64(offset))
                }

                // Then the favourite is still on disk, and served from there
                #expect(await relaunched.holdings.evictions > 0)
                let image = try await relaunched.image(for: favourite, at: 10)
                #expect(image.source == .disk && image.bytes == F.bytes(of: photos[0]))
                #expect(await server.stats().paths[photos[0].path] == 1)
                try await relaunched.checkInvariants()
            }
        }
    }

    @Test func trimmingMemoryAndSweepingDiskFollowTheAppEvents() async throws {
        try await F.withStorePath { path in
            try await F.withServer { server in
                // Given four photos loaded, least recently used first
                let photos = Array(F.smallPhotos(of: server)[0..<4])
                let urls = photos.map { F.url(of: $0, on: server) }
                let pipeline = try F.makePipeline(path: path)
                for (index, url) in urls.enumerated() { _ = try await pipeline.image(for: url, at: Int64(index)) }
                #expect(await pipeline.holdings.memoryCount == 4)

                // When memory is trimmed to nothing (a memory warning)
                try await pipeline.perform(.trimMemory(toCost: 0), at: 10)

                // Then memory is empty, the disk untouched, and the next request is a disk hit
                var holdings = await pipeline.holdings
                #expect(holdings.memoryCount == 0 && holdings.memoryBytes == 0 && holdings.diskCount == 4)
                try await pipeline.checkInvariants()
                let fromDisk = try await pipeline.image(for: urls[3], at: 11)
                #expect(fromDisk.source == .disk && fromDisk.bytes == F.bytes(of: photos[3]))

                // When the disk is swept down to the size of the two most recent photos
                let limit = photos[2].size + photos[3].size
                try await pipeline.perform(.sweepDisk(limit: limit, trimRatio: 1), at: 12)

                // Then the two least recently used are gone from disk, the rest served from it
                holdings = await pipeline.holdings
                #expect(holdings.diskCount == 2 && holdings.diskBytes == limit)
                #expect(try F.storedEntries(path: path).map(\.url) == [urls[2], urls[3]])
                try await pipeline.checkInvariants()
                #expect(try await pipeline.image(for: urls[2], at: 13).source == .disk)
                #expect(try await pipeline.image(for: urls[0], at: 14).source == .network)
                #expect(await server.stats().paths[photos[0].path] == 2)
                try await pipeline.checkInvariants()
            }
        }
    }

    @Test func diskSweepDropsExpiredImagesUnderTheLimit() async throws {
        try await F.withStorePath { path in
            try await F.withServer { server in
                // Given a disk tier whose entries live one second, holding one photo
                let photo = F.smallPhotos(of: server)[0]
                let url = F.url(of: photo, on: server)
                let client = ClientConfiguration(
                    name: "ttl", memory: nil, disk: TierConfiguration(policy: .ttl, capacity: 1_000_000, ttl: 1_000))
                let pipeline = try F.makePipeline(client: client, path: path)
                _ = try await pipeline.image(for: url, at: 0)
                #expect(await pipeline.holdings.diskCount == 1)

                // When the disk is swept two seconds later, far under its limit
                try await pipeline.perform(.sweepDisk(limit: 1_000_000, trimRatio: 1), at: 2_000)

                // Then the expired photo is gone, row and all, and is downloaded again
                let holdings = await pipeline.holdings
                #expect(holdings == Holdings(expirations: 1, peakDiskBytes: F.bytes(of: photo).count))
                #expect(try F.storedEntries(path: path).isEmpty)
                #expect(try await pipeline.image(for: url, at: 2_001).source == .network)
                try await pipeline.checkInvariants()
            }
        }
    }
}
