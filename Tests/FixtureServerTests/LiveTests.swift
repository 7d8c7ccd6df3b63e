import Foundation
import Testing

@testable import FixtureServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Over real loopback sockets.
@Suite struct LiveTests {
    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return URLSession(configuration: configuration)
    }()

    func get(_ url: String, ifNoneMatch: String? = nil) async throws -> (Data, HTTPURLResponse) {
        var request = URLRequest(url: try #require(URL(string: url)))
        if let ifNoneMatch { request.setValue(ifNoneMatch, forHTTPHeaderField: "If-None-Match") }
        let (data, response) = try await Self.session.data(for: request)
        return (data, try #require(response as? HTTPURLResponse))
    }

    func photoURLs(_ data: Data) throws -> [String] {
        let root = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let recipes = try #require(root?["recipes"] as? [[String: Any]])
        return recipes.compactMap { $0["photo_url_small"] as? String }
            + recipes.compactMap { $0["photo_url_large"] as? String }
    }

    @Test func urlSessionFetchesListAndPhotosAndServerCountsTheSameBytes() async throws {
        // Given a server on an ephemeral port
        let server = try await FixtureServer.start()
        #expect(server.baseURL == "http://127.0.0.1:\(server.port)" && server.port > 0)

        // When a client fetches the list and every photo it names
        let (list, response) = try await get(server.baseURL + "/recipes.json")
        #expect(response.statusCode == 200)
        let urls = try photoURLs(list)
        #expect(urls.count == 126 && urls.allSatisfy { $0.hasPrefix(server.baseURL + "/photos/") })
        var received = list.count
        for url in urls {
            let (data, photo) = try await get(url)
            #expect(photo.statusCode == 200)
            #expect(Array(data.suffix(2)) == [0xFF, 0xD9])
            received += data.count
        }
        // and revalidates one
        let (_, first) = try await get(urls[0])
        let etag = try #require(first.value(forHTTPHeaderField: "ETag"))
        let (empty, revalidated) = try await get(urls[0], ifNoneMatch: etag)
        #expect(revalidated.statusCode == 304 && empty.isEmpty)

        // Then the server counted what the client received
        let stats = await server.stats()
        #expect(stats.requests == 1 + 126 + 2)
        #expect(stats.bytes == received + first.expectedContentLength.toInt)
        try await server.stop()
    }

    @Test(.enabled(if: Fixtures.realRecipesPath != nil, "needs ../shared/fixtures/recipes.json"))
    func realCatalogIsServedWithPhotoURLsOnTheServer() async throws {
        var configuration = FixtureConfiguration()
        configuration.catalog = .file(path: try #require(Fixtures.realRecipesPath))
        let server = try await FixtureServer.start(configuration: configuration)
        let (list, _) = try await get(server.baseURL + "/recipes.json")
        let urls = try photoURLs(list)
        #expect(urls.count == 126)
        #expect(urls.allSatisfy { $0.hasPrefix(server.baseURL + "/photos/") })
        #expect(!list.contains(Data("cloudfront".utf8)))
        let (photo, response) = try await get(urls[0])
        #expect(response.statusCode == 200 && (8_000...14_000).contains(photo.count))
        let (malformed, _) = try await get(server.baseURL + "/recipes-malformed.json")
        let recipes = (try JSONSerialization.jsonObject(with: malformed) as? [String: [[String: Any]]])?["recipes"]
        #expect(recipes?.filter { $0["name"] == nil }.count == 3)
        try await server.stop()
    }

    @Test func photoBytesAreIdenticalAcrossTwoServersWithTheSameSeed() async throws {
        let first = try await FixtureServer.start(configuration: Fixtures.makeConfiguration(seed: 7))
        let second = try await FixtureServer.start(configuration: Fixtures.makeConfiguration(seed: 7))
        let other = try await FixtureServer.start(configuration: Fixtures.makeConfiguration(recipes: 63, seed: 8))
        for recipe in first.catalog.recipes.prefix(5) {
            for photo in [recipe.smallPhoto, recipe.largePhoto] {
                let (a, _) = try await get(first.baseURL + photo.path)
                let (b, _) = try await get(second.baseURL + photo.path)
                #expect(a.count == photo.size && a == b)
            }
        }
        let (_, missing) = try await get(other.baseURL + first.catalog.recipes[0].smallPhoto.path)
        #expect(missing.statusCode == 404)
        for server in [first, second, other] { try await server.stop() }
    }

    @Test func theServerAsShippedAnswersTheSameRoutes() async throws {
        // The defaults RouteTests turns off: photos on the event loop, sleeps on the wall clock
        try await TestClient.withServer(Fixtures.makeConfiguration(), clock: ContinuousClock()) { client in
            try await client.execute(uri: "/recipes-empty.json", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/photos/../recipes.json", method: .get) { #expect($0.status == .notFound) }
        }
    }

    @Test func startingOnATakenPortFails() async throws {
        let server = try await FixtureServer.start()
        var configuration = FixtureConfiguration()
        configuration.port = server.port
        await #expect(throws: (any Error).self) { _ = try await FixtureServer.start(configuration: configuration) }
        try await server.stop()
    }
}

extension Int64 {
    var toInt: Int { Int(self) }
}
