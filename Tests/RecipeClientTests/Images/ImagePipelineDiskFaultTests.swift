import CacheLab
import FixtureServer
import Foundation
import Testing

@testable import RecipeClient

/// The pipeline when its disk fails: a file that is not a store, a newer build's store, a
/// read-only store, a full disk. Each gives a clear error or runs on with memory alone, and what
/// was stored before is never lost.
@Suite("ImagePipeline on a failing disk", .timeLimit(.minutes(1)))
struct ImagePipelineDiskFaultTests {
    typealias F = ImageFixtures

    /// Stores the first `count` small photos through a pipeline, as an earlier launch did.
    static func storeEarlierLaunch(path: String, server: FixtureServer, count: Int) async throws -> [String] {
        let pipeline = try F.makePipeline(path: path)
        let urls = F.smallPhotos(of: server).prefix(count).map { F.url(of: $0, on: server) }
        for (time, url) in urls.enumerated() { _ = try await pipeline.image(for: url, at: Int64(time)) }
        return urls
    }

    @Test func aFileThatIsNotAStoreIsAClearErrorOrMemoryOnlyAndIsLeftAsItWas() async throws {
        try await F.withStorePath { path in
            try await F.withServer { server in
                // Given a file at the store's path that some other program wrote
                let foreign = Array("not a database, but somebody's notes\n".utf8) + Array(repeating: 7, count: 4_000)
                #expect(FileManager.default.createFile(atPath: path, contents: Data(foreign)))

                // When a pipeline opens on it, then by default it refuses with an error naming the file
                #expect {
                    _ = try F.makePipeline(path: path)
                } throws: { error in
                    guard case .notADatabase? = error as? StoreError else { return false }
                    return "\(error)".contains(path)
                }
                // and asked to, it runs memory-only, says why, and still loads images
                let pipeline = try ImagePipeline(
                    client: F.makeClient(), diskPath: path, downloader: URLSessionImageDownloader(), at: 0,
                    ifDiskFails: .runMemoryOnly)
                guard case .notADatabase? = pipeline.diskProblem else {
                    Issue.record("diskProblem is \(String(describing: pipeline.diskProblem))")
                    return
                }
                let url = F.url(of: F.smallPhotos(of: server)[0], on: server)
                #expect(try await pipeline.image(for: url, at: 1).source == .network)
                #expect(try await pipeline.image(for: url, at: 2).source == .memory)
                #expect(await pipeline.holdings.diskCount == 0)
                // Then the file is byte for byte what it was
                #expect(FileManager.default.contents(atPath: path) == Data(foreign))
            }
        }
    }

    @Test func aNewerBuildsStoreIsRefusedOrLeftAloneAndKeepsItsImages() async throws {
        try await F.withStorePath { path in
            try await F.withServer { server in
                // Given a store with three images that a newer build has since marked as its own
                let urls = try await Self.storeEarlierLaunch(path: path, server: server, count: 3)
                let newer = DiskStore.schemaVersion + 1
                try Self.markSchema(newer, path: path)

                // When a pipeline of this build opens it, then it is refused, or run without
                #expect(throws: StoreError.newerSchema(path: path, found: newer, supported: DiskStore.schemaVersion)) {
                    _ = try F.makePipeline(path: path)
                }
                let pipeline = try ImagePipeline(
                    client: F.makeClient(), diskPath: path, downloader: URLSessionImageDownloader(), at: 10,
                    ifDiskFails: .runMemoryOnly)
                #expect(
                    pipeline.diskProblem == .newerSchema(path: path, found: newer, supported: DiskStore.schemaVersion))
                #expect(try await pipeline.image(for: urls[0], at: 11).source == .network)

                // Then the newer build finds its three images as it left them
                try Self.markSchema(DiskStore.schemaVersion, path: path)
                let store = try DiskStore(path: path)
                #expect(try store.entries().map(\.url).sorted() == urls.sorted())
                #expect(try store.verifyAll().removedURLs.isEmpty)
            }
        }
    }

    /// Marks a store as a build of schema `version` does: in the header and in the settings table.
    static func markSchema(_ version: Int, path: String) throws {
        let database = try SQLiteDatabase(path: path)
        try database.prepare("UPDATE settings SET value = ?1 WHERE name = 'schema_version'")
            .execute(.integer(Int64(version)))
        try database.setUserVersion(version)
    }

    /// Ways a store can stop taking writes while it still reads.
    enum Restriction: String, CaseIterable, CustomTestStringConvertible {
        case full = "a full disk (SQLite's page limit stands in)"
        case readOnly = "a read-only store (query_only)"

        var testDescription: String { rawValue }

        func apply(to store: DiskStore) throws {
            switch self {
            case .full:
                let pages = try #require(try store.database.prepare("PRAGMA page_count").query { $0.int64(at: 0) })
                try store.database.execute("PRAGMA max_page_count = \(pages)")
            case .readOnly:
                try store.database.execute("PRAGMA query_only = ON")
            }
        }
    }

    @Test(arguments: Restriction.allCases)
    func aStoreThatTakesNoWritesServesWhatItHoldsAndTheDownloadAndKeepsItsRows(
        _ restriction: Restriction
    )
        async throws
    {
        try await F.withStorePath { path in
            try await F.withServer { server in
                // Given three stored images, and the store taking no more writes
                let urls = try await Self.storeEarlierLaunch(path: path, server: server, count: 3)
                let store = try DiskStore(path: path)
                try restriction.apply(to: store)
                let pipeline = try ImagePipeline(
                    client: F.makeClient(), store: store, downloader: URLSessionImageDownloader(), at: 10)

                // When a new image is downloaded, then it is served, and the failed write is counted
                let photo = F.smallPhotos(of: server)[5]
                let loaded = try await pipeline.image(for: F.url(of: photo, on: server), at: 11)
                #expect(loaded.source == .network && loaded.bytes == F.bytes(of: photo))
                #expect(await pipeline.stats.diskWriteFailures == 1)
                // and the stored images are still served from disk (their use just not recorded)
                for (offset, url) in urls.enumerated() {
                    #expect(try await pipeline.image(for: url, at: Int64(20 + offset)).source == .disk)
                }
                try await pipeline.checkInvariants()

                // Then the store holds the three, whole, and nothing of the new one
                let reopened = try DiskStore(path: path)
                #expect(try reopened.entries().map(\.url).sorted() == urls.sorted())
                #expect(try reopened.verifyAll().removedURLs.isEmpty)
            }
        }
    }
}
