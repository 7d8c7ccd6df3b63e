import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Why an image could not be loaded. Every failure reaches the caller as one of these (or as
/// `CancellationError`); nothing of a failed download is stored in any tier.
public enum ImageLoadingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL string is not a URL.
    case invalidURL(String)
    /// No complete response arrived: URLSession failed with this code (reset, timed out, ...).
    case transport(url: String, code: URLError.Code)
    /// The server answered with a status other than 200.
    case httpStatus(url: String, status: Int)
    /// The body's length is not the `Content-Length` the server announced.
    case incomplete(url: String, expected: Int, received: Int)
    /// The body is not a whole image: no known format, or its end marker is missing (cut short).
    case notAnImage(url: String, bytes: Int)

    public var description: String {
        switch self {
        case .invalidURL(let url):
            "\(url) is not a URL."
        case .transport(let url, let code):
            "Downloading \(url) failed before the whole response arrived (URLError code \(code.rawValue))."
        case .httpStatus(let url, let status):
            "The server answered \(url) with HTTP status \(status)."
        case .incomplete(let url, let expected, let received):
            "\(url): the server announced \(expected) bytes but sent \(received)."
        case .notAnImage(let url, let bytes):
            "\(url): the \(bytes) bytes received are not a whole JPEG, PNG, GIF or WebP image."
        }
    }
}
