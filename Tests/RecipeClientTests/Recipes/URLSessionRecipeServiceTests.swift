import Foundation
import Testing

@testable import RecipeClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// These go through URLSession's real loading path; `StubURLProtocol` answers instead of a socket.
@Suite("URLSession recipe service")
struct URLSessionRecipeServiceTests {
    @Test func configurationBypassesTheHTTPCache() {
        let configuration = URLSessionRecipeService.makeConfiguration()

        #expect(configuration.urlCache == nil)
        #expect(configuration.requestCachePolicy == .reloadIgnoringLocalCacheData)
    }

    @Test(.enabled(if: Fixtures.available))
    func fetchesTheLiveFixture() async throws {
        let server = StubServer()
        server.script(.ok(try Fixtures.data("recipes.json")))

        let recipes = try await server.makeService().fetchRecipes()

        #expect(recipes.count == 63)
        #expect(server.requestCount() == 1)
    }

    @Test func fetchesASmallList() async throws {
        let server = StubServer()
        server.script(.ok(Fixtures.twoRecipesJSON))

        #expect(try await server.makeService().fetchRecipes() == Fixtures.twoRecipes)
    }

    @Test(arguments: [404, 500, 503, 304])
    func reportsAStatusOutside2xx(_ status: Int) async {
        let server = StubServer()
        server.script(.status(status))

        await #expect(throws: RecipeServiceError.httpStatus(status)) {
            try await server.makeService().fetchRecipes()
        }
    }

    @Test(arguments: [URLError.Code.notConnectedToInternet, .timedOut, .networkConnectionLost])
    func reportsATransportFailureWithItsCode(_ code: URLError.Code) async {
        let server = StubServer()
        server.script(.failure(code))

        await #expect(throws: RecipeServiceError.transport(code)) {
            try await server.makeService().fetchRecipes()
        }
    }

    @Test func reportsAnEmptyBody() async {
        let server = StubServer()
        server.script(.ok(Data()))

        await #expect(throws: RecipeServiceError.emptyBody) {
            try await server.makeService().fetchRecipes()
        }
    }

    @Test(.enabled(if: Fixtures.available))
    func reportsTheMalformedFixture() async throws {
        let server = StubServer()
        server.script(.ok(try Fixtures.data("recipes-malformed.json")))

        await #expect(throws: RecipeServiceError.malformedPayload(detail: "missing key \"name\" at recipes[1]")) {
            try await server.makeService().fetchRecipes()
        }
    }

    @Test func describesEachErrorInOneSentence() {
        let errors: [RecipeServiceError] = [
            .transport(.timedOut), .httpStatus(500), .malformedPayload(detail: "missing key \"name\" at recipes[1]"),
            .emptyBody,
        ]
        for error in errors {
            #expect(error.description.hasSuffix("."))
            #expect(!error.description.contains("\n"))
            #expect(error.userMessage.hasSuffix("."))
            #expect(!error.userMessage.contains("recipes["))
        }
        #expect(
            RecipeServiceError.malformedPayload(detail: "missing key \"name\" at recipes[1]").description
                == "The recipe list could not be decoded: missing key \"name\" at recipes[1]."
        )
    }
}
