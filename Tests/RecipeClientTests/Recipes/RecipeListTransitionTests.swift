import Foundation
import Testing

@testable import RecipeClient

/// Every transition of the list's state machine, with a favourite made in an earlier launch:
/// whatever the screen shows while a fetch runs and after it, the favourite is on it.
@Suite("Recipe list model: no transition hides the favourites", .timeLimit(.minutes(1)))
struct RecipeListTransitionTests {
    static let now: Int64 = 1_730_000_000_000
    static let favourite = Fixtures.twoRecipes[1]
    static let offline = RecipeServiceError.transport(.notConnectedToInternet)
    static let list = Fixtures.twoRecipes
    static let saved = SavedList(recipes: list, savedAt: now - 60_000)

    /// A model fetching through `gate`, over a store holding `favourite` and, if `withSavedList`,
    /// `list` saved a minute ago.
    static func makeModel(
        _ gate: GatedService, withSavedList: Bool, retryPolicy: RetryPolicy = .never,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { _ in }
    ) throws -> RecipeListModel {
        let stored = StoredFavourite(
            uuid: favourite.uuid, json: [UInt8](try JSONEncoder().encode(favourite)), favouritedAt: now - 120_000)
        let store = InMemoryRecipeStore(
            json: withSavedList ? [UInt8](Fixtures.twoRecipesJSON) : nil, at: now - 60_000, favourites: [stored])
        return RecipeListModel(
            service: gate, store: store, retryPolicy: retryPolicy, sleep: sleep, now: { Self.now })
    }

    /// Starts `fetch` and returns it with the state on screen while its first request waits.
    static func whileFetching(
        _ model: RecipeListModel, on gate: GatedService,
        _ fetch: @escaping @Sendable (RecipeListModel) async -> RecipeListState
    ) async -> (Task<RecipeListState, Never>, shown: RecipeListState) {
        let task = Task { await fetch(model) }
        await gate.waitForRequest()
        return (task, await model.state)
    }

    @Test func offlineAtLaunchWithFavouritesAndNoSavedListShowsThemFromTheStart() async throws {
        // Given a favourite and no saved list
        let gate = GatedService(answer: Self.list)
        let model = try Self.makeModel(gate, withSavedList: false)

        // Then the spinner shows it before the fetch, and while it runs
        #expect(await model.state == .loading(favourites: [Self.favourite]))
        let (load, shown) = await Self.whileFetching(model, on: gate) { await $0.load() }
        #expect(shown == .loading(favourites: [Self.favourite]) && shown.recipes == [Self.favourite])

        // And offline, the failure shows it with the message
        gate.open(answering: .failure(Self.offline))
        let failed = await load.value
        #expect(failed == .failed(Self.offline.userMessage, favourites: [Self.favourite]))
        #expect(failed.recipes == [Self.favourite] && failed.list.isEmpty)
    }

    /// What a retry after `.failed` can end in, and the state each gives.
    static let retryEndings: [(GatedService.Answer, RecipeListState)] = [
        (.success(list), .loaded(list, favourites: [favourite])),
        (.success([]), .empty(favourites: [favourite])),
        (.failure(offline), .failed(offline.userMessage, favourites: [favourite])),
        (.failure(.httpStatus(404)), .failed(RecipeServiceError.httpStatus(404).userMessage, favourites: [favourite])),
    ]

    @Test(arguments: 0..<retryEndings.count)
    func aRetryAfterAFailureKeepsTheFavouritesOnScreenWhileItRuns(ending: Int) async throws {
        // Given a launch that failed offline, with a favourite and no list
        let gate = GatedService(answer: Self.list)
        let model = try Self.makeModel(gate, withSavedList: false)
        let (load, _) = await Self.whileFetching(model, on: gate) { await $0.load() }
        gate.open(answering: .failure(Self.offline))
        #expect(await load.value == .failed(Self.offline.userMessage, favourites: [Self.favourite]))

        // When the person retries, the favourite stays on screen under the spinner
        let (refresh, shown) = await Self.whileFetching(model, on: gate) { await $0.refresh() }
        #expect(shown == .loading(favourites: [Self.favourite]))
        #expect(shown.recipes == [Self.favourite] && shown.isFetching)

        // Then the retry ends in the state its answer gives, the favourite still there
        let (answer, expected) = Self.retryEndings[ending]
        gate.open(answering: answer)
        let ended = await refresh.value
        #expect(ended == expected)
        #expect(ended.favourites == [Self.favourite] && ended.recipes.contains(Self.favourite))
    }

    @Test func theFavouritesStayThroughEveryAttemptAndBackoffOfARetry() async throws {
        // Given three attempts, the delays recorded, and a launch with no list
        let gate = GatedService(answer: Self.list)
        let backoff = SleepRecorder()
        let policy = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(100), maxDelay: .milliseconds(200), jitter: 0)
        let model = try Self.makeModel(gate, withSavedList: false, retryPolicy: policy, sleep: backoff.sleep)

