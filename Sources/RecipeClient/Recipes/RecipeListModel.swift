import CacheLab
import Foundation

/// The recipe list screen's state, kept in one actor: fetches with retries, remembers the last
/// good list (persisted through a `LastGoodListStore`) and shows it when a later fetch fails.
///
/// - Invariant: `state` is `.failedWithLastGood` only with a non-empty last good list; it is
///   `.empty` only when the latest successful fetch returned no recipes.
public actor RecipeListModel {
    /// What the screen shows; `.loading` until the first fetch completes.
    public private(set) var state: RecipeListState = .loading
    /// The last list fetched successfully, by this model or, before a relaunch, an earlier one.
    public private(set) var lastGoodList: [Recipe]?

    private let service: any RecipeService
    private let store: any LastGoodListStore
    private let retryPolicy: RetryPolicy
    private var random: SplitMix64
    private let sleep: @Sendable (Duration) async throws -> Void
    private let now: @Sendable () -> Int64
    // Counts fetches, so that of two overlapping ones only the later sets `state`.
    private var generation = 0

    /// - Parameters:
    ///   - store: read once here, so a list saved before a relaunch is there from the start.
    ///   - sleep: waits between attempts; tests record the delays instead of sleeping.
    ///   - now: milliseconds since 1970, passed to `saveLastGoodList(_:at:)`.
    public init(
        service: some RecipeService,
        store: sending any LastGoodListStore,
        retryPolicy: RetryPolicy = .standard,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        now: @escaping @Sendable () -> Int64 = { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }
    ) {
        // A list that cannot be read or no longer decodes (written by an older build, say)
        // counts as none.
        if let json = try? store.loadLastGoodList() {
            self.lastGoodList = try? JSONDecoder().decode(RecipeList.self, from: Data(json)).recipes
        }
        self.service = service
        self.store = store
        self.retryPolicy = retryPolicy
        self.random = SplitMix64(seed: retryPolicy.seed)
        self.sleep = sleep
        self.now = now
    }

    /// Shows `.loading`, then fetches. Returns the new state.
    @discardableResult
    public func load() async -> RecipeListState {
        state = .loading
        return await fetch()
    }

    /// Fetches while the current state stays on screen (pull to refresh). Returns the new state.
    @discardableResult
    public func refresh() async -> RecipeListState {
        await fetch()
    }

    private func fetch() async -> RecipeListState {
        generation += 1
        let mine = generation
        let before = state
        let outcome = await fetchWithRetries()
        guard mine == generation else {
            // A later fetch started meanwhile and owns `state` and the saved list; this answer is older.
            return state
        }
        switch outcome {
        case .success(let recipes):
            remember(recipes)
            state = recipes.isEmpty ? .empty : .loaded(recipes)
        case .failure(.transport(.cancelled)):
            // Whoever cancelled did not want an answer, so there is no error to show either.
            state = before
        case .failure(let error):
            if let lastGoodList, !lastGoodList.isEmpty {
                state = .failedWithLastGood(lastGoodList, error.userMessage)
            } else {
                state = .failed(error.userMessage)
            }
        }
        return state
    }

    private func fetchWithRetries() async -> Result<[Recipe], RecipeServiceError> {
        var attempt = 1
        while true {
            let failure: RecipeServiceError
            do {
                return .success(try await service.fetchRecipes())
            } catch {
                failure = error
            }
            guard failure.isRetryable, attempt < retryPolicy.maxAttempts, !Task.isCancelled else {
                return .failure(failure)
            }
            let delay = retryPolicy.delay(beforeRetry: attempt, using: &random)
            do {
                try await sleep(delay)
            } catch {
                // The sleeper throws when the task is cancelled; report the failure it interrupted.
                return .failure(Task.isCancelled ? .transport(.cancelled) : failure)
            }
            attempt += 1
        }
    }

    private func remember(_ recipes: [Recipe]) {
        lastGoodList = recipes
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding strings and URLs cannot fail. A failed save leaves the previous list saved; the
        // new one is still on screen and in memory, so there is nothing to show the user.
        if let json = try? encoder.encode(RecipeList(recipes: recipes)) {
            try? store.saveLastGoodList([UInt8](json), at: now())
        }
    }
}
