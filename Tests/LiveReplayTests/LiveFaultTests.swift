import CacheLab
import ClientModel
import FixtureServer
import Foundation
import LiveReplay
import LiveServer
import RecipeClient
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The acceptance check for injected faults: with 10 % of the responses broken in every way the
/// fixture server knows, no tier holds a partial or corrupt image, and every failure reaches its
/// request as an error. (The limit guards against a hang; AddressSanitizer on two busy cores took
/// over a minute.)
@Suite("Live replay with faults", .timeLimit(.minutes(3)))
struct LiveFaultTests {
    static let seed: UInt64 = 7

    static let client = ClientConfiguration(
        name: "lru-lru", memory: TierConfiguration(policy: .lru, capacity: 400_000),
        disk: TierConfiguration(policy: .lru, capacity: 1_500_000))

    /// `daily-reader`, the smallest trace of the corpus with relaunches.
    static let tracePath = LiveReplayTests.corpus.first { $0.hasSuffix("/daily-reader.csv") }

    /// A server configuration with `rate` of the responses faulty, spread evenly over every kind,
    /// and drips 1 ms apart so that they finish well within a download's timeout.
    static func configuration(faults rate: Double) -> FixtureConfiguration {
        var configuration = FixtureConfiguration()
        configuration.seed = seed
        configuration.faults = .spread(rate)
        configuration.dripInterval = .milliseconds(1)
        return configuration
    }