        // When the first two attempts fail with 503 and the third answers
        let (load, first) = await Self.whileFetching(model, on: gate) { await $0.load() }
        gate.open(answering: .failure(.httpStatus(503)))
        await gate.waitForRequest()
        let second = await model.state
        gate.open(answering: .failure(.httpStatus(503)))
        await gate.waitForRequest()
        let third = await model.state
        gate.open()

        // Then every attempt showed the favourite, and the list came with it
        for shown in [first, second, third] {
            #expect(shown == .loading(favourites: [Self.favourite]))
        }
        #expect(backoff.delays == [.milliseconds(100), .milliseconds(200)])
        #expect(await load.value == .loaded(Self.list, favourites: [Self.favourite]))
    }

    @Test func withASavedListEveryStateShowsTheListAndTheFavourites() async throws {
        // Given a list saved a minute ago and a favourite
        let gate = GatedService(answer: Self.list)
        let model = try Self.makeModel(gate, withSavedList: true)
        #expect(await model.state == .refreshing(Self.saved, favourites: [Self.favourite]))

        // launch → failed with the last good list
        let (load, launching) = await Self.whileFetching(model, on: gate) { await $0.load() }
        #expect(launching == .refreshing(Self.saved, favourites: [Self.favourite]))
        gate.open(answering: .failure(Self.offline))
        #expect(
            await load.value
                == .failedWithLastGood(Self.saved, Self.offline.userMessage, favourites: [Self.favourite]))

        // → retry (the same list on screen) → loaded
        let (retry, retrying) = await Self.whileFetching(model, on: gate) { await $0.refresh() }
        #expect(retrying == .refreshing(Self.saved, favourites: [Self.favourite]))
        gate.open()
        let loaded = await retry.value
        #expect(loaded == .loaded(Self.list, favourites: [Self.favourite]))
        #expect(loaded.recipes == Self.list && loaded.message == nil)

        // → refresh (the fetched list on screen, saved now) → failed with it
        let (refresh, refreshing) = await Self.whileFetching(model, on: gate) { await $0.refresh() }
        let fetched = SavedList(recipes: Self.list, savedAt: Self.now)
        #expect(refreshing == .refreshing(fetched, favourites: [Self.favourite]))
        gate.open(answering: .failure(.httpStatus(500)))
        #expect(
            await refresh.value
                == .failedWithLastGood(
                    fetched, RecipeServiceError.httpStatus(500).userMessage, favourites: [Self.favourite]))
    }

    @Test func anEmptyAnswerShowsTheFavouritesAndTheNextFetchKeepsThem() async throws {
        // Given a loaded list
        let gate = GatedService(answer: Self.list)
        let model = try Self.makeModel(gate, withSavedList: false)
        let (load, _) = await Self.whileFetching(model, on: gate) { await $0.load() }
        gate.open()
        #expect(await load.value == .loaded(Self.list, favourites: [Self.favourite]))

        // When the server answers with no recipes
        let (refresh, _) = await Self.whileFetching(model, on: gate) { await $0.refresh() }
        gate.open(answering: .success([]))
        let empty = await refresh.value

        // Then "No Recipes Found" shows over the favourite
        #expect(empty == .empty(favourites: [Self.favourite]))
        #expect(empty.message == RecipeListState.emptyMessage && empty.recipes == [Self.favourite])

        // And the next fetch (no list saved now: the server had none) keeps it under the spinner
        let (again, shown) = await Self.whileFetching(model, on: gate) { await $0.refresh() }
        #expect(shown == .loading(favourites: [Self.favourite]))
        gate.open()
        #expect(await again.value == .loaded(Self.list, favourites: [Self.favourite]))
    }

    @Test func aFavouriteTheServerNoLongerListsStaysOnScreenAfterTheList() async throws {
        // Given a favourite, and a server whose list no longer has it
        let gate = GatedService(answer: [Fixtures.twoRecipes[0]])
        let model = try Self.makeModel(gate, withSavedList: false)
        let (load, _) = await Self.whileFetching(model, on: gate) { await $0.load() }
        gate.open()
        let loaded = await load.value

        // Then the screen has the list, then the favourite
        #expect(loaded.list == [Fixtures.twoRecipes[0]] && loaded.favourites == [Self.favourite])
        #expect(loaded.recipes == [Fixtures.twoRecipes[0], Self.favourite])
    }

    @Test func aFavouriteChangedWhileAFetchRunsShowsAtOnceAndAfterACancelledFetch() async throws {
        // Given a fetch running over a saved list
        let gate = GatedService(answer: Self.list)
        let model = try Self.makeModel(gate, withSavedList: true)
        let (load, _) = await Self.whileFetching(model, on: gate) { await $0.load() }

        // When the person favourites another recipe and unfavourites the first meanwhile
        await model.favourite(Fixtures.twoRecipes[0])
        await model.unfavourite(Self.favourite)

        // Then the running state shows the change at once
        #expect(await model.state == .refreshing(Self.saved, favourites: [Fixtures.twoRecipes[0]]))

        // And a cancelled fetch goes back to what was shown before it, with the favourites as they are now
        gate.open(answering: .failure(.transport(.cancelled)))
        #expect(await load.value == .refreshing(Self.saved, favourites: [Fixtures.twoRecipes[0]]))
    }
}
