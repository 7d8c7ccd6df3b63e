import CacheLab
import FixtureServer
import Foundation
import Testing

@testable import RecipeClient

/// The list model with the real URLSession service and image pipeline against the in-process
/// fixture server over loopback: latency, the three endpoints, injected faults.
@Suite("Recipe list end to end", .timeLimit(.minutes(2)))
struct RecipeListEndToEndTests {
    typealias F = ImageFixtures

    /// A model for `listing` of `server`, its store at `path`, retrying quickly.
    static func makeModel(
        _ server: FixtureServer, listing: APIEnvironment.Listing = .recipes, path: String,
        images: ImagePipeline? = nil, attempts: Int = 3
    ) throws -> RecipeListModel {
        let environment = APIEnvironment.local(base: URL(string: server.baseURL)!).listing(listing)
        return RecipeListModel(
            service: URLSessionRecipeService(environment: environment, timeout: .seconds(5)),
            store: try DiskStore(path: path), images: images,
            retryPolicy: RetryPolicy(maxAttempts: attempts, baseDelay: .milliseconds(10), maxDelay: .milliseconds(40)))
    }

    @Test func withOneSecondOfLatencyItShowsLoadingThenTheList() async throws {
        try await F.withStorePath { path in
            try await F.withServer(F.makeConfiguration(latency: .seconds(1))) { server in
                // Given a first launch with nothing saved, against a server one second away
                let model = try Self.makeModel(server, path: path)
                let clock = ContinuousClock()
                let start = clock.now
                let load = Task { await model.load() }

                // Then it shows the spinner while the request is out, and the list after
                try await Task.sleep(for: .milliseconds(300))
                #expect(await model.state == .loading(favourites: []))
                let state = await load.value
                #expect(start.duration(to: clock.now) >= .seconds(1))
                #expect(state.recipes.count == server.catalog.recipes.count)
                if case .loaded = state {} else { Issue.record("expected loaded, got \(state)") }

                // And on the next launch the saved list is on screen while the slow fetch runs
                let relaunched = try Self.makeModel(server, path: path)
                let again = Task { await relaunched.load() }
                try await Task.sleep(for: .milliseconds(300))
                let shown = await relaunched.state
                #expect(shown.isFetching && shown.recipes == state.recipes)
                if case .refreshing(let saved, _) = shown {
                    #expect(saved.savedAt > 0)
                } else {
                    Issue.record("expected the saved list while refreshing, got \(shown)")
                }
                #expect(await again.value == state)
            }
        }
    }

    @Test(arguments: [APIEnvironment.Listing.recipes, .empty, .malformed])
    func eachEndpointGivesItsState(listing: APIEnvironment.Listing) async throws {
        try await F.withStorePath { path in
            try await F.withServer { server in
                let state = try await Self.makeModel(server, listing: listing, path: path).load()
                switch listing {
                case .recipes:
                    #expect(state.recipes.count == server.catalog.recipes.count && state.message == nil)
                case .empty:
                    #expect(state == .empty(favourites: []) && state.message == "No Recipes Found")
                case .malformed:
                    #expect(
                        state
                            == .failed("We received recipes we couldn't read. Please try again later.", favourites: []))
                }
                // A malformed list is not retried; the others are answered at once.
                #expect(await server.stats().paths["/" + listing.rawValue] == 1)
            }
        }
    }

    @Test func injectedServerErrorsAndResetsAreRetriedUntilTheListComes() async throws {
        try await F.withStorePath { path in
            // Given a server that fails half its answers with a 503 or a reset (seed 3 fails the first)
            let configuration = F.makeConfiguration(faults: .spread(0.5, over: [.serverError, .reset]), seed: 3)
            try await F.withServer(configuration) { server in
                // When the list loads with up to eight attempts
                let state = try await Self.makeModel(server, path: path, attempts: 8).load()

                // Then a retry followed the fault, and the list came
                let stats = await server.stats()
                #expect(stats.faults.values.reduce(0, +) >= 1)
                #expect(stats.paths["/recipes.json"] == stats.faults.values.reduce(0, +) + 1)
                #expect(state.recipes.count == server.catalog.recipes.count)
            }
        }
    }

    @Test func aServerThatAlwaysFailsGivesTheSavedListAndTheFavourites() async throws {
        try await F.withStorePath { path in
            // Given a launch that loaded the list and favourited a recipe, its photo loaded
            var saved: [Recipe] = []
            var favourite: Recipe?
            try await F.withServer { server in
                let images = try F.makePipeline(path: path)
                let model = try Self.makeModel(server, path: path, images: images)
                saved = await model.load().recipes
                favourite = saved[2]
                _ = try await images.image(for: favourite!.photoURLStrings[0], at: 1)
                await model.favourite(favourite!)
                #expect(
                    try F.storedEntries(path: path).first { $0.url == favourite!.photoURLStrings[0] }?.pinned == true)
            }
            // When the next launch meets a server that answers every request with a 503 or a reset
            let failing = F.makeConfiguration(faults: .spread(1, over: [.serverError, .reset]))
            try await F.withServer(failing) { server in
                let model = try Self.makeModel(server, path: path)
                let state = await model.load()

                // Then after its three attempts it shows the saved list, its age, and the favourite
                #expect(await server.stats().paths["/recipes.json"] == 3)
                guard case .failedWithLastGood(let list, let message, let favourites) = state else {
                    Issue.record("expected the saved list with the error, got \(state)")
                    return
                }
                #expect(list.recipes.map(\.uuid) == saved.map(\.uuid))
                #expect(favourites.map(\.uuid) == [favourite!.uuid])
                #expect(message.contains("Please try again"))
                #expect(await model.favouritesAreKept)
            }
        }
    }
}

