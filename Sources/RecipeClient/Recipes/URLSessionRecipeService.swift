import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fetches the recipe list with `URLSession` (async/await), bypassing any HTTP cache.
///
/// Each request gives up after `timeout` (URLSession's own default is 60 seconds). Relative photo
/// paths in the list are resolved against `photoBase`, so every photo URL the service returns is
/// absolute and can key the image pipeline as it is.
public struct URLSessionRecipeService: RecipeService {
    /// The recipe list's URL.
    public let url: URL
    /// What relative photo paths are resolved against.
    public let photoBase: URL
    /// How long a request may wait for data before it fails with `.transport(.timedOut)`.
    public let timeout: Duration
    public let session: URLSession

    /// A service for the list of `environment`, resolving photo paths against its base.
    ///
    /// - Parameters:
    ///   - environment: the API to read the list from.
    ///   - timeout: must be positive.
    ///   - session: defaults to a session on `makeConfiguration()`.
    public init(
        environment: APIEnvironment,
        timeout: Duration = .seconds(15),
        session: URLSession = URLSession(configuration: Self.makeConfiguration())
    ) {
        self.init(url: environment.recipesURL, photoBase: environment.baseURL, timeout: timeout, session: session)
    }

    /// A service for the list at `url`.
    ///
    /// - Parameters:
    ///   - url: the list's address.
    ///   - photoBase: what relative photo paths resolve against; by default `url` itself, as a
    ///     browser resolves links in a page (the same as its folder for paths like `photos/...`).
    ///   - timeout: must be positive.
    ///   - session: defaults to a session on `makeConfiguration()`.
    public init(
        url: URL,
        photoBase: URL? = nil,
        timeout: Duration = .seconds(15),
        session: URLSession = URLSession(configuration: Self.makeConfiguration())
    ) {
        precondition(timeout > .zero, "A request timeout must be positive, not \(timeout)")
        self.url = url
        self.photoBase = photoBase ?? url
        self.timeout = timeout
        self.session = session
    }

    /// The configuration its default session runs on: `URLSessionConfiguration.uncached()`, so
    /// the recipe list always comes from the network.
    public static func makeConfiguration() -> URLSessionConfiguration { .uncached() }

    /// The request one fetch sends: a GET of `url` accepting JSON, ignoring cached data, timing
    /// out after `timeout`.
    public func makeRequest() -> URLRequest {
        var request = URLRequest(url: url)
        request.cachePolicy = .reloadIgnoringLocalCacheData
        request.timeoutInterval = Self.seconds(timeout)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        return request
    }

    public func fetchRecipes() async throws(RecipeServiceError) -> [Recipe] {
        try await fetchRecipeList().recipes
    }

    /// Fetches the list with what its decoding dropped (`RecipeList.dropped`).
    public func fetchRecipeList() async throws(RecipeServiceError) -> RecipeList {
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: makeRequest())
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
        return try Self.decodeList(data, photoBase: photoBase)
    }

    /// Decodes a response body into recipes, mapping failures to `RecipeServiceError`.
    ///
    /// - Parameters:
    ///   - data: the response body.
    ///   - photoBase: what relative photo paths resolve against; without one they stay relative.
    public static func decode(_ data: Data, photoBase: URL? = nil) throws(RecipeServiceError) -> [Recipe] {
        try decodeList(data, photoBase: photoBase).recipes
    }

    /// Decodes a response body into a recipe list, with the optional fields it dropped.
    ///
    /// - Parameters:
    ///   - data: the response body.
    ///   - photoBase: what relative photo paths resolve against; without one they stay relative.
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

    private static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
