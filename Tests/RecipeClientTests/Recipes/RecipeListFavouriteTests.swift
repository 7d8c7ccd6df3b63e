import CacheLab
import ClientModel
import Foundation
import Testing

@testable import RecipeClient

/// Favourites on the list model: kept in the store, pinned in the image pipeline, carried by the
/// failure states; and the states that never hide a list.
@Suite("Recipe list model: favourites and states", .timeLimit(.minutes(1)))
struct RecipeListFavouriteTests {
    static let now: Int64 = 1_730_000_000_000
    static let failure = "We couldn't load recipes from the server. Please try again later."

    static func makeModel(
        _ server: StubServer, store: sending any RecipeStore, images: ImagePipeline? = nil, now: Int64 = now
    ) -> RecipeListModel {
        RecipeListModel(
            service: server.makeService(), store: store, images: images, retryPolicy: .never, sleep: { _ in },
            now: { now })
    }

    @Test func favouritesAreKeptAndShownWhenTheListCannotBeFetched() async {
        // Given a favourite made while the list loaded, and a server that then fails with a 404
        let server = StubServer()
        server.script(.ok(Fixtures.twoRecipesJSON), .status(404))
        let store = InMemoryRecipeStore()
        let model = Self.makeModel(server, store: store)
        await model.load()
        await model.favourite(Fixtures.twoRecipes[1])
        await model.favourite(Fixtures.twoRecipes[1])

        // Then it is one favourite, in the store too, and the failure carries it
        #expect(await model.favourites == [Fixtures.twoRecipes[1]])
        #expect(store.loadFavourites().map(\.uuid) == [Fixtures.twoRecipes[1].uuid])
        #expect(store.loadFavourites().first?.favouritedAt == Self.now)
        let state = await model.refresh()
        #expect(
            state
                == .failedWithLastGood(
                    SavedList(recipes: Fixtures.twoRecipes, savedAt: Self.now), Self.failure,
                    favourites: [Fixtures.twoRecipes[1]]))

