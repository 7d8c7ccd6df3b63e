import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fetches the recipe list with `URLSession` (async/await), bypassing any HTTP cache.
public struct URLSessionRecipeService: RecipeService {
    public let url: URL
    public let session: URLSession

    /// - Parameter session: defaults to a session on `makeConfiguration()`.
    public init(url: URL, session: URLSession = URLSession(configuration: Self.makeConfiguration())) {
        self.url = url
        self.session = session
    }

    /// An ephemeral configuration with no URL cache that ignores locally cached data.
    ///
    /// On Linux URLCache stores nothing anyway; the settings are those an Apple build needs, so the
    /// recipe list always comes from the network and caching stays the client's own business.
    public static func makeConfiguration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return configuration
    }

    public func fetchRecipes() async throws(RecipeServiceError) -> [Recipe] {
        var request = URLRequest(url: url)
        request.cachePolicy = .reloadIgnoringLocalCacheData
        request.setValue("application/json", forHTTPHeaderField: "Accept")

        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch let error as URLError {
            throw .transport(error.code)
        } catch is CancellationError {
            throw .transport(.cancelled)
        } catch {
            throw .transport(.unknown)
        }

        // Non-HTTP responses (file: URLs) have no status to check.
        if let http = response as? HTTPURLResponse, !(200...299).contains(http.statusCode) {
            throw .httpStatus(http.statusCode)
        }
        return try Self.decode(data)
    }

    /// Decodes a response body into recipes, mapping failures to `RecipeServiceError`.
    public static func decode(_ data: Data) throws(RecipeServiceError) -> [Recipe] {
        guard !data.isEmpty else {
            throw .emptyBody
        }
        do {
            return try JSONDecoder().decode(RecipeList.self, from: data).recipes
        } catch let error as DecodingError {
            throw .malformedPayload(detail: error.summary)
        } catch {
            throw .malformedPayload(detail: "\(error)")
        }
    }
}
