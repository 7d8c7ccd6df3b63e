import CacheLab
import ClientModel
import FixtureServer
import Foundation
import Testing

@testable import RecipeClient

/// The favourites' photos against the pin budget: kept on disk whatever the tuned capacity, and
/// a pin the budget refuses reported to the list model.
@Suite("Favourites' photos and the pin budget", .timeLimit(.minutes(2)))
struct FavouritePinBudgetTests {
    typealias F = ImageFixtures

    /// A list model for `server`'s recipes, its store at `path`, with `images`.
    static func makeModel(_ server: FixtureServer, path: String, images: ImagePipeline) throws -> RecipeListModel {
        RecipeListModel(
            service: URLSessionRecipeService(environment: .local(base: URL(string: server.baseURL)!)),
            store: try DiskStore(path: path), images: images, retryPolicy: .never, now: { 1 })
    }

    @Test func withTheRecommendedTiers64FavouritesPhotosStayPinnedOnDiskAcrossARelaunch() async throws {
        try await F.withStorePath { path in
            var configuration = F.makeConfiguration()
            configuration.catalog = .generated(recipes: 64)
            try await F.withServer(configuration) { server in
                // Given the recommended tiers (a disk far smaller than 64 favourites' photos)
                let recommended = ClientConfiguration.recommended
                let images = try ImagePipeline(
                    client: recommended, diskPath: path, downloader: URLSessionImageDownloader(), at: 1)
                let model = try Self.makeModel(server, path: path, images: images)

                // When all 64 recipes are favourited and their photos loaded
                let recipes = await model.load().recipes
                #expect(recipes.count == 64)
                for recipe in recipes {
                    await model.favourite(recipe)
                    for url in recipe.photoURLStrings { _ = try await images.image(for: url, at: 2) }
                }

                // Then every photo is pinned on disk, none refused, beside the disk's capacity
                // (memory pins only what fits its own capacity)
                let photos = Set(recipes.flatMap(\.photoURLStrings))
                let bytes = server.catalog.recipes.reduce(0) { $0 + $1.smallPhoto.size + $1.largePhoto.size }
                let disk = try #require(recommended.disk)
                #expect(bytes > disk.capacity)
                #expect(bytes <= recommended.diskPinBudget)
                #expect(await images.holdings.diskPinnedBytes == bytes)
                #expect(await images.unkeptFavouritePhotos(at: 2).isEmpty)
                #expect(await model.favouritesNotFullyKept() == 0)
                #expect(Set(try F.storedEntries(path: path).filter(\.pinned).map(\.url)) == photos)
            }

            // And after a relaunch, offline, the disk still holds every one of them pinned
            let store = try DiskStore(path: path)
            let wanted = RecipeListModel.favouritePhotoURLs(in: store)
            let relaunched = try ImagePipeline(
                client: .recommended, diskPath: path, downloader: URLSessionImageDownloader(), at: 3,
                favourites: wanted)
            #expect(wanted.count == 128)
            for url in wanted {
                #expect(try await relaunched.image(for: url, at: 4).source == .disk)
            }
            #expect(await relaunched.unkeptFavouritePhotos(at: 4).isEmpty)
            #expect(Set(try F.storedEntries(path: path).filter(\.pinned).map(\.url)) == wanted)
        }
    }

    @Test func aPinPastTheBudgetReachesTheListModel() async throws {
        try await F.withStorePath { path in
            try await F.withServer { server in
                // Given a disk whose pins may hold about one recipe's photos
                let client = ClientConfiguration(
                    name: "tight", memory: nil,
                    disk: TierConfiguration(policy: .lru, capacity: 1_000_000, pinBudget: 160_000))
                let images = try ImagePipeline(
                    client: client, diskPath: path, downloader: URLSessionImageDownloader(), at: 1)
                let model = try Self.makeModel(server, path: path, images: images)
                let recipes = Array(await model.load().recipes.prefix(3))

                // When three recipes are favourited and their photos loaded
                for recipe in recipes {
                    await model.favourite(recipe)
                    for url in recipe.photoURLStrings { _ = try await images.image(for: url, at: 2) }
                }

                // Then the photos past the budget are cached but not kept, and the model says how many favourites
                let unkept = await images.unkeptFavouritePhotos(at: 2)
                let pinned = Set(try F.storedEntries(path: path).filter(\.pinned).map(\.url))
                #expect(!unkept.isEmpty && unkept.isDisjoint(with: pinned))
                #expect(unkept.union(pinned) == Set(recipes.flatMap(\.photoURLStrings)))
                let count = await model.favouritesNotFullyKept()
                #expect(count == recipes.filter { !Set($0.photoURLStrings).isDisjoint(with: unkept) }.count)
                #expect(count >= 1 && count <= 2)
                #expect(await images.holdings.pinRefusals >= unkept.count)
                #expect(RecipeListModel.favouritesNotFullyKeptMessage(count).hasPrefix("\(count) favourite"))

                // And unfavouriting them leaves nothing unkept
                for recipe in recipes { await model.unfavourite(recipe) }
                #expect(await model.favouritesNotFullyKept() == 0)
            }
        }
    }
}
