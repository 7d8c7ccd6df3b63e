/// What the recipe list screen shows. No state hides what the model has: a fetch runs over the
/// list on screen, a failure shows the last good list, and every state carries the favourites,
/// shown beside the list (or alone when there is none).
///
/// | state | on screen (`list`, and `favourites` in every state) |
/// |---|---|
/// | `loading` | a spinner: no list was ever fetched or saved (at launch, or retrying after `failed`) |
/// | `refreshing(list)` | `list.recipes` while a fetch runs (the saved list at launch, with its age; the current list on refresh) |
/// | `loaded(recipes)` | the fetched list |
/// | `empty` | "No Recipes Found": the server answered with no recipes |
/// | `failed(message)` | the message: the fetch failed and there is no list to show |
/// | `failedWithLastGood(list, message)` | the last good list with its age, and the message |
public enum RecipeListState: Sendable, Equatable {
    case loading(favourites: [Recipe])
    case refreshing(SavedList, favourites: [Recipe])
    case loaded([Recipe], favourites: [Recipe])
    /// The server answered with an empty list.
    case empty(favourites: [Recipe])
    /// The fetch failed and there is no earlier list to show; the message is for people.
    case failed(String, favourites: [Recipe])
    /// The fetch failed; the last good list is shown with the message.
    case failedWithLastGood(SavedList, String, favourites: [Recipe])

    /// The message `.empty` shows.
    public static let emptyMessage = "No Recipes Found"

    /// The list on screen: fetched, saved or last good; none while loading, when empty or failed.
    public var list: [Recipe] {
        switch self {
        case .loaded(let recipes, _): recipes
        case .refreshing(let list, _), .failedWithLastGood(let list, _, _): list.recipes
        case .loading, .empty, .failed: []
        }
    }

    /// The person's favourites, oldest first: on screen in every state, whether or not the list
    /// has them (a favourite the server no longer lists is still one).
    public var favourites: [Recipe] {
        switch self {
        case .loading(let favourites), .refreshing(_, let favourites), .loaded(_, let favourites),
            .empty(let favourites), .failed(_, let favourites), .failedWithLastGood(_, _, let favourites):
            favourites
        }
    }

    /// Every recipe on screen, each once: `list`, then the favourites it does not have. With no
    /// list (loading, empty, failed) that is the favourites.
    public var recipes: [Recipe] {
        let list = self.list
        let listed = Set(list.map(\.uuid))
        return list + favourites.filter { !listed.contains($0.uuid) }
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

    /// The same state showing `favourites` instead.
    func showing(favourites: [Recipe]) -> RecipeListState {
        switch self {
        case .loading: .loading(favourites: favourites)
        case .refreshing(let list, _): .refreshing(list, favourites: favourites)
        case .loaded(let recipes, _): .loaded(recipes, favourites: favourites)
        case .empty: .empty(favourites: favourites)
        case .failed(let message, _): .failed(message, favourites: favourites)
        case .failedWithLastGood(let list, let message, _):
            .failedWithLastGood(list, message, favourites: favourites)
        }
    }
}
