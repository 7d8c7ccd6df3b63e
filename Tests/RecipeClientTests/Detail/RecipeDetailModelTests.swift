import ClientModel
import Foundation
import Testing

@testable import RecipeClient

/// The recipe detail: its photo (the small one standing in), favourite toggle and video player.
@Suite("Recipe detail model", .timeLimit(.minutes(1)))
struct RecipeDetailModelTests {
    static let small = "https://cdn.invalid/photos/p1/small.jpg"
    static let large = "https://cdn.invalid/photos/p1/large.jpg"
    static let smallBytes: [UInt8] = [0xFF, 0xD8, 0x01, 0xFF, 0xD9]
    static let largeBytes: [UInt8] = [0xFF, 0xD8, 0x02, 0x02, 0x02, 0xFF, 0xD9]

    static func recipe(
        small: String? = small, large: String? = large, video: String? = "https://www.youtube.com/watch?v=6R8ffRRJcrg"
    ) -> Recipe {
        Recipe(
            cuisine: "British", name: "Bakewell Tart", photoURLLarge: large.flatMap(URL.init(string:)),
            photoURLSmall: small.flatMap(URL.init(string:)), sourceURL: URL(string: "https://example.com/bakewell"),
            uuid: "p1", youtubeURL: video.flatMap(URL.init(string:)))
    }

    /// A detail over a memory-only pipeline downloading through `downloader`, and its list model.
    static func makeDetail(
        _ recipe: Recipe, downloader: HeldDownloader
    ) throws -> (RecipeDetailModel, ImagePipeline, RecipeListModel) {
        let client = ClientConfiguration(
            name: "test", memory: TierConfiguration(policy: .lru, capacity: 1_000_000), disk: nil)
        let images = try ImagePipeline(client: client, store: nil, downloader: downloader, at: 0)
        let server = StubServer()
        server.script(.status(404))
        let list = RecipeListModel(
            service: server.makeService(), store: InMemoryRecipeStore(), images: images, retryPolicy: .never,
            sleep: { _ in }, now: { 1_000 })
        return (RecipeDetailModel(recipe: recipe, list: list, images: images, now: { 1_000 }), images, list)
    }

    @Test func theSmallPhotoStandsInWhileTheLargeOneLoadsThenMemoryShowsItAtOnce() async throws {
        // Given a list that has shown the small photo, and a large photo that downloads slowly
        let downloader = HeldDownloader([Self.small: .success(Self.smallBytes), Self.large: .success(Self.largeBytes)])
        downloader.hold(Self.large)
        let (detail, images, list) = try Self.makeDetail(Self.recipe(), downloader: downloader)
        _ = try await images.image(for: Self.small, at: 1_000)

        // When the detail opens, the small photo shows while the large one downloads
        let load = Task { await detail.loadPhoto() }
        await downloader.waitForRequest(of: Self.large)
        #expect(await detail.photo == .loading(placeholder: Self.smallBytes))

        // Then the large one replaces it
        downloader.release(Self.large)
        #expect(await load.value == .shown(Self.largeBytes, large: true))

        // And a detail opened again shows it from memory, downloading nothing
        let again = RecipeDetailModel(recipe: Self.recipe(), list: list, images: images, now: { 2_000 })
        #expect(await again.loadPhoto() == .shown(Self.largeBytes, large: true))
        #expect(downloader.requests == [Self.small, Self.large])
    }

    @Test func aLargePhotoThatFailsShowsTheSmallOneWithTheMessage() async throws {
        // Given a large photo the server answers with 500, and a small one memory does not hold
        let downloader = HeldDownloader([
            Self.small: .success(Self.smallBytes), Self.large: .failure(.httpStatus(url: Self.large, status: 500)),
        ])
        let (detail, _, _) = try Self.makeDetail(Self.recipe(), downloader: downloader)

        // When the detail loads its photo
        let photo = await detail.loadPhoto()

        // Then the small one is fetched and shown with the message
        #expect(photo == .failed(DetailPhoto.failureMessage, fallback: Self.smallBytes))
        #expect(photo.bytes == Self.smallBytes)
        #expect(downloader.requests == [Self.large, Self.small])
    }

    @Test func withNeitherPhotoTheFailureShowsOnlyTheMessage() async throws {
        let downloader = HeldDownloader([Self.large: .failure(.transport(url: Self.large, code: .timedOut))])
        let (detail, _, _) = try Self.makeDetail(Self.recipe(small: nil), downloader: downloader)
        #expect(await detail.loadPhoto() == .failed(DetailPhoto.failureMessage, fallback: nil))
    }

    @Test func aRecipeWithOnlyASmallPhotoShowsItAndOneWithNoneShowsThePlaceholder() async throws {
        let downloader = HeldDownloader([Self.small: .success(Self.smallBytes)])
        let (onlySmall, _, _) = try Self.makeDetail(Self.recipe(large: nil), downloader: downloader)
        #expect(await onlySmall.loadPhoto() == .shown(Self.smallBytes, large: false))

        let (noPhoto, _, _) = try Self.makeDetail(Self.recipe(small: nil, large: nil), downloader: downloader)
        #expect(await noPhoto.photo == .idle)
        #expect(await noPhoto.loadPhoto() == DetailPhoto.none)
        #expect(downloader.requests == [Self.small])
    }

