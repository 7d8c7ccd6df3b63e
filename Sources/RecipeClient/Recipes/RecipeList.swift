/// The recipe API's top-level object: `{"recipes": [...]}`.
///
/// Decoding is all or nothing: one recipe missing a required field fails the whole list.
public struct RecipeList: Codable, Sendable, Equatable {
    public var recipes: [Recipe]

    public init(recipes: [Recipe]) {
        self.recipes = recipes
    }
}