extension RecipeListEndToEndTests {
    @Test("the client example of the DocC article Using cachelab runs as written, against the local server")
    func readmeExampleRuns() async throws {
        try await F.withStorePath { path in
            try await F.withServer { server in
                let now: Int64 = 1
                // As in the article, with the local environment for .production.
                let store = try DiskStore(path: path)
                let images = try ImagePipeline(
                    diskPath: path, downloader: URLSessionImageDownloader(), at: now, ifDiskFails: .runMemoryOnly,
                    favourites: RecipeListModel.favouritePhotoURLs(in: store))
                let model = RecipeListModel(
                    service: URLSessionRecipeService(environment: .local(base: URL(string: server.baseURL)!)),
                    store: store, images: images, retryPolicy: .standard.seeded(try store.installSeed()))

                await model.load()
                let recipe = try #require(await model.state.recipes.first)
                await model.favourite(recipe)
                let row = try await images.image(for: recipe.photoURLSmall!.absoluteString, at: now)

                #expect(row.source == .network)
                #expect(await model.favourites == [recipe])
                let pinned = try F.storedEntries(path: path).filter(\.pinned).map(\.url)
                #expect(pinned == [recipe.photoURLSmall!.absoluteString])
                #expect(await images.wanted == Set(recipe.photoURLStrings))

                // The prefetcher, as in the article (the band: the three recipes after the first)
                let prefetcher = ImagePrefetcher(pipeline: images)
                let band = await model.state.recipes.dropFirst(1).prefix(3)
                await prefetcher.startPrefetching(band.compactMap { $0.photoURLSmall?.absoluteString }, at: now)
                try await F.waitUntil("the band is prefetched") { await prefetcher.completed == 3 }
                let shown = try await images.image(for: band.first!.photoURLSmall!.absoluteString, at: now)
                #expect(shown.source == .memory)
                await prefetcher.stopPrefetching(band.compactMap { $0.photoURLSmall?.absoluteString })
                #expect(await prefetcher.pending == 0)
            }
        }
    }
}

extension RecipeListEndToEndTests {
    @Test func theListModelAndPipelineWorkAgainstACatalogOfRelativePhotoPaths() async throws {
        try await F.withStorePath { path in
            var configuration = F.makeConfiguration()
            configuration.relativePhotoPaths = true
            try await F.withServer(configuration) { server in
                // Given the local environment of a server whose list gives photo paths, not URLs
                let images = try F.makePipeline(path: path)
                let model = try Self.makeModel(server, path: path, images: images)

                // When the list loads and a favourite's photos are loaded
                let recipes = await model.load().recipes
                let recipe = try #require(recipes.last)
                await model.favourite(recipe)
                for url in recipe.photoURLStrings { _ = try await images.image(for: url, at: 2) }

                // Then every photo URL is absolute on the server, and the favourite's are pinned on disk
                #expect(recipes.count == server.catalog.recipes.count)
                #expect(
                    recipes.allSatisfy { $0.photoURLStrings.allSatisfy { $0.hasPrefix(server.baseURL + "/photos/") } })
                let pinned = Set(try F.storedEntries(path: path).filter(\.pinned).map(\.url))
                #expect(pinned == Set(recipe.photoURLStrings))
            }
        }
    }
}