    @Test func theFavouriteToggleChangesTheListsFavouritesAndPins() async throws {
        // Given a detail whose photos memory holds
        let downloader = HeldDownloader([Self.small: .success(Self.smallBytes), Self.large: .success(Self.largeBytes)])
        let (detail, images, list) = try Self.makeDetail(Self.recipe(), downloader: downloader)
        _ = await detail.loadPhoto()
        _ = try await images.image(for: Self.small, at: 1_000)
        #expect(await detail.isFavourite() == false)

        // When the person toggles the favourite on
        #expect(await detail.toggleFavourite() == true)

        // Then the list has it, on screen too, and both photos are pinned
        #expect(await list.favourites == [Self.recipe()])
        #expect(await list.state.favourites == [Self.recipe()])
        #expect(await images.holdings.memoryPinnedBytes == Self.smallBytes.count + Self.largeBytes.count)

        // And toggled off, it is gone and unpinned
        #expect(await detail.toggleFavourite() == false)
        #expect(await list.favourites.isEmpty)
        #expect(await detail.isFavourite() == false)
        #expect(await images.holdings.memoryPinnedBytes == 0)
    }

    @Test func theTextAndLinksComeFromTheRecipe() throws {
        let (detail, _, _) = try Self.makeDetail(Self.recipe(), downloader: HeldDownloader([:]))
        #expect(detail.name == "Bakewell Tart" && detail.cuisine == "British")
        #expect(detail.sourceURL?.absoluteString == "https://example.com/bakewell")
        #expect(detail.video.video?.id == "6R8ffRRJcrg")
    }

    @Test func thePlayerLoadsPlaysAndFailsAsTheAppReports() async throws {
        let (detail, _, _) = try Self.makeDetail(Self.recipe(), downloader: HeldDownloader([:]))
        #expect(await detail.player == .idle)
        #expect(await detail.playVideo() == .loading)
        await detail.videoStarted()
        #expect(await detail.player == .playing)

        // The owner forbids embedding (YouTube's 150): the detail offers the watch URL
        await detail.videoFailed(VideoPlayerError(youTubeCode: 150))
        #expect(await detail.player == .failed(.notEmbeddable))
        #expect(VideoPlayerError.notEmbeddable.canWatchOnYouTube)

        // A retry loads again; offline it fails with the network message
        #expect(await detail.playVideo() == .loading)
        await detail.videoFailed(.network)
        #expect(await detail.player == .failed(.network))
        #expect(VideoPlayerError.network.userMessage.contains("connection"))
        #expect(VideoPlayerError(youTubeCode: 100) == .unavailable)
        #expect(VideoPlayerError(youTubeCode: 5) == .player(code: 5))
    }

    @Test func withoutAVideoThePlayerStaysIdleAndTheDetailSaysSo() async throws {
        for link in [nil, "https://vimeo.com/123"] {
            let (detail, _, _) = try Self.makeDetail(Self.recipe(video: link), downloader: HeldDownloader([:]))
            #expect(detail.video.message == RecipeVideo.noVideoMessage)
            #expect(await detail.playVideo() == .idle)
            await detail.videoStarted()
            #expect(await detail.player == .idle)
        }
    }
}

/// Answers downloads from a table, in the order asked, each at once or when the test releases it.
final class HeldDownloader: ImageDownloading, @unchecked Sendable {
    private let table: [String: Result<[UInt8], ImageLoadingError>]
    private let lock = NSLock()
    private var held: Set<String> = []
    private var waiting: [String: CheckedContinuation<Void, Never>] = [:]
    private var watchers: [String: CheckedContinuation<Void, Never>] = [:]
    private var asked: [String] = []

    init(_ table: [String: Result<[UInt8], ImageLoadingError>]) {
        self.table = table
    }

    /// The URLs downloaded so far, in order.
    var requests: [String] {
        lock.lock()
        defer { lock.unlock() }
        return asked
    }

    /// Makes the download of `url` wait for `release(_:)`.
    func hold(_ url: String) {
        lock.lock()
        held.insert(url)
        lock.unlock()
    }

    func release(_ url: String) {
        lock.lock()
        held.remove(url)
        let continuation = waiting.removeValue(forKey: url)
        lock.unlock()
        continuation?.resume()
    }

    /// Returns once the download of `url` has been asked for.
    func waitForRequest(of url: String) async {
        await withCheckedContinuation { continuation in
            lock.lock()
            if asked.contains(url) {
                lock.unlock()
                continuation.resume()
            } else {
                watchers[url] = continuation
                lock.unlock()
            }
        }
    }

    func download(_ url: String) async throws -> [UInt8] {
        await withCheckedContinuation { continuation in
            lock.lock()
            asked.append(url)
            let watcher = watchers.removeValue(forKey: url)
            if held.contains(url) {
                waiting[url] = continuation
                lock.unlock()
            } else {
                lock.unlock()
                continuation.resume()
            }
            watcher?.resume()
        }
        guard let answer = table[url] else { throw ImageLoadingError.httpStatus(url: url, status: 404) }
        return try answer.get()
    }
}
