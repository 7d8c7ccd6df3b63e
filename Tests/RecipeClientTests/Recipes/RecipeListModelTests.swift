import CacheLab
import ClientModel
import Foundation
import Testing

@testable import RecipeClient

@Suite("Recipe list model")
struct RecipeListModelTests {
    static let now: Int64 = 1_730_000_000_000

    /// A model fetching `/recipes.json` from `server` through URLSession, never sleeping for real.
    private func makeModel(
        server: StubServer,
        store: InMemoryRecipeStore = InMemoryRecipeStore(),
        retryPolicy: RetryPolicy = .standard,
        sleeper: SleepRecorder = SleepRecorder()
    ) -> RecipeListModel {
        RecipeListModel(
            service: server.makeService(),
            store: store,
            retryPolicy: retryPolicy,
            sleep: sleeper.sleep,
            now: { Self.now }
        )
    }

    @Test func startsLoading() async {
        let model = makeModel(server: StubServer())

        #expect(await model.state == .loading(favourites: []))
        #expect(await model.lastGoodList == nil)
    }

    @Test(.enabled(if: Fixtures.available))
    func loadsTheLiveFixtureAndSavesItAsTheLastGoodList() async throws {
        // Given the live payload
        let server = StubServer()
        server.script(.ok(try Fixtures.data("recipes.json")))
        let store = InMemoryRecipeStore()
        let model = makeModel(server: server, store: store)

        // When the list loads
        let state = await model.load()

        // Then all 63 recipes show and are saved at the injected time
        #expect(state.recipes.count == 63)
        #expect(await model.state == state)
        #expect(state.message == nil)
        #expect(store.savedAt == Self.now)
        let saved = try #require(store.loadLastGoodList())
        #expect(try JSONDecoder().decode(RecipeList.self, from: Data(saved)).recipes == state.recipes)
    }

    @Test(.enabled(if: Fixtures.available))
    func malformedFixtureGivesTheFailedStateWithoutRetrying() async throws {
        let server = StubServer()
        server.script(.ok(try Fixtures.data("recipes-malformed.json")))
        let sleeper = SleepRecorder()
        let model = makeModel(server: server, sleeper: sleeper)

        let state = await model.load()

        #expect(state == .failed("We received recipes we couldn't read. Please try again later.", favourites: []))
        #expect(server.requestCount() == 1)
        #expect(sleeper.delays.isEmpty)
    }

    @Test(.enabled(if: Fixtures.available))
    func emptyFixtureShowsNoRecipesFound() async throws {
        let server = StubServer()
        server.script(.ok(try Fixtures.data("recipes-empty.json")))
        let model = makeModel(server: server)

        let state = await model.load()

        #expect(state == .empty(favourites: []))
        #expect(state.message == "No Recipes Found")
    }

