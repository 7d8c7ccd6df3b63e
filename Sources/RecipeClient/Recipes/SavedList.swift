/// A recipe list shown from what was saved, with when it was saved, so the screen can say how
/// old it is ("saved 3 h ago").
public struct SavedList: Sendable, Equatable {
    public var recipes: [Recipe]
    /// When the list was fetched and saved, ms since 1970 (the model's clock).
    public var savedAt: Int64

    public init(recipes: [Recipe], savedAt: Int64) {
        self.recipes = recipes
        self.savedAt = savedAt
    }

    /// How old the list is at `now`, in ms (never negative).
    public func age(at now: Int64) -> Int64 {
        max(now - savedAt, 0)
    }
}
