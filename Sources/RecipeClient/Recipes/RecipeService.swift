/// Fetches the recipe list.
///
/// One call is one fetch: no retries and no caching (retrying is the list model's job). The list
/// comes back in the order the API sends it; an empty list is a success, not an error.
public protocol RecipeService: Sendable {
    func fetchRecipes() async throws(RecipeServiceError) -> [Recipe]
}