        // And an in-memory store says they will not outlive the process
        #expect(await model.favouritesAreKept == false)
    }

    @Test func withNoListEverFetchedTheFailureShowsTheFavourites() async {
        // Given a store holding a favourite (an earlier launch) and no list
        let first = InMemoryRecipeStore()
        let server = StubServer()
        server.script(.ok(Fixtures.twoRecipesJSON))
        let earlier = Self.makeModel(server, store: first)
        await earlier.favourite(Fixtures.twoRecipes[0])
        let store = InMemoryRecipeStore(favourites: first.loadFavourites())

        // When the list cannot be fetched
        let failing = StubServer()
        failing.script(.status(404))
        let state = await Self.makeModel(failing, store: store).load()

        // Then the favourite is on screen with the message
        #expect(state == .failed(Self.failure, favourites: [Fixtures.twoRecipes[0]]))
        #expect(state.recipes == [Fixtures.twoRecipes[0]])
        #expect(state.message == Self.failure)
    }

    @Test func unfavouriteRemovesItFromTheStoreAndTheFailureState() async {
        let server = StubServer()
        server.script(.status(404))
        let store = InMemoryRecipeStore()
        let model = Self.makeModel(server, store: store)
        await model.favourite(Fixtures.twoRecipes[0])
        #expect(await model.load() == .failed(Self.failure, favourites: [Fixtures.twoRecipes[0]]))

        await model.unfavourite(Fixtures.twoRecipes[0])

        #expect(await model.favourites.isEmpty)
        #expect(store.loadFavourites().isEmpty)
        #expect(await model.state == .failed(Self.failure, favourites: []))
        #expect(await model.isFavourite(Fixtures.twoRecipes[0].uuid) == false)
    }

    @Test func favouritesSurviveARelaunchInSQLite() async throws {
        try await StoreFixtures.withStorePathAsync { path in
            // Given a favourite made on the SQLite store
            let server = StubServer()
            server.script(.ok(Fixtures.twoRecipesJSON))
            let first = Self.makeModel(server, store: try DiskStore(path: path))
            await first.load()
            await first.favourite(Fixtures.twoRecipes[1])
            #expect(await first.favouritesAreKept)

            // When the app relaunches offline
            let offline = StubServer()
            offline.script(.failure(.notConnectedToInternet))
            let relaunched = Self.makeModel(offline, store: try DiskStore(path: path), now: Self.now + 60_000)

            // Then the favourite is back, and the failure shows the list saved a minute ago with it
            #expect(await relaunched.favourites == [Fixtures.twoRecipes[1]])
            let state = await relaunched.load()
            guard case .failedWithLastGood(let list, _, let favourites) = state else {
                Issue.record("expected the saved list, got \(state)")
                return
            }
            #expect(list.age(at: Self.now + 60_000) == 60_000)
            #expect(favourites == [Fixtures.twoRecipes[1]])
            #expect(
                RecipeListModel.favouritePhotoURLs(in: try DiskStore(path: path))
                    == Set(Fixtures.twoRecipes[1].photoURLStrings))
        }
    }

    @Test func aPipelineWhoseDiskFellBackToMemorySaysFavouritesAreNotKept() async throws {
        try await StoreFixtures.withStorePathAsync { path in
            // Given an image file that is not SQLite: the pipeline runs on memory alone
            try Data("not a database".utf8).write(to: URL(fileURLWithPath: path + ".images"))
            let images = try ImagePipeline(
                diskPath: path + ".images", downloader: URLSessionImageDownloader(), at: 0,
                ifDiskFails: .runMemoryOnly)
            #expect(images.diskProblem != nil)

            // Then the model, though its own store is SQLite, says favourites are not kept
            let server = StubServer()
            let model = Self.makeModel(server, store: try DiskStore(path: path), images: images)
            #expect(await model.favouritesAreKept == false)
            #expect(!RecipeListModel.favouritesNotKeptMessage.isEmpty)
        }
    }

    @Test func aSavedListIsOnScreenWhileTheLaunchFetchRuns() async {
        // Given a list saved an hour ago and a server that has not answered yet
        let store = InMemoryRecipeStore()
        let saving = StubServer()
        saving.script(.ok(Fixtures.twoRecipesJSON))
        await Self.makeModel(saving, store: store, now: Self.now - 3_600_000).load()
        let gate = GatedService(answer: [Fixtures.twoRecipes[0]])
        let model = RecipeListModel(
            service: gate, store: store, retryPolicy: .never, sleep: { _ in }, now: { Self.now })

        // When the list loads
        let load = Task { await model.load() }
        await gate.waitForRequest()

        // Then the saved list shows, an hour old, while the fetch runs; then the new list
        let saved = SavedList(recipes: Fixtures.twoRecipes, savedAt: Self.now - 3_600_000)
        #expect(await model.state == .refreshing(saved, favourites: []))
        #expect(saved.age(at: Self.now) == 3_600_000)
        gate.open()
        #expect(await load.value == .loaded([Fixtures.twoRecipes[0]], favourites: []))

        // And a refresh keeps that list on screen while it runs
        let refresh = Task { await model.refresh() }
        await gate.waitForRequest()
        #expect(
            await model.state
                == .refreshing(SavedList(recipes: [Fixtures.twoRecipes[0]], savedAt: Self.now), favourites: []))
        gate.open()
        _ = await refresh.value
    }

    @Test func anEmptyListAfterAGoodOneReplacesTheSavedListButNotTheFavourites() async {
        // The saved list follows the server: after an empty answer a failure shows no old recipes,
        // only the favourites.
        let server = StubServer()
        server.script(.ok(Fixtures.twoRecipesJSON), .ok(Data(#"{"recipes": []}"#.utf8)), .status(404))
        let store = InMemoryRecipeStore()
        let model = Self.makeModel(server, store: store)
        await model.load()
        await model.favourite(Fixtures.twoRecipes[0])

        #expect(await model.refresh() == .empty(favourites: [Fixtures.twoRecipes[0]]))
        #expect(await model.lastGoodList == [])
        #expect(await model.refresh() == .failed(Self.failure, favourites: [Fixtures.twoRecipes[0]]))
    }

    @Test func aServerThatNeverAnswersShowsTheSavedListWithinTimeoutTimesAttemptsPlusBackoff() async throws {
        // Given a saved list, a server that accepts and never answers, a 1 s timeout, 3 attempts
        let store = InMemoryRecipeStore()
        let saving = StubServer()
        saving.script(.ok(Fixtures.twoRecipesJSON))
        await Self.makeModel(saving, store: store).load()
        let silent = try SilentServer()
        defer { silent.close() }
        let backoff = SleepRecorder()
        let policy = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(100), maxDelay: .milliseconds(200), jitter: 0)
        let model = RecipeListModel(
            service: URLSessionRecipeService(
                url: URL(string: "http://127.0.0.1:\(silent.port)/recipes.json")!, timeout: .seconds(1)),
            store: store, retryPolicy: policy, sleep: backoff.sleep, now: { Self.now })

        // Then the saved list is on screen from the start
        #expect(await model.state.recipes == Fixtures.twoRecipes)
        let clock = ContinuousClock()
        let start = clock.now
        let state = await model.load()
        let elapsed = start.duration(to: clock.now)

        // And the failure with it comes after 3 attempts of 1 s, 0.1 s and 0.2 s apart (the
        // backoff recorded, not slept; a timeout may fire a hair early). The two delays show there
        // were three attempts; the bound shows each ended at its 1 s timeout rather than
        // URLSession's 60 s default, with room for a 2-core machine running the whole suite
        // (5.06 s was seen there)
        #expect(
            state
                == .failedWithLastGood(
                    SavedList(recipes: Fixtures.twoRecipes, savedAt: Self.now),
                    "The recipe server took too long to answer. Please try again.", favourites: []))
        #expect(backoff.delays == [.milliseconds(100), .milliseconds(200)])
        #expect(elapsed >= .milliseconds(2_900) && elapsed < .seconds(15), "took \(elapsed)")
    }

    @Test func installSeedIsKeptPerStoreAndDiffersBetweenInstalls() throws {
        try StoreFixtures.withStorePath { first in
            try StoreFixtures.withStorePath { second in
                let seed = try DiskStore(path: first).installSeed()
                #expect(try DiskStore(path: first).installSeed() == seed)
                #expect(try DiskStore(path: second).installSeed() != seed)
                // The seed draws the jitter: the same install waits the same delays.
                let policy = RetryPolicy.standard.seeded(seed)
                var a = SplitMix64(seed: policy.seed)
                var b = SplitMix64(seed: try DiskStore(path: first).installSeed())
                #expect(policy.delay(beforeRetry: 1, using: &a) == policy.delay(beforeRetry: 1, using: &b))
            }
        }
    }
}
