import Foundation

/// Where a recipe API lives: a base URL and the path of the recipe list under it.
///
/// The base is what relative photo paths in a list are resolved against (RFC 3986):
/// `photos/abc/small.jpg` lands under the base's path, `/photos/abc/small.jpg` at its host's root.
/// For a base at a host's root (every environment below) the two are the same URL.
///
/// ```swift
/// let service = URLSessionRecipeService(environment: .production)
/// let broken = URLSessionRecipeService(environment: .production.listing(.malformed))
/// let local = URLSessionRecipeService(environment: .local(port: 8080))  // `cachelab serve`
/// ```
///
/// - Invariant: `baseURL` is an absolute http(s) URL with a host whose path ends in `/`;
///   `recipesPath` is relative to it.
public struct APIEnvironment: Sendable, Equatable {
    /// The list endpoints the recipe API serves (and the fixture server imitates).
    public enum Listing: String, Sendable, CaseIterable {
        /// Every recipe: `recipes.json`.
        case recipes = "recipes.json"
        /// The same recipes with `name` missing from three, so decoding fails: `recipes-malformed.json`.
        case malformed = "recipes-malformed.json"
        /// `{"recipes": []}`: `recipes-empty.json`.
        case empty = "recipes-empty.json"
    }

    /// Photo paths resolve against this; always ends in `/`.
    public let baseURL: URL
    /// The recipe list's path relative to `baseURL`, e.g. `recipes.json`.
    public let recipesPath: String

    /// - Parameters:
    ///   - baseURL: an absolute http(s) URL with a host; a `/` is added to its path when missing,
    ///     so that `https://host/api` means the folder `api/`.
    ///   - recipesPath: relative to `baseURL`; a leading `/` would make it relative to the host.
    public init(baseURL: URL, recipesPath: String = Listing.recipes.rawValue) {
        precondition(Recipe.isWebURL(baseURL), "An API base must be an absolute http(s) URL with a host: \(baseURL)")
        precondition(!recipesPath.isEmpty, "The recipe list path must not be empty")
        let base = baseURL.absoluteString
        self.baseURL = base.hasSuffix("/") ? baseURL.absoluteURL : URL(string: base + "/")!
        self.recipesPath = recipesPath
    }

    /// The URL the recipe list is fetched from: `recipesPath` resolved against `baseURL`.
    public var recipesURL: URL {
        guard let url = URL(string: recipesPath, relativeTo: baseURL) else {
            preconditionFailure("The recipe list path \"\(recipesPath)\" is not a URL path")
        }
        return url.absoluteURL
    }

    /// The same base with `listing` as the recipe list path.
    public func listing(_ listing: Listing) -> APIEnvironment {
        APIEnvironment(baseURL: baseURL, recipesPath: listing.rawValue)
    }

    /// The public recipe API (CloudFront).
    public static let production = APIEnvironment(baseURL: URL(string: "https://d3jbb8n5wk0qxi.cloudfront.net/")!)

    /// A placeholder for a staging deployment: `example.com` is reserved (RFC 2606) and serves no
    /// recipes. Replace it with `APIEnvironment(baseURL:)` once there is a real staging host.
    public static let staging = APIEnvironment(baseURL: URL(string: "https://staging.example.com/")!)

    /// A fixture server on this machine (`cachelab serve --port port`): `http://127.0.0.1:<port>/`.
    public static func local(port: Int) -> APIEnvironment {
        precondition((1...65_535).contains(port), "A local port must be 1...65535, not \(port)")
        return local(base: URL(string: "http://127.0.0.1:\(port)/")!)
    }

    /// A fixture server at `base`, e.g. an in-process `FixtureServer`'s `baseURL`.
    public static func local(base: URL) -> APIEnvironment {
        APIEnvironment(baseURL: base)
    }
}