    /// The bytes a fault-free server with the same seed serves for `catalog` at each of `paths`.
    static func cleanBytes(
        of paths: some Sequence<String>, catalog: FixtureCatalog? = nil
    ) async throws -> [String: [UInt8]] {
        let server = try await FixtureServer.start(configuration: configuration(faults: 0), catalog: catalog)
        let session = URLSession(configuration: .ephemeral)
        var bytes: [String: [UInt8]] = [:]
        do {
            for path in Set(paths) {
                let (data, response) = try await session.data(from: try #require(URL(string: server.baseURL + path)))
                #expect((response as? HTTPURLResponse)?.statusCode == 200, "\(path)")
                bytes[path] = [UInt8](data)
            }
        } catch {
            try? await server.stop()
            throw error
        }
        #expect(await server.stats().faults.isEmpty)
        try await server.stop()
        return bytes
    }

    /// Runs `body` with a fresh temporary directory, removed after.
    static func withTemporaryDirectory<T>(_ body: (String) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("cachelab-faults-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await body(directory.path)
    }

    @Test(
        "with 10% faults a live replay surfaces every failure and keeps only whole, exact images on disk",
        .tags(.corpus))
    func faultsAreSurfacedAndNeverStored() async throws {
        let trace = try TraceReader.read(path: try #require(Self.tracePath))
        let objects = try TraceObjects(trace: trace)
        try await Self.withTemporaryDirectory { directory in
            // Given a server that breaks 10 % of the responses, every kind of fault as often
            let faulty = try await FixtureServer.start(
                configuration: Self.configuration(faults: 0.1), catalog: objects.catalog)
            var options = LiveOptions()
            options.diskPath = directory + "/images.sqlite"
            options.timeout = 5

            // When the trace is replayed live through the pipeline
            let result = try await LiveServer.run(trace, client: Self.client, options: options, server: faulty.baseURL)
            let injected = await faulty.stats().faults
            try await faulty.stop()

            // Then every failed request is one failed download, surfaced as an error
            let failed = (result.run.outcomes ?? []).count { $0 == .failed }
            #expect(result.failures > 0)
            #expect(failed == result.failures && result.run.live?.failures == result.failures)
            #expect(result.pipeline.failedDownloads == result.failures)
            #expect(result.firstErrors.count == min(5, result.failures))
            #expect(result.pipeline.cancelledDownloads == 0 && result.pipeline.diskWriteFailures == 0)
            #expect(result.notWhole == 0)

            // and every fault that breaks a response failed its request, but for resets that
            // URLSession retried: libcurl resends a GET whose reused connection is reset before any
            // response, so such a reset costs one more server request and no failure. Slow drips
            // failed nothing.
            let retried = result.live.serverRequests - (result.pipeline.downloads + result.pipeline.failedDownloads)
            let breaking = injected.filter { $0.key != FaultKind.drip.rawValue }.values.reduce(0, +)
            #expect(injected[FaultKind.drip.rawValue, default: 0] > 0)
            #expect((0...injected[FaultKind.reset.rawValue, default: 0]).contains(retried), "\(injected)")
            #expect(result.failures == breaking - retried, "faults injected: \(injected)")

            // Then the store file holds only intact rows, each a whole image with the exact bytes a
            // fault-free server sends for its path
            let store = try DiskStore(path: try #require(options.diskPath))
            let verification = try store.verifyAll()
            let entries = try store.entries()
            #expect(!entries.isEmpty)
            #expect(verification.removedURLs.isEmpty && verification.checked == entries.count)
            let paths = try entries.map { try #require(URL(string: $0.url)).path }
            let clean = try await Self.cleanBytes(of: paths, catalog: objects.catalog)
            let now = trace.times.last ?? 0
            for (entry, path) in zip(entries, paths) {
                let bytes = try #require(try store.get(url: entry.url, at: now), "\(path)")
                #expect(bytes.count == entry.size, "\(path)")
                #expect(bytes == clean[path], "\(path) differs from the server's photo")
                #expect(ImageFormat.whole(bytes) == .jpeg, "\(path)")
            }
        }
    }

    @Test(
        "with 10% faults the outcomes add up: hits + delayed hits + misses = requests, downloads = network outcomes",
        .tags(.corpus))
    func outcomesAddUpUnderFaults() async throws {
        let trace = try TraceReader.read(path: try #require(Self.tracePath))
        var options = LiveOptions()
        options.timeout = 5

        let result = try await LiveServer.run(
            trace, client: Self.client, options: options, configuration: Self.configuration(faults: 0.1))

        let run = result.run
        let outcomes = try #require(run.outcomes, "a live run keeps every request's outcome")
        func count(_ outcome: RequestOutcome) -> Int { outcomes.count { $0 == outcome } }
        #expect(outcomes.count == trace.count && run.requests == trace.count)
        #expect(count(.failed) > 0)
        #expect(run.hits + run.delayedHits + run.misses == run.requests)
        #expect(run.delayedHits == count(.delayed))
        #expect(run.memoryHits == count(.memory) && run.diskHits == count(.disk))
        #expect(run.hits == run.memoryHits + run.diskHits)
        #expect(run.misses == count(.network) + count(.failed))
        // Each network outcome is one whole download of its request's size; failures download nothing.
        let networkBytes = outcomes.indices.filter { outcomes[$0] == .network }.reduce(0) {
            $0 + trace.sizes[$1]
        }
        #expect(result.pipeline.downloads == count(.network))
        #expect(run.bytesDownloaded == networkBytes && result.pipeline.bytesDownloaded == networkBytes)
        #expect(
            run.bytesHit == outcomes.indices.filter { outcomes[$0].isHit }.reduce(0) { $0 + trace.sizes[$1] })
    }

    @Test(
        "with 10% faults the pipeline's memory and disk tiers hold only exact images, every failure an ImageLoadingError"
    )
    func tiersHoldOnlyExactImagesUnderFaults() async throws {
        try await Self.withTemporaryDirectory { directory in
            // Given a pipeline against a server breaking 10 % of the responses
            let faulty = try await FixtureServer.start(configuration: Self.configuration(faults: 0.1))
            let paths = faulty.catalog.allPhotos.filter { !$0.isLarge }.map(\.path).sorted()
            let urls = paths.map { faulty.baseURL + $0 }
            let client = ClientConfiguration(
                name: "lru-lru", memory: TierConfiguration(policy: .lru, capacity: 2_000_000),
                disk: TierConfiguration(policy: .lru, capacity: 2_000_000), memoryCost: .encoded)
            let path = directory + "/images.sqlite"
            let pipeline = try ImagePipeline(
                client: client, diskPath: path, downloader: URLSessionImageDownloader(timeout: 5), at: 0)

            // When every small photo is asked for twice, a list's worth at a time
            var rounds: [[String: Result<ImagePipeline.LoadedImage, any Error>]] = []
            var time: Int64 = 0
            for _ in 0..<2 {
                var requests: [ImagePipeline.Request] = []
                for url in urls {
                    requests.append(await pipeline.request(url, at: time))
                    time += 1
                }
                rounds.append(
                    await withTaskGroup(of: (String, Result<ImagePipeline.LoadedImage, any Error>).self) { group in
                        for request in requests {
                            group.addTask {
                                do {
                                    return (request.url, .success(try await pipeline.image(for: request)))
                                } catch {
                                    return (request.url, .failure(error))
                                }
                            }
                        }
                        var results: [String: Result<ImagePipeline.LoadedImage, any Error>] = [:]
                        for await (url, result) in group { results[url] = result }
                        return results
                    })
            }
            let injected = await faulty.stats().faults
            try await faulty.stop()

            // Then every failure is an ImageLoadingError, one per failed download
            let results = rounds.flatMap(\.values)
            let errors = results.compactMap { result -> (any Error)? in
                if case .failure(let error) = result { error } else { nil }
            }
            let stats = await pipeline.stats
            #expect(!errors.isEmpty, "faults injected: \(injected)")
            #expect(errors.allSatisfy { $0 is ImageLoadingError }, "\(errors)")
            #expect(stats.failedDownloads == errors.count && stats.cancelledDownloads == 0)
            // and a photo loaded in the first round is a memory hit in the second
            for url in urls where (try? rounds[0][url]?.get()) != nil {
                #expect((try? rounds[1][url]?.get())?.source == .memory, "\(url)")
            }

            // and every image served, in memory and on disk is the fault-free server's photo
            let clean = try await Self.cleanBytes(of: paths)
            for (url, path) in zip(urls, paths) {
                for round in rounds {
                    if case .success(let image) = round[url] { #expect(image.bytes == clean[path], "\(path)") }
                }
                if let bytes = try await pipeline.cachedImage(for: url, at: time) {
                    #expect(bytes == clean[path], "\(path) in memory")
                }
            }
            try await pipeline.checkInvariants()
            let store = try DiskStore(path: path)
            #expect(try store.verifyAll().removedURLs.isEmpty)
            let stored = try store.entries()
            #expect(!stored.isEmpty)
            for entry in stored {
                let bytes = try store.get(url: entry.url, at: time)
                #expect(bytes == clean[try #require(URL(string: entry.url)).path], "\(entry.url) on disk")
            }
            #expect(await pipeline.holdings.diskCount == stored.count)
        }
    }
}
