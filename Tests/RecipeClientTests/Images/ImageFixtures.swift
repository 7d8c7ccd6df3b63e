import CacheLab
import ClientModel
import Foundation
import Testing

@testable import FixtureServer
@testable import RecipeClient

/// Servers, clients, store files and expected bytes for the image pipeline tests.
enum ImageFixtures {
    /// A client with an LRU memory tier and an LRU disk tier of these capacities (bytes).
    static func makeClient(memory: Int = 1_000_000, disk: Int = 1_000_000) -> ClientConfiguration {
        // Memory costs the images' encoded bytes, so each test's capacities count what it serves.
        ClientConfiguration(
            name: "test", memory: TierConfiguration(policy: .lru, capacity: memory),
            disk: TierConfiguration(policy: .lru, capacity: disk), memoryCost: .encoded)
    }

    /// A pipeline for `client` over the store file at `path`, downloading with URLSession.
    static func makePipeline(
        client: ClientConfiguration = makeClient(), path: String, at now: Int64 = 0
    ) throws -> ImagePipeline {
        try ImagePipeline(client: client, diskPath: path, downloader: URLSessionImageDownloader(), at: now)
    }

    /// A server configuration over the generated 63-recipe catalog.
    static func makeConfiguration(
        latency: Duration = .zero, faults: FaultRates = .none, seed: UInt64 = 1
    ) -> FixtureConfiguration {
        var configuration = FixtureConfiguration()
        configuration.latency = latency
        configuration.faults = faults
        configuration.seed = seed
        configuration.dripInterval = .milliseconds(1)
        return configuration
    }

    /// Runs `body` with a server started from `configuration`, and stops the server after.
    static func withServer<T>(
        _ configuration: FixtureConfiguration = makeConfiguration(), _ body: (FixtureServer) async throws -> T
    ) async throws -> T {
        let server = try await FixtureServer.start(configuration: configuration)
        do {
            let result = try await body(server)
            try await server.stop()
            return result
        } catch {
            try? await server.stop()
            throw error
        }
    }

    /// Runs `body` with the path of a store file (not yet created) in a fresh temporary
    /// directory, removed after.
    static func withStorePath<T>(_ body: (String) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("cachelab-images-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await body(directory.path + "/images.sqlite")
    }

    /// The server's small photos, in path order.
    static func smallPhotos(of server: FixtureServer) -> [FixtureCatalog.Photo] {
        server.catalog.allPhotos.filter { !$0.isLarge }.sorted { $0.path < $1.path }
    }

    static func url(of photo: FixtureCatalog.Photo, on server: FixtureServer) -> String {
        server.baseURL + photo.path
    }

    /// The exact bytes a fault-free server with `seed` sends for `photo`.
    static func bytes(of photo: FixtureCatalog.Photo, seed: UInt64 = 1) -> [UInt8] {
        PhotoBody.bytes(of: photo, seed: seed)
    }

    /// The stored rows of the store file at `path`, read through a connection of its own, least
    /// recently used first.
    static func storedEntries(path: String) throws -> [DiskStore.Entry] {
        try DiskStore(path: path).entries()
    }

    /// Pipeline stats with these counts and every other one zero.
    static func stats(
        downloads: Int = 0, bytes: Int = 0, failed: Int = 0, coalesced: Int = 0, cancelled: Int = 0
    ) -> ImagePipeline.Stats {
        var stats = ImagePipeline.Stats()
        stats.downloads = downloads
        stats.bytesDownloaded = bytes
        stats.failedDownloads = failed
        stats.coalesced = coalesced
        stats.cancelledDownloads = cancelled
        return stats
    }

    /// Waits, polling, until `condition` holds; records an issue if it does not within 5 seconds.
    /// Only for what a live server does on its own time (a request arriving).
    static func waitUntil(
        _ what: Comment, sourceLocation: SourceLocation = #_sourceLocation, _ condition: () async -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + .seconds(5)
        while await !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("timed out waiting until \(what)", sourceLocation: sourceLocation)
                return
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
