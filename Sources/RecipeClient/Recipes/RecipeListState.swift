/// What the recipe list screen shows.
public enum RecipeListState: Sendable, Equatable {
    case loading
    case loaded([Recipe])
    /// The server answered with an empty list.
    case empty
    /// The fetch failed and there is no earlier list to show; the message is for people.
    case failed(String)
    /// The fetch failed; the last good list is shown with the message.
    case failedWithLastGood([Recipe], String)

    /// The message `.empty` shows.
    public static let emptyMessage = "No Recipes Found"

    /// The recipes on screen: none while loading, empty or failed without a last good list.
    public var recipes: [Recipe] {
        switch self {
        case .loaded(let recipes), .failedWithLastGood(let recipes, _): recipes
        case .loading, .empty, .failed: []
        }
    }

    /// The message on screen, if any.
    public var message: String? {
        switch self {
        case .loading, .loaded: nil
        case .empty: Self.emptyMessage
        case .failed(let message), .failedWithLastGood(_, let message): message
        }
    }
}
