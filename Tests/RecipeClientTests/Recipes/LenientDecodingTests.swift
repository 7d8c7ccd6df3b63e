import Foundation
import Testing

@testable import RecipeClient

/// Variants of the real `recipes.json`, each with one recipe's JSON changed: a problem in an
/// optional field costs that field, a problem in a required field fails the list.
@Suite("Lenient recipe decoding")
struct LenientDecodingTests {
    /// The recipe the variants change: Blackberry Fool, which has all seven fields.
    static let changed = 7

    /// The real list, decoded as it is.
    func original() throws -> [Recipe] {
        try URLSessionRecipeService.decode(Fixtures.data("recipes.json"))
    }

    /// The real list with the changed recipe's `key` set to `value` (`nil` removes the key).
    func variant(_ key: String, _ value: Any?) throws -> Data {
        try Fixtures.liveVariant { recipes in
            recipes[Self.changed][key] = value
        }
    }

    static let optionalKeys = ["photo_url_large", "photo_url_small", "source_url", "youtube_url"]

    @Test(.enabled(if: Fixtures.available))
    func missingSmallPhotoLeavesItNilAndKeepsEveryRecipe() throws {
        // Given the real list with one recipe's small photo left out
        let data = try variant("photo_url_small", nil)

        // When it is decoded
        let list = try URLSessionRecipeService.decodeList(data)

        // Then that recipe has no small photo, keeps its large one, and nothing counts as dropped
        let original = try original()
        #expect(list.recipes.count == 63)
        #expect(list.recipes[Self.changed].photoURLSmall == nil)
        #expect(list.recipes[Self.changed].photoURLLarge == original[Self.changed].photoURLLarge)
        #expect(list.droppedFields == 0)
        var expected = original
        expected[Self.changed].photoURLSmall = nil
        #expect(list.recipes == expected)
    }

    @Test(.enabled(if: Fixtures.available), arguments: optionalKeys)
    func explicitNullInAnOptionalFieldDecodesAsNil(_ key: String) throws {
        // Given the real list with `"key": null` in one recipe
        let data = try variant(key, NSNull())

        // When it is decoded
        let list = try URLSessionRecipeService.decodeList(data)

        // Then the field is nil, the other recipes are as they were, and nothing counts as dropped
        #expect(list.recipes.count == 63)
        #expect(list.recipes[Self.changed][keyPath: Self.field(key)] == nil)
        #expect(list.droppedFields == 0)
        let original = try original()
        #expect(list.recipes.indices.filter { list.recipes[$0] != original[$0] } == [Self.changed])
    }

    @Test(
        .enabled(if: Fixtures.available),
        arguments: [
            ("photo_url_small", "not a url"), ("photo_url_small", ""), ("photo_url_large", "https://"),
            ("photo_url_large", "ftp://example.test/large.jpg"), ("source_url", "not a url"),
            ("source_url", "/food/recipes/blackberry_fool"), ("youtube_url", "https://"),
            ("youtube_url", "javascript:alert(1)"),
        ])
    func unusableOptionalURLIsDroppedCountedAndTheRecipeKept(_ key: String, _ value: String) throws {
        // Given the real list with an unusable URL in one recipe's optional field
        let data = try variant(key, value)

        // When it is decoded
        let list = try URLSessionRecipeService.decodeList(data)

        // Then all 63 recipes are kept, that field is nil, and the drop is counted with its recipe
        // and key
        let original = try original()
        #expect(list.recipes.count == 63)
        #expect(list.recipes[Self.changed][keyPath: Self.field(key)] == nil)
        #expect(list.droppedFields == 1)
        let dropped = try #require(list.dropped.first)
        #expect(dropped.recipeUUID == original[Self.changed].uuid && dropped.key == key)
        #expect(dropped.reason.contains("\"\(value)\""))
        #expect(dropped.description.hasPrefix("recipe \(original[Self.changed].uuid): dropped \(key) ("))
        var expected = original[Self.changed]
        expected[keyPath: Self.field(key)] = nil
        #expect(list.recipes[Self.changed] == expected)
    }

    @Test(.enabled(if: Fixtures.available))
    func optionalFieldThatIsNotAStringIsDroppedAndCounted() throws {
        let data = try variant("photo_url_large", 42)

        let list = try URLSessionRecipeService.decodeList(data)

        #expect(list.recipes.count == 63)
        #expect(list.recipes[Self.changed].photoURLLarge == nil)
        let uuid = try original()[Self.changed].uuid
        #expect(list.dropped == [DroppedRecipeField(recipeUUID: uuid, key: "photo_url_large", reason: "not a string")])
    }

    @Test(.enabled(if: Fixtures.available))
    func dropsInSeveralRecipesAreAllCountedInListOrder() throws {
        // Given two recipes with an unusable URL each, and a third with a null
        let data = try Fixtures.liveVariant { recipes in
            recipes[3]["photo_url_small"] = "not a url"
            recipes[40]["youtube_url"] = 7
            recipes[41]["source_url"] = NSNull()
        }

        let list = try URLSessionRecipeService.decodeList(data)

        let original = try original()
        #expect(list.recipes.count == 63)
        #expect(list.dropped.map(\.recipeUUID) == [original[3].uuid, original[40].uuid])
        #expect(list.dropped.map(\.key) == ["photo_url_small", "youtube_url"])
    }

