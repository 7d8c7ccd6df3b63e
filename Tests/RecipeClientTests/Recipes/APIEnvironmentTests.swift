import Foundation
import Testing

@testable import RecipeClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("API environments")
struct APIEnvironmentTests {
    @Test func productionServesTheThreeRealEndpoints() {
        let production = APIEnvironment.production

        #expect(production.baseURL.absoluteString == "https://d3jbb8n5wk0qxi.cloudfront.net/")
        #expect(production.recipesURL.absoluteString == "https://d3jbb8n5wk0qxi.cloudfront.net/recipes.json")
        #expect(
            production.listing(.malformed).recipesURL.absoluteString
                == "https://d3jbb8n5wk0qxi.cloudfront.net/recipes-malformed.json")
        #expect(
            production.listing(.empty).recipesURL.absoluteString
                == "https://d3jbb8n5wk0qxi.cloudfront.net/recipes-empty.json")
        #expect(production.listing(.malformed).baseURL == production.baseURL)
    }

    @Test func stagingIsAReservedPlaceholderHost() {
        #expect(APIEnvironment.staging.baseURL.host == "staging.example.com")
        #expect(APIEnvironment.staging.recipesURL.absoluteString == "https://staging.example.com/recipes.json")
    }

    @Test func localEnvironmentsPointAtTheFixtureServer() {
        #expect(APIEnvironment.local(port: 8080).recipesURL.absoluteString == "http://127.0.0.1:8080/recipes.json")
        // A fixture server's `baseURL` has no trailing slash; the environment adds one
        let local = APIEnvironment.local(base: URL(string: "http://127.0.0.1:9000")!)
        #expect(local.baseURL.absoluteString == "http://127.0.0.1:9000/")
        #expect(local.recipesURL.absoluteString == "http://127.0.0.1:9000/recipes.json")
        #expect(local == .local(port: 9000))
    }

    @Test func baseWithAPathKeepsItForTheList() {
        let environment = APIEnvironment(baseURL: URL(string: "https://api.example.test/v2")!)

        #expect(environment.baseURL.absoluteString == "https://api.example.test/v2/")
        #expect(environment.recipesURL.absoluteString == "https://api.example.test/v2/recipes.json")
    }

    @Test func serviceForAnEnvironmentFetchesItsListAndResolvesPhotosAgainstItsBase() {
        let service = URLSessionRecipeService(environment: .production.listing(.empty))

        #expect(service.url.absoluteString == "https://d3jbb8n5wk0qxi.cloudfront.net/recipes-empty.json")
        #expect(service.photoBase == APIEnvironment.production.baseURL)
    }

    @Test func serviceForAURLResolvesPhotosAgainstThatURL() {
        let url = URL(string: "https://example.test/api/recipes.json")!

        #expect(URLSessionRecipeService(url: url).photoBase == url)
        #expect(URLSessionRecipeService(url: url).timeout == .seconds(15))
    }

    @Test func requestCarriesTheServicesTimeout() {
        // Given a service with a 2-second timeout
        let service = URLSessionRecipeService(environment: .local(port: 8080), timeout: .seconds(2))

        // When it builds its request
        let request = service.makeRequest()

        // Then the request times out after 2 seconds and asks for fresh JSON
        #expect(request.timeoutInterval == 2)
        #expect(request.url == URL(string: "http://127.0.0.1:8080/recipes.json"))
        #expect(request.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(request.cachePolicy == .reloadIgnoringLocalCacheData)
    }

    @Test func requestTimeoutDefaultsToFifteenSecondsAndKeepsFractions() {
        #expect(URLSessionRecipeService(environment: .production).makeRequest().timeoutInterval == 15)
        let fraction = URLSessionRecipeService(environment: .production, timeout: .milliseconds(1_500))
        #expect(fraction.makeRequest().timeoutInterval == 1.5)
    }
}
