import Foundation
import Testing

@testable import RecipeClient

@Suite("Recipe decoding")
struct RecipeDecodingTests {
    private func decode(_ data: Data) throws -> [Recipe] {
        try JSONDecoder().decode(RecipeList.self, from: data).recipes
    }

    @Test(.enabled(if: Fixtures.available))
    func decodesAllSixtyThreeRecipesOfTheLiveAPI() throws {
        let recipes = try decode(Fixtures.data("recipes.json"))

        #expect(recipes.count == 63)
        #expect(Set(recipes.map(\.id)).count == 63)
        #expect(recipes.first?.name == "Apam Balik")
        #expect(recipes.first?.cuisine == "Malaysian")
    }

    @Test(.enabled(if: Fixtures.available))
    func leavesMissingOptionalURLsNil() throws {
        let recipes = try decode(Fixtures.data("recipes.json"))

        #expect(recipes.filter { $0.sourceURL == nil }.count == 5)
        #expect(recipes.filter { $0.youtubeURL == nil }.count == 1)
    }

    @Test(.enabled(if: Fixtures.available))
    func countsCuisinesAsTheFixturesReadmeDoes() throws {
        let recipes = try decode(Fixtures.data("recipes.json"))

        let counts = Dictionary(recipes.map { ($0.cuisine, 1) }, uniquingKeysWith: +)
        #expect(
            counts == [
                "British": 27, "American": 14, "French": 6, "Canadian": 5, "Malaysian": 2, "Tunisian": 2,
                "Polish": 2, "Italian": 1, "Greek": 1, "Portuguese": 1, "Russian": 1, "Croatian": 1,
            ]
        )
    }

    @Test(.enabled(if: Fixtures.available))
    func keepsTheMojibakeNameAsSent() throws {
        let recipes = try decode(Fixtures.data("recipes.json"))

        #expect(recipes.contains { $0.name == "Polskie Nale\u{C5}\u{203A}niki (Polish Pancakes)" })
        #expect(recipes.contains { $0.name == "Polskie NaleÅ›niki (Polish Pancakes)" })
    }

    @Test(.enabled(if: Fixtures.available))
    func photoFolderIsNotTheRecipeUUID() throws {
        let recipes = try decode(Fixtures.data("recipes.json"))

        for recipe in recipes {
            let small = try #require(recipe.photoURLSmall)
            let large = try #require(recipe.photoURLLarge)
            let folder = small.deletingLastPathComponent().lastPathComponent
            #expect(folder != recipe.uuid)
            #expect(large.deletingLastPathComponent().lastPathComponent == folder)
            #expect(small.lastPathComponent == "small.jpg")
            #expect(large.lastPathComponent == "large.jpg")
        }
    }

    @Test(.enabled(if: Fixtures.available))
    func failsOnTheMalformedFixtureNamingTheFirstRecipeWithoutAName() throws {
        let data = try Fixtures.data("recipes-malformed.json")

        #expect(throws: RecipeServiceError.malformedPayload(detail: "missing key \"name\" at recipes[1]")) {
            try URLSessionRecipeService.decode(data)
        }
    }

    @Test(.enabled(if: Fixtures.available))
    func decodesTheEmptyFixtureToNoRecipes() throws {
        #expect(try decode(Fixtures.data("recipes-empty.json")) == [])
    }

    @Test(.enabled(if: Fixtures.available))
    func decodesTheOctober2024APIWithItsUppercaseUUIDs() throws {
        let recipes = try decode(Fixtures.data("api-2024-10/recipes.json"))

        #expect(recipes.count == 65)
        let uppercase = recipes.filter { $0.uuid != $0.uuid.lowercased() }
        #expect(
            uppercase.map(\.uuid) == ["499FCE91-80FC-45DE-9F80-6E10928A7D11", "21BA699F-336A-4D57-81CE-254DFDAE7F06"])
        #expect(uppercase.allSatisfy { $0.photoURLSmall?.host == "www.themealdb.com" })
        #expect(throws: RecipeServiceError.self) {
            try URLSessionRecipeService.decode(Fixtures.data("api-2024-10/recipes-malformed.json"))
        }
    }

    @Test func decodesOptionalFieldsAndURLs() throws {
        #expect(try decode(Fixtures.twoRecipesJSON) == Fixtures.twoRecipes)
    }

    @Test(arguments: ["not a url", "", "ftp://example.test/small.jpg", "https://"])
    func dropsAPhotoURLThatIsNotAWebURLAndKeepsTheRecipe(_ string: String) throws {
        // Given a recipe whose small photo URL is `string`
        var object = try #require(JSONSerialization.jsonObject(with: Fixtures.twoRecipesJSON) as? [String: Any])
        var recipes = try #require(object["recipes"] as? [[String: Any]])
        recipes[1]["photo_url_small"] = string
        object["recipes"] = recipes
        let data = try JSONSerialization.data(withJSONObject: object)

        // When it is decoded
        let list = try URLSessionRecipeService.decodeList(data)

        // Then the recipe is kept without a small photo, and the drop names it
        var expected = Fixtures.twoRecipes
        expected[1].photoURLSmall = nil
        #expect(list.recipes == expected)
        #expect(list.dropped.map(\.key) == ["photo_url_small"])
        #expect(list.dropped.map(\.recipeUUID) == [Fixtures.twoRecipes[1].uuid])
    }

    @Test func reportsAWrongTypeWithItsPath() {
        let data = Data(#"{"recipes": [{"cuisine": 7}]}"#.utf8)

        #expect(throws: RecipeServiceError.malformedPayload(detail: "expected String at recipes[0].cuisine")) {
            try URLSessionRecipeService.decode(data)
        }
    }

    @Test func reportsABodyThatIsNotJSON() {
        #expect(throws: RecipeServiceError.malformedPayload(detail: "the body is not valid JSON")) {
            try URLSessionRecipeService.decode(Data("<html>".utf8))
        }
        #expect(throws: RecipeServiceError.emptyBody) {
            try URLSessionRecipeService.decode(Data())
        }
    }

    @Test func encodesUnderTheAPINamesAndLeavesMissingFieldsOut() throws {
        // Given the recipes encoded as the list model saves them
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(RecipeList(recipes: Fixtures.twoRecipes))
        let text = String(decoding: data, as: UTF8.self)

        // Then they use the API's keys, omit nil fields and decode back to the same recipes
        #expect(text.contains(#""photo_url_small":"https://example.test/photos/p1/small.jpg""#))
        #expect(text.components(separatedBy: "source_url").count == 2)
        #expect(try decode(data) == Fixtures.twoRecipes)
    }
}