    @Test(.enabled(if: Fixtures.available))
    func relativePhotoPathsAreKeptAndResolvedAgainstTheBase() throws {
        // Given one recipe whose photos are a path relative to the folder and one to the host
        let data = try Fixtures.liveVariant { recipes in
            recipes[Self.changed]["photo_url_small"] = "photos/abc/small.jpg"
            recipes[Self.changed]["photo_url_large"] = "/photos/abc/large.jpg"
        }

        // When it is decoded against a base with a path
        let base = URL(string: "https://cdn.example.test/api/")!
        let list = try URLSessionRecipeService.decodeList(data, photoBase: base)

        // Then both are kept, absolute, and nothing counts as dropped
        let recipe = list.recipes[Self.changed]
        #expect(recipe.photoURLSmall == URL(string: "https://cdn.example.test/api/photos/abc/small.jpg"))
        #expect(recipe.photoURLLarge == URL(string: "https://cdn.example.test/photos/abc/large.jpg"))
        #expect(recipe.photoURLSmall?.baseURL == nil)
        #expect(list.droppedFields == 0)
        // Without a base they are kept as they came
        let unresolved = try URLSessionRecipeService.decodeList(data).recipes[Self.changed]
        #expect(unresolved.photoURLSmall == URL(string: "photos/abc/small.jpg"))
        #expect(unresolved.photoURLLarge == URL(string: "/photos/abc/large.jpg"))
    }

    @Test func relativePhotoPathThatResolvesToNoHostIsDropped() throws {
        let data = Data(#"{"recipes": [{"cuisine": "c", "name": "n", "uuid": "u", "photo_url_small": "//"}]}"#.utf8)

        let list = try URLSessionRecipeService.decodeList(data, photoBase: URL(string: "https://cdn.example.test/")!)

        #expect(list.recipes.count == 1 && list.recipes[0].photoURLSmall == nil)
        #expect(list.dropped.map(\.key) == ["photo_url_small"])
    }

    @Test(.enabled(if: Fixtures.available), arguments: ["name", "cuisine", "uuid"])
    func missingRequiredFieldRejectsTheWholeList(_ key: String) throws {
        let data = try variant(key, nil)

        #expect(
            throws: RecipeServiceError.malformedPayload(detail: "missing key \"\(key)\" at recipes[\(Self.changed)]")
        ) {
            try URLSessionRecipeService.decodeList(data)
        }
    }

    @Test(.enabled(if: Fixtures.available), arguments: ["name", "uuid"])
    func numberInARequiredFieldRejectsTheWholeList(_ key: String) throws {
        let data = try variant(key, 42)

        #expect(
            throws: RecipeServiceError.malformedPayload(detail: "expected String at recipes[\(Self.changed)].\(key)")
        ) {
            try URLSessionRecipeService.decodeList(data)
        }
    }

    @Test(.enabled(if: Fixtures.available))
    func nullNameRejectsTheWholeList() throws {
        let data = try variant("name", NSNull())

        #expect(
            throws: RecipeServiceError.malformedPayload(
                detail: "null where String was expected at recipes[\(Self.changed)].name")
        ) {
            try URLSessionRecipeService.decodeList(data)
        }
    }

    @Test(.enabled(if: Fixtures.available))
    func listModelsEncodingLeavesDropsOutAndRoundTripsExactly() throws {
        // Given a decoded list with a dropped field and a recipe without a small photo
        let data = try Fixtures.liveVariant { recipes in
            recipes[Self.changed]["photo_url_large"] = "not a url"
            recipes[Self.changed + 1]["photo_url_small"] = nil
        }
        let list = try URLSessionRecipeService.decodeList(data)
        #expect(list.droppedFields == 1)

        // When it is encoded as the list model saves it and decoded as the model reads it back
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = try encoder.encode(list)
        let again = try JSONDecoder().decode(RecipeList.self, from: json)

        // Then the JSON holds only the recipes, nil photos are left out, and the recipes come back equal
        let text = String(decoding: json, as: UTF8.self)
        #expect(!text.contains("dropped"))
        #expect(text.components(separatedBy: "photo_url_large").count == 63)
        #expect(text.components(separatedBy: "photo_url_small").count == 63)
        #expect(again.recipes == list.recipes)
        #expect(again == list)
        #expect(again.droppedFields == 0)
        #expect(again.recipes[Self.changed].photoURLLarge == nil)
        #expect(again.recipes[Self.changed + 1].photoURLSmall == nil)
    }

    @Test func recipeWithoutPhotosEncodesWithoutTheirKeysAndDecodesEqual() throws {
        let recipe = Recipe(cuisine: "British", name: "Plain", uuid: "u-1")

        let json = try JSONEncoder().encode(RecipeList(recipes: [recipe]))

        #expect(!String(decoding: json, as: UTF8.self).contains("photo"))
        #expect(try JSONDecoder().decode(RecipeList.self, from: json).recipes == [recipe])
    }

    @Test func resolvedPhotoURLSurvivesTheRoundTripEqual() throws {
        // A URL resolved against a base compares equal only once made absolute: check the decoded
        // one does, after the list model's encoding.
        let data = Data(
            #"{"recipes": [{"cuisine": "c", "name": "n", "uuid": "u", "photo_url_small": "photos/a/small.jpg"}]}"#.utf8)
        let list = try URLSessionRecipeService.decodeList(data, photoBase: URL(string: "http://127.0.0.1:8080/")!)

        let json = try JSONEncoder().encode(list)

        #expect(try JSONDecoder().decode(RecipeList.self, from: json) == list)
        #expect(list.recipes[0].photoURLSmall == URL(string: "http://127.0.0.1:8080/photos/a/small.jpg"))
    }

    /// The recipe's URL field that `key` names.
    static func field(_ key: String) -> WritableKeyPath<Recipe, URL?> {
        switch key {
        case "photo_url_large": \.photoURLLarge
        case "photo_url_small": \.photoURLSmall
        case "source_url": \.sourceURL
        case "youtube_url": \.youtubeURL
        default: preconditionFailure("\(key) is not an optional URL field")
        }
    }
}
