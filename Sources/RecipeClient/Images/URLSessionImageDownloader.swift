import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Downloads with `URLSession` (async/await), bypassing any HTTP cache, and hands back a body only
/// if the status is 200, its length is the announced `Content-Length`, and it is a whole image
/// (`ImageFormat`).
public struct URLSessionImageDownloader: ImageDownloading {
    public let session: URLSession

    /// - Parameters:
    ///   - connectionsPerHost: how many downloads run at once against one host (Apple's default
    ///     is 6; a live replay on loopback uses more).
    ///   - timeout: seconds without data before a download fails.
    public init(connectionsPerHost: Int = 6, timeout: TimeInterval = 30) {
        let configuration = URLSessionConfiguration.uncached()
        configuration.httpMaximumConnectionsPerHost = connectionsPerHost
        configuration.timeoutIntervalForRequest = timeout
        self.session = URLSession(configuration: configuration)
    }

    public init(session: URLSession) {
        self.session = session
    }

    public func download(_ url: String) async throws -> [UInt8] {
        guard let location = URL(string: url) else { throw ImageLoadingError.invalidURL(url) }
        var request = URLRequest(url: location)
        request.cachePolicy = .reloadIgnoringLocalCacheData
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch let error as URLError {
            if error.code == .cancelled { throw CancellationError() }
            throw ImageLoadingError.transport(url: url, code: error.code)
        }
        try Task.checkCancellation()
        guard let http = response as? HTTPURLResponse else {
            throw ImageLoadingError.transport(url: url, code: .badServerResponse)
        }
        guard http.statusCode == 200 else { throw ImageLoadingError.httpStatus(url: url, status: http.statusCode) }
        if http.expectedContentLength >= 0, http.expectedContentLength != data.count {
            throw ImageLoadingError.incomplete(
                url: url, expected: Int(http.expectedContentLength), received: data.count)
        }
        let bytes = [UInt8](data)
        guard ImageFormat.whole(bytes) != nil else { throw ImageLoadingError.notAnImage(url: url, bytes: bytes.count) }
        return bytes
    }
}
