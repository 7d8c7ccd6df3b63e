import Foundation

/// A recipe's detail screen: its large photo, name, cuisine, source link, favourite state and
/// video, kept in one actor like the list's.
///
/// - **Photo.** `loadPhoto()` shows the large photo at once when memory holds it; otherwise the
///   small one stands in (when memory holds it) while the large one loads through the pipeline.
///   If the large one cannot be loaded, the small one is shown with the message, fetched through
///   the pipeline (memory, disk, network) if memory did not have it.
/// - **Favourite.** Read from and changed through the list model, so the list, its store and the
///   pinned photos agree with the detail.
/// - **Video.** `video` is what the recipe's YouTube link plays (`RecipeVideo`); `player` follows
///   what the app reports of its player: `playVideo()`, `videoStarted()`, `videoFailed(_:)`.
public actor RecipeDetailModel {
    public nonisolated let recipe: Recipe
    /// The video the detail plays, or why there is none.
    public nonisolated let video: RecipeVideo
    /// The photo on screen.
    public private(set) var photo: DetailPhoto = .idle
    /// The video player's state.
    public private(set) var player: VideoPlayerState = .idle

    private let list: RecipeListModel
    private let images: ImagePipeline
    private let now: @Sendable () -> Int64
    // Counts photo loads, so that of two overlapping ones only the later sets `photo`.
    private var generation = 0

    /// - Parameters:
    ///   - recipe: the recipe whose card was tapped.
    ///   - list: the list model that keeps the favourites.
    ///   - images: the pipeline that loads the photos (the list's).
    ///   - now: milliseconds since 1970, the requests' time.
    public init(
        recipe: Recipe, list: RecipeListModel, images: ImagePipeline,
        now: @escaping @Sendable () -> Int64 = { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }
    ) {
        self.recipe = recipe
        self.video = RecipeVideo(link: recipe.youtubeURL)
        self.list = list
        self.images = images
        self.now = now
    }

    public nonisolated var name: String { recipe.name }
    public nonisolated var cuisine: String { recipe.cuisine }
    /// The recipe's page on its source site, if it has one.
    public nonisolated var sourceURL: URL? { recipe.sourceURL }

    // MARK: Favourite

    /// Whether the recipe is a favourite.
    public func isFavourite() async -> Bool {
        await list.isFavourite(recipe.uuid)
    }

    /// Makes the recipe a favourite, or one no more. Returns whether it is one now.
    @discardableResult
    public func toggleFavourite() async -> Bool {
        if await list.isFavourite(recipe.uuid) {
            await list.unfavourite(recipe)
        } else {
            await list.favourite(recipe)
        }
        return await list.isFavourite(recipe.uuid)
    }

    // MARK: Photo

    /// Loads the large photo (the small one for a recipe without a large one). Returns `photo`.
    @discardableResult
    public func loadPhoto() async -> DetailPhoto {
        generation += 1
        let mine = generation
        let small = recipe.photoURLSmall?.absoluteString
        guard let url = (recipe.photoURLLarge ?? recipe.photoURLSmall)?.absoluteString else {
            photo = .none
            return photo
        }
        let large = recipe.photoURLLarge != nil
        let at = now()
        if let cached = try? await images.cachedImage(for: url, at: at) {
            photo = .shown(cached, large: large)
            return photo
        }
        var placeholder: [UInt8]?
        if large, let small {
            placeholder = try? await images.cachedImage(for: small, at: at)
        }
        photo = .loading(placeholder: placeholder)
        let loaded: DetailPhoto
        do {
            loaded = .shown(try await images.image(for: url, at: at).bytes, large: large)
        } catch is CancellationError {
            loaded = .idle
        } catch {
            if placeholder == nil, large, let small, !Task.isCancelled {
                placeholder = try? await images.image(for: small, at: at).bytes
            }
            loaded = .failed(DetailPhoto.failureMessage, fallback: placeholder)
        }
        // A later load owns `photo`.
        if mine == generation { photo = loaded }
        return photo
    }

    // MARK: Video

    /// The person asked to play the video: the player loads it. Nothing happens without a video.
    @discardableResult
    public func playVideo() -> VideoPlayerState {
        if video.video != nil, player != .playing { player = .loading }
        return player
    }

    /// The app's player started playing.
    public func videoStarted() {
        if player == .loading { player = .playing }
    }

    /// The app's player failed (use `VideoPlayerError(youTubeCode:)` for the player's codes).
    public func videoFailed(_ error: VideoPlayerError) {
        if player == .loading || player == .playing { player = .failed(error) }
    }
}
