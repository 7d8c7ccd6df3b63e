import ClientModel
import Foundation

/// The recipe list screen's state, kept in one actor: fetches with retries, remembers the last
/// good list (persisted through a `RecipeStore`) and shows it while fetching and when a fetch
/// fails, and keeps the person's favourites, pinning their photos in the image pipeline.
///
/// ## States (`RecipeListState`)
/// Every state carries the favourites as they are now, so no transition hides them.
/// - **Launch.** With a saved list, `load()` shows it at once (`.refreshing`, with its save time)
///   while the fetch runs; with none, `.loading`. A refresh keeps the last good list on screen; a
///   retry after `.failed` (no list) shows `.loading` with the favourites.
/// - **Success.** `.loaded`, or `.empty` for a list with no recipes. The saved list follows the
///   server: an empty answer replaces it, so a later failure shows no stale recipes the server
///   no longer lists (the favourites are still shown: they are kept apart).
/// - **Failure** after the retries: `.failedWithLastGood` with the last good list when there is
///   one, else `.failed`. A cancelled fetch leaves the state as it was before the fetch (with the
///   favourites as they are now).
///
/// ## Favourites
/// `favourite(_:)` keeps the recipe as received in the store (the SQLite file, across launches)
/// and pins its photos in every tier of `images` (pinned as they are stored, if not yet);
/// `unfavourite(_:)` undoes both. `favouritesAreKept` is false when they will not outlive the
/// process: the store keeps them in memory only, the image pipeline's disk fell back to memory
/// (`ImagePipeline.diskProblem`), or a save failed.
///
/// - Invariant: `state` is `.failedWithLastGood` only with a non-empty last good list; it is
///   `.empty` only when the latest successful fetch returned no recipes.
public actor RecipeListModel {
    /// What the screen shows.
    public private(set) var state: RecipeListState
    /// The last list fetched successfully, by this model or, before a relaunch, an earlier one.
    public private(set) var lastGoodList: [Recipe]?
    /// When `lastGoodList` was saved (ms since 1970); the launch time if the store does not say.
    public private(set) var lastGoodSavedAt: Int64?
    /// The favourite recipes, oldest favourite first.
    public private(set) var favourites: [Recipe] = []
    /// Whether the favourites will still be there after a relaunch.
    public private(set) var favouritesAreKept: Bool

    /// What to show when `favouritesAreKept` is false.
    public static let favouritesNotKeptMessage =
        "Favourites can't be saved on this device right now; they will be gone when the app closes."

    private let service: any RecipeService
    private let store: any RecipeStore
    private let images: ImagePipeline?
    private let retryPolicy: RetryPolicy
    private var random: SplitMix64
    private let sleep: @Sendable (Duration) async throws -> Void
    private let now: @Sendable () -> Int64
    // Counts fetches, so that of two overlapping ones only the later sets `state`.
    private var generation = 0

    /// - Parameters:
    ///   - service: where the list is fetched from.
    ///   - store: read once here, so a list and favourites saved before a relaunch are there from
    ///     the start.
    ///   - images: the pipeline whose tiers keep the favourites' photos (nil: none).
    ///   - retryPolicy: its `seed` draws the jitter; give each install its own
    ///     (`DiskStore.installSeed()`, `RetryPolicy.seeded(_:)`).
    ///   - sleep: waits between attempts; tests record the delays instead of sleeping.
    ///   - now: milliseconds since 1970, for save times.
    public init(
        service: some RecipeService,
        store: sending any RecipeStore,
        images: ImagePipeline? = nil,
        retryPolicy: RetryPolicy = .standard,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        now: @escaping @Sendable () -> Int64 = { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }
    ) {
        // A list that cannot be read or no longer decodes (written by an older build, say)
        // counts as none; so does a favourite.
        if let json = try? store.loadLastGoodList(),
            let list = try? JSONDecoder().decode(RecipeList.self, from: Data(json)).recipes
        {
            lastGoodList = list
            lastGoodSavedAt = (try? store.lastGoodListSavedAt()) ?? now()
        }
        favourites = ((try? store.loadFavourites()) ?? []).compactMap(Self.decode)
        favouritesAreKept = store.keepsFavourites && images?.diskProblem == nil
        state = Self.shown(whileFetching: lastGoodList, savedAt: lastGoodSavedAt, favourites: favourites)
        self.service = service
        self.store = store
        self.images = images
        self.retryPolicy = retryPolicy
        self.random = SplitMix64(seed: retryPolicy.seed)
        self.sleep = sleep
        self.now = now
    }

    /// The photo URLs of the favourites `store` keeps: open the image pipeline with them
    /// (`ImagePipeline(…, favourites:)`) so each tier pins them as it stores them.
    public static func favouritePhotoURLs(in store: some FavouritesStore) -> Set<String> {
        Set(((try? store.loadFavourites()) ?? []).compactMap(decode).flatMap(\.photoURLStrings))
    }

    /// Shows the saved list (or `.loading` without one), then fetches. Returns the new state.
    @discardableResult
    public func load() async -> RecipeListState {
        await fetch()
    }

    /// Fetches while the last good list stays on screen (pull to refresh). Returns the new state.
    @discardableResult
    public func refresh() async -> RecipeListState {
        await fetch()
    }

    /// How many favourites have a photo the image pipeline holds but could not pin, its pin budget
    /// full (`ImagePipeline.unkeptFavouritePhotos(at:)`): those photos are cached as usual and may
    /// be gone offline. 0 when every favourite's stored photos are kept (or there is no pipeline).
    /// Show `favouritesNotFullyKeptMessage(_:)` when it is not 0.
    public func favouritesNotFullyKept() async -> Int {
        guard let images else { return 0 }
        let unkept = await images.unkeptFavouritePhotos(at: now())
        guard !unkept.isEmpty else { return 0 }
        return favourites.count { $0.photoURLStrings.contains(where: unkept.contains) }
    }

    /// What to show when `favouritesNotFullyKept()` is `count`, above 0.
    public static func favouritesNotFullyKeptMessage(_ count: Int) -> String {
        count == 1
            ? "1 favourite's photos may not be available offline: there is no more room to keep them."
            : "\(count) favourites' photos may not be available offline: there is no more room to keep them."
    }

    /// Whether the recipe with `uuid` is a favourite.
    public func isFavourite(_ uuid: String) -> Bool {
        favourites.contains { $0.uuid == uuid }
    }

    /// Makes `recipe` a favourite: kept in the store, its photos pinned in every tier. Does
    /// nothing for a favourite already.
    public func favourite(_ recipe: Recipe) async {
        guard !isFavourite(recipe.uuid) else { return }
        favourites.append(recipe)
        let at = now()
        do {
            try store.saveFavourite(StoredFavourite(uuid: recipe.uuid, json: Self.encode(recipe), favouritedAt: at))
        } catch {
            favouritesAreKept = false
        }
        for url in recipe.photoURLStrings {
            // An unfavourite while this one waited has let the recipe go: pin no more of it.
            guard isFavourite(recipe.uuid) else { break }
            _ = try? await images?.pin(url, at: at)
        }
        showFavourites()
    }

    /// Makes `recipe` a favourite no more: removed from the store, its photos unpinned.
    public func unfavourite(_ recipe: Recipe) async {
        guard let index = favourites.firstIndex(where: { $0.uuid == recipe.uuid }) else { return }
        let removed = favourites.remove(at: index)
        do {
            try store.removeFavourite(uuid: removed.uuid)
        } catch {
            // It would come back at the next launch.
            favouritesAreKept = false
        }
        let at = now()
        for url in removed.photoURLStrings {
            // A favourite again while this one waited: its pins stay.
            guard !isFavourite(removed.uuid) else { break }
            try? await images?.unpin(url, at: at)
        }
        showFavourites()
    }

    // MARK: Fetching

    // What the screen shows while a fetch runs: the last good list, or a spinner; the favourites beside.
    private static func shown(
        whileFetching list: [Recipe]?, savedAt: Int64?, favourites: [Recipe]
    ) -> RecipeListState {
        guard let list, !list.isEmpty, let savedAt else { return .loading(favourites: favourites) }
        return .refreshing(SavedList(recipes: list, savedAt: savedAt), favourites: favourites)
    }

    private func fetch() async -> RecipeListState {
        generation += 1
        let mine = generation
        let before = state
        state = Self.shown(whileFetching: lastGoodList, savedAt: lastGoodSavedAt, favourites: favourites)
        let outcome = await fetchWithRetries()
        guard mine == generation else {
            // A later fetch started meanwhile and owns `state` and the saved list; this answer is older.
            return state
        }
        switch outcome {
        case .success(let recipes):
            remember(recipes)
            state = recipes.isEmpty ? .empty(favourites: favourites) : .loaded(recipes, favourites: favourites)
        case .failure(.transport(.cancelled)):
            // Whoever cancelled did not want an answer, so there is no error to show either.
            state = before.showing(favourites: favourites)
        case .failure(let error):
            if let lastGoodList, !lastGoodList.isEmpty {
                state = .failedWithLastGood(
                    SavedList(recipes: lastGoodList, savedAt: lastGoodSavedAt ?? 0), error.userMessage,
                    favourites: favourites)
            } else {
                state = .failed(error.userMessage, favourites: favourites)
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
        let at = now()
        lastGoodSavedAt = at
        // Encoding strings and URLs cannot fail. A failed save leaves the previous list saved; the
        // new one is still on screen and in memory, so there is nothing to show the user.
        if let json = try? Self.encoder.encode(RecipeList(recipes: recipes)) {
            try? store.saveLastGoodList([UInt8](json), at: at)
        }
    }

    // The state on screen shows the favourites as they are now.
    private func showFavourites() {
        state = state.showing(favourites: favourites)
    }

    // MARK: Encoding

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    private static func encode(_ recipe: Recipe) -> [UInt8] {
        // Encoding strings and URLs cannot fail.
        (try? [UInt8](encoder.encode(recipe))) ?? []
    }

    private static func decode(_ favourite: StoredFavourite) -> Recipe? {
        try? JSONDecoder().decode(Recipe.self, from: Data(favourite.json))
    }
}

extension Recipe {
    /// The recipe's photo URLs as the image pipeline keys them: small, then large.
    public var photoURLStrings: [String] {
        [photoURLSmall, photoURLLarge].compactMap { $0 }.map(\.absoluteString)
    }
}
