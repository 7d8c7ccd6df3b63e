import RecipeClient

/// Fetches `origin` URLs from the fixture server: the URL a tier keys an image by stays the
/// app's, the bytes come over loopback.
struct OriginRewritingDownloader: ImageDownloading {
    let base: URLSessionImageDownloader
    let origin: String
    let server: String

    func download(_ url: String) async throws -> [UInt8] {
        guard url.hasPrefix(origin) else { return try await base.download(url) }
        return try await base.download(server + url.dropFirst(origin.count))
    }
}
