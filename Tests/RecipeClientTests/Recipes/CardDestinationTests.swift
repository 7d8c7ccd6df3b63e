import Foundation
import Testing

@testable import RecipeClient

/// Where a tap on a recipe's card leads, from the links the recipe has.
@Suite("Card destination")
struct CardDestinationTests {
    static let source = URL(string: "https://example.test/source/1")!
    static let video = URL(string: "https://www.youtube.com/watch?v=1")!

    func makeRecipe(source: URL? = nil, video: URL? = nil) -> Recipe {
        Recipe(cuisine: "British", name: "Bakewell Tart", sourceURL: source, uuid: "u-1", youtubeURL: video)
    }

    @Test func recipeWithAVideoOpensTheDetail() {
        #expect(makeRecipe(video: Self.video).cardDestination == .detail)
    }

    @Test func recipeWithAVideoAndASourceStillOpensTheDetail() {
        #expect(makeRecipe(source: Self.source, video: Self.video).cardDestination == .detail)
    }

    @Test func recipeWithOnlyASourceOpensTheSource() {
        #expect(makeRecipe(source: Self.source).cardDestination == .source(Self.source))
    }

    @Test func recipeWithNeitherLinkCannotBeTapped() {
        #expect(makeRecipe().cardDestination == CardDestination.none)
    }

    @Test(.enabled(if: Fixtures.available))
    func theLiveAPIOpensSixtyTwoDetailsAndOneSource() throws {
        // Given the 63 recipes of the real API
        let recipes = try URLSessionRecipeService.decode(Fixtures.data("recipes.json"))

        // When each card's destination is taken
        let destinations = recipes.map(\.cardDestination)

        // Then every recipe with a video opens its detail, the one without opens its source page,
        // and no card is dead
        #expect(destinations.filter { $0 == .detail }.count == 62)
        let sources = recipes.filter { if case .source = $0.cardDestination { true } else { false } }
        #expect(sources.map(\.name) == ["Peanut Butter Cookies"])
        #expect(
            sources.first?.cardDestination
                == .source(URL(string: "https://tasty.co/recipe/3-ingredient-peanut-butter-cookies")!))
        #expect(destinations.filter { $0 == CardDestination.none }.count == 0)
    }
}
