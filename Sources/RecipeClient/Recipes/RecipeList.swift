/// The recipe API's top-level object: `{"recipes": [...]}`.
///
/// Decoding fails as a whole when a recipe lacks a required field or has one of the wrong type
/// (see `Recipe`); an optional field that cannot be used costs only that field, and is listed in
/// `dropped`.
///
/// `dropped` is what decoding found, not part of the list's value: it is not encoded, and two lists
/// are equal when their recipes are. So a list encoded and decoded again equals the original.
public struct RecipeList: Codable, Sendable, Equatable {
    public var recipes: [Recipe]
    /// The optional fields decoding set to `nil` because their values could not be used, in list
    /// order; empty for a list that was not decoded.
    public var dropped: [DroppedRecipeField]

    /// How many optional fields decoding dropped (`dropped.count`).
    public var droppedFields: Int { dropped.count }

    public init(recipes: [Recipe], dropped: [DroppedRecipeField] = []) {
        self.recipes = recipes
        self.dropped = dropped
    }

    // Only `recipes` is a key: the synthesized `encode(to:)` leaves `dropped` out.
    enum CodingKeys: String, CodingKey {
        case recipes
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var list = try container.nestedUnkeyedContainer(forKey: .recipes)
        var recipes: [Recipe] = []
        var dropped: [DroppedRecipeField] = []
        while !list.isAtEnd {
            let entry = try list.decode(Entry.self)
            recipes.append(entry.recipe)
            dropped += entry.dropped
        }
        self.init(recipes: recipes, dropped: dropped)
    }

    public static func == (lhs: RecipeList, rhs: RecipeList) -> Bool {
        lhs.recipes == rhs.recipes
    }

    // One element of the list: decoded through a type of its own so that the decoder's coding
    // path (`recipes[1]`) is the element's, and its dropped fields come back with it.
    private struct Entry: Decodable {
        var recipe: Recipe
        var dropped: [DroppedRecipeField]

        init(from decoder: any Decoder) throws {
            var dropped: [DroppedRecipeField] = []
            recipe = try Recipe(from: decoder, dropping: &dropped)
            self.dropped = dropped
        }
    }
}
