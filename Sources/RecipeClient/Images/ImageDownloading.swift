/// Fetches one image's bytes from the network, whole or not at all.
public protocol ImageDownloading: Sendable {
    /// The complete bytes at `url`.
    ///
    /// - Throws: `ImageLoadingError` when the response is not a whole image (bad status, short
    ///   body, wrong length, cut short), `CancellationError` when the task was cancelled.
    func download(_ url: String) async throws -> [UInt8]
}