    @Test func serverErrorGivesTheFailedStateAfterThreeAttempts() async {
        let server = StubServer()
        server.script(.status(500))
        let sleeper = SleepRecorder()
        let model = makeModel(server: server, sleeper: sleeper)

        let state = await model.load()

        #expect(
            state == .failed("The recipe server is having trouble right now. Please try again later.", favourites: []))
        #expect(server.requestCount() == 3)
        #expect(sleeper.delays.count == 2)
    }

    @Test(.enabled(if: Fixtures.available))
    func serverErrorAfterAGoodFetchShowsTheLastGoodList() async throws {
        // Given a good fetch, then a server that only answers 500
        let server = StubServer()
        server.script(.ok(try Fixtures.data("recipes.json")), .status(500))
        let model = makeModel(server: server)
        let good = await model.load().recipes

        // When the list is refreshed
        let state = await model.refresh()

        // Then the last good list shows with the error
        #expect(good.count == 63)
        #expect(
            state
                == .failedWithLastGood(
                    SavedList(recipes: good, savedAt: Self.now),
                    "The recipe server is having trouble right now. Please try again later.", favourites: [])
        )
        #expect(state.recipes == good)
    }

    @Test(.enabled(if: Fixtures.available))
    func relaunchThatFailsShowsThePersistedList() async throws {
        // Given a first launch that fetched the list into the store
        let store = InMemoryRecipeStore()
        let first = StubServer()
        first.script(.ok(try Fixtures.data("recipes.json")))
        let good = await makeModel(server: first, store: store).load().recipes

        // When a new model on the same store finds the network down
        let second = StubServer()
        second.script(.failure(.notConnectedToInternet))
        let relaunched = makeModel(server: second, store: store)
        let persisted = await relaunched.lastGoodList
        let state = await relaunched.load()

        // Then it shows the list saved before the relaunch
        #expect(persisted == good)
        #expect(
            state
                == .failedWithLastGood(
                    SavedList(recipes: good, savedAt: Self.now),
                    "You appear to be offline. Check your connection and try again.", favourites: []))
    }

    @Test func transportErrorThenSuccessLoadsOnTheSecondAttempt() async {
        // Given one dropped connection, then the list
        let server = StubServer()
        server.script(.failure(.networkConnectionLost), .ok(Fixtures.twoRecipesJSON))
        let sleeper = SleepRecorder()
        let model = makeModel(server: server, sleeper: sleeper)

        // When the list loads
        let state = await model.load()

        // Then it loads after two attempts, waiting once: 500 ms ± 20 % drawn from the policy's seed
        var random = SplitMix64(seed: RetryPolicy.standard.seed)
        let expected = RetryPolicy.standard.delay(beforeRetry: 1, using: &random)
        #expect(state == .loaded(Fixtures.twoRecipes, favourites: []))
        #expect(server.requestCount() == 2)
        #expect(sleeper.delays == [expected])
        #expect((Duration.milliseconds(400)...Duration.milliseconds(600)).contains(expected))
    }

    @Test func backoffDoublesBetweenAttempts() async {
        let server = StubServer()
        server.script(.status(503))
        let sleeper = SleepRecorder()
        let policy = RetryPolicy(maxAttempts: 4, baseDelay: .milliseconds(250), jitter: 0)
        let model = makeModel(server: server, retryPolicy: policy, sleeper: sleeper)

        _ = await model.load()

        #expect(server.requestCount() == 4)
        #expect(sleeper.delays == [.milliseconds(250), .milliseconds(500), .seconds(1)])
    }

    @Test(arguments: [400, 404, 429])
    func clientErrorIsNotRetried(_ status: Int) async {
        let server = StubServer()
        server.script(.status(status))
        let sleeper = SleepRecorder()
        let model = makeModel(server: server, sleeper: sleeper)

        let state = await model.load()

        #expect(state == .failed("We couldn't load recipes from the server. Please try again later.", favourites: []))
        #expect(server.requestCount() == 1)
        #expect(sleeper.delays.isEmpty)
    }

    @Test func emptyListAfterAGoodOneIsEmptyAndAFailureThenShowsNoOldList() async {
        let server = StubServer()
        server.script(.ok(Fixtures.twoRecipesJSON), .ok(Data(#"{"recipes": []}"#.utf8)), .status(404))
        let model = makeModel(server: server)

        #expect(await model.load() == .loaded(Fixtures.twoRecipes, favourites: []))
        #expect(await model.refresh() == .empty(favourites: []))
        #expect(
            await model.refresh()
                == .failed("We couldn't load recipes from the server. Please try again later.", favourites: []))
    }

    @Test func unreadablePersistedListCountsAsNone() async {
        let store = InMemoryRecipeStore(json: Array("not json".utf8))
        let server = StubServer()
        server.script(.status(404))
        let model = makeModel(server: server, store: store)

        #expect(await model.lastGoodList == nil)
        #expect(
            await model.load()
                == .failed("We couldn't load recipes from the server. Please try again later.", favourites: []))
    }

    @Test func storeThatThrowsCountsAsNoneAndDoesNotStopLoading() async {
        // Given a store that fails every read and write, and is not Sendable (like the SQLite one)
        let server = StubServer()
        server.script(.ok(Fixtures.twoRecipesJSON), .status(404))
        let model = RecipeListModel(
            service: server.makeService(),
            store: ThrowingStore(),
            sleep: SleepRecorder().sleep,
            now: { Self.now }
        )

        // Then there is no saved list, the fetch still loads, and a later failure shows it
        #expect(await model.lastGoodList == nil)
        #expect(await model.load() == .loaded(Fixtures.twoRecipes, favourites: []))
        #expect(
            await model.refresh()
                == .failedWithLastGood(
                    SavedList(recipes: Fixtures.twoRecipes, savedAt: Self.now),
                    "We couldn't load recipes from the server. Please try again later.", favourites: []
                )
        )
    }

    @Test func cancelledSleepStopsRetryingWithoutShowingAnError() async {
        // Given a server error and a sleeper that cancels its task while waiting to retry
        let server = StubServer()
        server.script(.status(500))
        let model = RecipeListModel(
            service: server.makeService(),
            store: InMemoryRecipeStore(),
            sleep: { _ in
                withUnsafeCurrentTask { $0?.cancel() }
                throw CancellationError()
            },
            now: { Self.now }
        )

        // When the load runs in a task of its own (cancelling the test's task would cancel the test)
        let state = await Task { await model.load() }.value

        // Then there is one attempt and the state stays as it was
        #expect(state == .loading(favourites: []))
        #expect(server.requestCount() == 1)
    }
}

/// A store whose every call fails.
private final class ThrowingStore: RecipeStore {
    struct Failure: Error {}

    func loadLastGoodList() throws -> [UInt8]? {
        throw Failure()
    }

    func saveLastGoodList(_ json: [UInt8], at now: Int64) throws {
        throw Failure()
    }

    var keepsFavourites: Bool { true }

    func loadFavourites() throws -> [StoredFavourite] {
        throw Failure()
    }

    func saveFavourite(_ favourite: StoredFavourite) throws {
        throw Failure()
    }

    func removeFavourite(uuid: String) throws {
        throw Failure()
    }
}
