import FixtureServer
import Foundation
import Testing

@testable import RecipeClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The recipe service for a `local` environment against an in-process fixture server over
/// loopback whose lists give photo URLs as relative paths.
@Suite("Recipes from a local fixture server", .timeLimit(.minutes(1)))
struct LocalServerRecipeTests {
    typealias F = ImageFixtures

    /// A fixture server configuration over the generated catalog, photo paths relative.
    static func makeConfiguration() -> FixtureConfiguration {
        var configuration = F.makeConfiguration()
        configuration.relativePhotoPaths = true
        return configuration
    }

    @Test func relativePhotoPathsComeBackAbsoluteOnTheServerAndAPhotoLoads() async throws {
        try await F.withStorePath { path in
            try await F.withServer(Self.makeConfiguration()) { server in
                // Given a service for the local environment of a server whose lists give relative photo paths
                let environment = APIEnvironment.local(base: try #require(URL(string: server.baseURL)))
                let service = URLSessionRecipeService(environment: environment, timeout: .seconds(5))

                // When it fetches the list
                let list = try await service.fetchRecipeList()

                // Then every recipe has both photos, as absolute URLs on the server, and nothing was dropped
                #expect(list.recipes.count == server.catalog.recipes.count)
                #expect(list.droppedFields == 0)
                for (recipe, served) in zip(list.recipes, server.catalog.recipes) {
                    #expect(recipe.uuid == served.uuid)
                    #expect(recipe.photoURLSmall?.absoluteString == server.baseURL + served.smallPhoto.path)
                    #expect(recipe.photoURLLarge?.absoluteString == server.baseURL + served.largePhoto.path)
                    for url in [recipe.photoURLSmall, recipe.photoURLLarge] {
                        #expect(url?.scheme == "http" && url?.host == "127.0.0.1" && url?.port == server.port)
                        #expect(url?.baseURL == nil)
                    }
                }

                // And a photo downloads through the image pipeline under that URL
                let first = try #require(list.recipes.first)
                let url = try #require(first.photoURLSmall).absoluteString
                let pipeline = try F.makePipeline(path: path)
                let image = try await pipeline.image(for: url, at: 1)
                #expect(image.source == .network)
                #expect(image.bytes == F.bytes(of: server.catalog.recipes[0].smallPhoto))
                #expect(await server.stats()[.smallPhoto].requests == 1)
            }
        }
    }

    @Test func theServersListReallyHoldsRelativePaths() async throws {
        try await F.withServer(Self.makeConfiguration()) { server in
            // Decoded without a base, the photo URLs are as the server wrote them
            let session = URLSession(configuration: URLSessionRecipeService.makeConfiguration())
            let (data, _) = try await session.data(from: try #require(URL(string: server.baseURL + "/recipes.json")))
            let recipes = try URLSessionRecipeService.decode(data)

            #expect(recipes.first?.photoURLSmall == URL(string: server.catalog.recipes[0].smallPhoto.path))
            #expect(recipes.allSatisfy { $0.photoURLSmall?.host == nil && $0.photoURLLarge?.scheme == nil })
        }
    }
}
