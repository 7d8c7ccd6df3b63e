/// The photo a recipe's detail shows: the large one, with the small one standing in while it
/// loads and when it cannot.
public enum DetailPhoto: Sendable, Equatable {
    /// Not asked for yet (or the load was cancelled).
    case idle
    /// The recipe has no photo: the detail shows its placeholder.
    case none
    /// The photo is loading; `placeholder` is the small photo, shown meanwhile when memory holds it.
    case loading(placeholder: [UInt8]?)
    /// The photo on screen: the large one, or the small one for a recipe with no large one.
    case shown([UInt8], large: Bool)
    /// The photo could not be loaded; `fallback` is the small photo, shown instead when it could be.
    case failed(String, fallback: [UInt8]?)

    /// The sentence `.failed` carries.
    public static let failureMessage = "The photo couldn't be loaded. Please try again."

    /// The image bytes on screen, if any: the photo, or the small one standing in.
    public var bytes: [UInt8]? {
        switch self {
        case .shown(let bytes, _): bytes
        case .loading(let placeholder): placeholder
        case .failed(_, let fallback): fallback
        case .idle, .none: nil
        }
    }
}
