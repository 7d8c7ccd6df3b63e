/// What the recipe list screen shows. No state hides a list the model has: a fetch runs over the
/// list on screen, and a failure shows the last good list, or at least the favourites.
///
/// | state | on screen |
/// |---|---|
/// | `loading` | a spinner: nothing was ever fetched or saved |
/// | `refreshing(list)` | `list.recipes` while a fetch runs (the saved list at launch, with its age; the current list on refresh) |
/// | `loaded(recipes)` | the fetched list |
/// | `empty` | "No Recipes Found": the server answered with no recipes |
/// | `failed(message, favourites)` | the message, and the favourites (none saved and no list to show) |
/// | `failedWithLastGood(list, message, favourites)` | the last good list with its age, the message; the favourites beside |
public enum RecipeListState: Sendable, Equatable {
    case loading
    case refreshing(SavedList)
    case loaded([Recipe])
    /// The server answered with an empty list.
    case empty
    /// The fetch failed and there is no earlier list to show; the message is for people.
    case failed(String, favourites: [Recipe])
    /// The fetch failed; the last good list is shown with the message.
    case failedWithLastGood(SavedList, String, favourites: [Recipe])

    /// The message `.empty` shows.
    public static let emptyMessage = "No Recipes Found"

    /// The recipes on screen: the list shown, or, when a fetch failed with no list, the favourites.
    public var recipes: [Recipe] {
        switch self {
        case .loaded(let recipes): recipes
        case .refreshing(let list), .failedWithLastGood(let list, _, _): list.recipes
        case .failed(_, let favourites): favourites
        case .loading, .empty: []
        }
    }

    /// The message on screen, if any.
    public var message: String? {
        switch self {
        case .loading, .refreshing, .loaded: nil
        case .empty: Self.emptyMessage
        case .failed(let message, _), .failedWithLastGood(_, let message, _): message
        }
    }

    /// Whether a fetch is running.
    public var isFetching: Bool {
        switch self {
        case .loading, .refreshing: true
        case .loaded, .empty, .failed, .failedWithLastGood: false
        }
    }
}
