import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Why a recipe fetch failed.
public enum RecipeServiceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No response arrived: URLSession failed with this code (offline, timed out, reset, ...).
    case transport(URLError.Code)
    /// The server answered with a status outside 200...299.
    case httpStatus(Int)
    /// The body is not a recipe list; `detail` says where (see `DecodingError.summary`).
    case malformedPayload(detail: String)
    /// The server answered 2xx with no bytes at all.
    case emptyBody

    public var description: String {
        switch self {
        case .transport(let code):
            "The recipe request failed before a response arrived (URLError code \(code.rawValue))."
        case .httpStatus(let status):
            "The recipe server answered with HTTP status \(status)."
        case .malformedPayload(let detail):
            "The recipe list could not be decoded: \(detail)."
        case .emptyBody:
            "The recipe server answered with an empty body."
        }
    }

    /// Whether trying again may help: transport failures (except cancellation) and 5xx answers.
    /// A 4xx or a payload that does not decode will be the same next time.
    public var isRetryable: Bool {
        switch self {
        case .transport(let code): code != .cancelled
        case .httpStatus(let status): (500...599).contains(status)
        case .malformedPayload, .emptyBody: false
        }
    }

    /// A sentence to show a person, without codes or decoding paths.
    public var userMessage: String {
        switch self {
        case .transport(.notConnectedToInternet), .transport(.networkConnectionLost):
            "You appear to be offline. Check your connection and try again."
        case .transport(.timedOut):
            "The recipe server took too long to answer. Please try again."
        case .transport:
            "We couldn't reach the recipe server. Please try again."
        case .httpStatus(let status) where (500...599).contains(status):
            "The recipe server is having trouble right now. Please try again later."
        case .httpStatus:
            "We couldn't load recipes from the server. Please try again later."
        case .malformedPayload, .emptyBody:
            "We received recipes we couldn't read. Please try again later."
        }
    }
}
