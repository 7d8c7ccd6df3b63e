import Foundation
import HTTPTypes
import NIOCore
import Testing

@testable import FixtureServer

/// The router's answers, over a loopback connection to a server on an ephemeral port.
@Suite struct RouteTests {
    /// Runs `body` with a client of a server started with `configuration` and the photo fast path
    /// off, so the router answers every request, photos included (`PhotoFastPathTests` checks
    /// that the fast path answers as the router does).
    func withClient<T: Sendable>(
        _ configuration: FixtureConfiguration = Fixtures.makeConfiguration(), clock: RecordingClock = RecordingClock(),
        _ body: (TestClient) async throws -> T
    ) async throws -> T {
        var configuration = configuration
        configuration.answersPhotosOnEventLoop = false
        return try await TestClient.withServer(configuration, clock: clock, body)
    }

    func recipes(in body: ByteBuffer) throws -> [[String: Any]] {
        let root = try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any]
        return try #require(root?["recipes"] as? [[String: Any]])
    }

    @Test func recipesListsTheCatalogWithPhotoURLsOnTheServer() async throws {
        try await withClient { client in
            #expect(client.baseURL.hasPrefix("http://127.0.0.1:") && !client.baseURL.hasSuffix(":0"))
            try await client.execute(uri: "/recipes.json", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json")
                #expect(response.headers[.cacheControl] == "public, max-age=3600")
                #expect(response.headers[.eTag]?.hasPrefix("\"") == true)
                let list = try recipes(in: response.body)
                #expect(list.count == 63)
                for recipe in list {
                    #expect((recipe["photo_url_small"] as? String)?.hasPrefix(client.baseURL + "/photos/") == true)
                    #expect((recipe["photo_url_large"] as? String)?.hasSuffix("/large.jpg") == true)
                }
            }
        }
    }

    @Test func relativePhotoPathsListPhotosAsPathsThatAreServed() async throws {
        // Given a server whose lists give photo URLs as paths
        var configuration = Fixtures.makeConfiguration()
        configuration.relativePhotoPaths = true
        try await withClient(configuration) { client in
            // When both the good and the malformed list are fetched
            for uri in ["/recipes.json", "/recipes-malformed.json"] {
                let paths = try await client.execute(uri: uri, method: .get) { response in
                    let list = try recipes(in: response.body)
                    return list.compactMap { $0["photo_url_small"] as? String }
                        + list.compactMap { $0["photo_url_large"] as? String }
                }

                // Then every photo URL is a root-relative path of the catalog's photo
                let catalog = FixtureCatalog.generated()
                #expect(paths.count == 126)
                #expect(Set(paths) == Set(catalog.recipes.flatMap { [$0.smallPhoto.path, $0.largePhoto.path] }))
            }
            // And the photo at such a path is served
            let path = FixtureCatalog.generated().recipes[0].smallPhoto.path
            try await client.execute(uri: path, method: .get) { response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test func malformedDropsThreeNamesAndEmptyIsEmpty() async throws {
        try await withClient { client in
            try await client.execute(uri: "/recipes-malformed.json", method: .get) { response in
                let list = try recipes(in: response.body)
                #expect(list.count == 63)
                #expect(list.filter { $0["name"] == nil }.count == 3)
            }
            try await client.execute(uri: "/recipes-empty.json", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == "{\n    \"recipes\": []\n}\n")
            }
        }
    }

    @Test func photosHaveTheirCatalogSizeAndJPEGMarkers() async throws {
        let catalog = FixtureCatalog.generated()
        try await withClient { client in
            for photo in [catalog.recipes[0].smallPhoto, catalog.recipes[0].largePhoto, catalog.recipes[62].largePhoto]
            {
                try await client.execute(uri: photo.path, method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType] == "image/jpeg")
                    #expect(response.headers[.contentLength] == "\(photo.size)")
                    #expect(response.body.readableBytes == photo.size)
                    #expect(response.body.getBytes(at: 0, length: 2) == [0xFF, 0xD8])
                }
            }
        }
    }

    @Test func matchingIfNoneMatchGetsNotModifiedWithoutBody() async throws {
        let photo = FixtureCatalog.generated().recipes[3].smallPhoto
        try await withClient { client in
            for path in ["/recipes.json", photo.path] {
                let etag = try await client.execute(uri: path, method: .get) { try #require($0.headers[.eTag]) }
                try await client.execute(uri: path, method: .get, headers: [.ifNoneMatch: etag]) { response in
                    #expect(response.status == .notModified)
                    #expect(response.body.readableBytes == 0)
                    #expect(response.headers[.eTag] == etag)
                }
                try await client.execute(uri: path, method: .get, headers: [.ifNoneMatch: "\"other\", W/\(etag)"]) {
                    #expect($0.status == .notModified)
                }
                try await client.execute(uri: path, method: .get, headers: [.ifNoneMatch: "\"other\""]) {
                    #expect($0.status == .ok)
                }
            }
        }
    }

    @Test func maxAgeIsConfigurable() async throws {
        try await withClient(Fixtures.makeConfiguration(maxAge: 60)) { client in
            try await client.execute(uri: "/recipes.json", method: .get) {
                #expect($0.headers[.cacheControl] == "public, max-age=60")
            }
        }
    }

    @Test(arguments: [
        "/photos/../recipes.json", "/photos/%2e%2e/recipes.json", "/photos/%2E%2E/%2E%2E/etc/passwd",
        "/photos/x/..%2f..%2frecipes.json", "/photos/..\\recipes.json", "/../recipes.json", "/./recipes.json",
        "/photos/", "/photos/unknown/small.jpg", "/recipes", "/etc/passwd", "/stats/../recipes.json",
    ])
    func anythingOutsideTheCatalogIsNotFound(path: String) async throws {
        try await withClient { client in
            try await client.execute(uri: path, method: .get) { #expect($0.status == .notFound) }
        }
    }

    @Test func traversalFromARealPhotoFolderIsNotFound() async throws {
        let folder = FixtureCatalog.generated().recipes[0].smallPhoto.folder
        try await withClient { client in
            for path in [
                "/photos/\(folder)/../../recipes.json", "/photos/\(folder)/%2e%2e", "/photos/\(folder)/medium.jpg",
            ] {
                try await client.execute(uri: path, method: .get) { #expect($0.status == .notFound) }
            }
        }
    }

    @Test func statsCountRequestsBytesAndNotModifiedAndReset() async throws {
        let photo = FixtureCatalog.generated().recipes[0].largePhoto
        try await withClient { client in
            // Given a list, a photo twice (the second revalidated) and a miss
            let listBytes = try await client.execute(uri: "/recipes.json", method: .get) { $0.body.readableBytes }
            let etag = try await client.execute(uri: photo.path, method: .get) { $0.headers[.eTag]! }
            try await client.execute(uri: photo.path, method: .get, headers: [.ifNoneMatch: etag]) { _ in }
            try await client.execute(uri: "/nope", method: .get) { _ in }

            // When the stats are read
            let stats = try await client.execute(uri: "/stats", method: .get) { response in
                try JSONDecoder().decode(FixtureStats.self, from: Data(buffer: response.body))
            }

            // Then they count each of them, and the bytes sent
            #expect(stats.requests == 4)
            #expect(stats.bytes == listBytes + photo.size)
            #expect(stats[.recipes].requests == 1 && stats[.recipes].bytes == listBytes)
            #expect(stats[.largePhoto].requests == 2 && stats[.largePhoto].notModified == 1)
            #expect(stats[.largePhoto].bytes == photo.size)
            #expect(stats[.notFound].requests == 1)
            #expect(stats.paths[photo.path] == 2)

            // and a reset zeroes them
            try await client.execute(uri: "/stats/reset", method: .post) { #expect($0.status == .ok) }
            try await client.execute(uri: "/stats", method: .get) { response in
                let stats = try JSONDecoder().decode(FixtureStats.self, from: Data(buffer: response.body))
                #expect(stats == FixtureStats())
            }
        }
    }

    @Test func latencyAndJitterSleepOnTheInjectedClock() async throws {
        var configuration = Fixtures.makeConfiguration()
        configuration.latency = .milliseconds(40)
        configuration.jitter = .milliseconds(10)
        let clock = RecordingClock()
        try await withClient(configuration, clock: clock) { client in
            for _ in 0..<5 {
                try await client.execute(uri: "/recipes.json", method: .get) { #expect($0.status == .ok) }
            }
        }
        #expect(clock.sleeps.count == 5)
        #expect(clock.sleeps.allSatisfy { $0 >= .milliseconds(40) && $0 <= .milliseconds(50) })
        #expect(Set(clock.sleeps).count > 1)
    }

    @Test func bandwidthPacesPhotoBodiesOnTheInjectedClock() async throws {
        var configuration = Fixtures.makeConfiguration()
        configuration.bandwidth = 100_000
        let clock = RecordingClock()
        let photo = FixtureCatalog.generated().recipes[0].largePhoto
        try await withClient(configuration, clock: clock) { client in
            try await client.execute(uri: photo.path, method: .get) { #expect($0.body.readableBytes == photo.size) }
        }
        // 10 KB chunks at 100 KB/s: each sent after its transfer time, so the whole body takes
        // size / bandwidth, as the simulator's network model says
        let total = clock.sleeps.reduce(Duration.zero, +)
        #expect(clock.sleeps.count == (photo.size + 9_999) / 10_000)
        #expect(clock.sleeps.dropLast().allSatisfy { $0 == .milliseconds(100) })
        let expected = Double(photo.size) / 100_000
        #expect(abs((total - .seconds(expected)) / .seconds(1)) < 1e-9)
    }
}

@Suite("Traversal check")
struct TraversalCheckTests {
    @Test(arguments: [
        ("/photos/../recipes.json", true), ("/photos/%2e%2e/x", true), ("/photos/%2E%2E/x", true),
        ("/photos/a%2fb/small.jpg", true), ("/photos/a%2Fb/small.jpg", true), ("/photos/a%5cb", true),
        ("/photos/a%5Cb", true), ("/photos/a\\b", true), ("/photos/ab..cd/small.jpg", true),
        ("/photos/1ac06ee6-b3f9-e7cb/small.jpg", false), ("/photos/2e2f5c/large.jpg", false),
        ("/photos/a.b/small.jpg", false), ("/recipes.json", false), ("/photos/%20/small.jpg", false),
        ("/photos/a%2/small.jpg", false), ("", false),
    ])
    func flagsEveryTraversalAndNothingElse(path: String, traverses: Bool) {
        #expect(CatalogOnlyMiddleware.mayTraverse(path) == traverses)
    }
}
