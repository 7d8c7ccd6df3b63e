import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fetches the recipe list with `URLSession` (async/await), bypassing any HTTP cache.
///
/// Relative photo paths in the list are resolved against `url`, so every photo URL the service
/// returns is absolute and can key the image pipeline as it is.
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
        try await fetchRecipeList().recipes
    }

    /// Fetches the list with what its decoding dropped (`RecipeList.dropped`).
    public func fetchRecipeList() async throws(RecipeServiceError) -> RecipeList {
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
        return try Self.decodeList(data, photoBase: url)
    }

    /// Decodes a response body into recipes, mapping failures to `RecipeServiceError`.
    ///
    /// - Parameter photoBase: what relative photo paths resolve against; without one they stay
    ///   relative.
    public static func decode(_ data: Data, photoBase: URL? = nil) throws(RecipeServiceError) -> [Recipe] {
        try decodeList(data, photoBase: photoBase).recipes
    }

    /// Decodes a response body into a recipe list, with the optional fields it dropped.
    ///
    /// - Parameter photoBase: what relative photo paths resolve against; without one they stay
    ///   relative.
    public static func decodeList(_ data: Data, photoBase: URL? = nil) throws(RecipeServiceError) -> RecipeList {
        guard !data.isEmpty else {
            throw .emptyBody
        }
        let decoder = JSONDecoder()
        if let photoBase {
            decoder.userInfo[.recipePhotoBase] = photoBase
        }
        do {
            return try decoder.decode(RecipeList.self, from: data)
        } catch let error as DecodingError {
            throw .malformedPayload(detail: error.summary)
        } catch {
            throw .malformedPayload(detail: "\(error)")
        }
    }
}
