import CacheLab
import ClientModel
import Foundation
import Testing

@testable import FixtureServer

@Suite struct CatalogTests {
    @Test func generatedCatalogHasTheRealAPIsShape() {
        // Given the default generated catalog
        let catalog = FixtureCatalog.generated()

        // Then it has 63 recipes, 5 without source_url and 1 without youtube_url
        #expect(catalog.recipes.count == 63)
        #expect(catalog.recipes.filter { $0.sourceURL == nil }.count == 5)
        #expect(catalog.recipes.filter { $0.youtubeURL == nil }.count == 1)
        #expect(Set(catalog.recipes.map(\.name)).count == 63)
        #expect(Set(catalog.recipes.map(\.uuid)).count == 63)
        for recipe in catalog.recipes {
            // and photo folders that are not the recipe's uuid, named small.jpg and large.jpg
            #expect(recipe.smallPhoto.folder != recipe.uuid)
            #expect(recipe.smallPhoto.folder == recipe.largePhoto.folder)
            #expect(recipe.smallPhoto.file == "small.jpg" && recipe.largePhoto.file == "large.jpg")
            #expect((8_000...14_000).contains(recipe.smallPhoto.size))
            #expect((60_000...140_000).contains(recipe.largePhoto.size))
            #expect(FixtureCatalog.cuisines.contains(recipe.cuisine))
        }
    }

    @Test func generatedCatalogServesTheScenarioTimelinesPhotos() {
        // Given a timeline as a scroll scenario with seed 5 builds it
        let timeline = CatalogTimeline(recipes: 63, days: 1, seed: 5)
        let catalog = FixtureCatalog.generated(recipes: 63, seed: 5)

        // Then every photo of the trace is served, at its size
        for (url, size) in zip(timeline.photoURLs, timeline.photoSizes) {
            let parts = url.split(separator: "/").suffix(2).map(String.init)
            #expect(catalog.photo(folder: parts[0], file: parts[1])?.size == size)
        }
    }

    @Test func sameSeedGivesSameCatalogAndDifferentSeedDoesNot() {
        let first = FixtureCatalog.generated(seed: 3)
        #expect(first.recipes == FixtureCatalog.generated(seed: 3).recipes)
        #expect(first.recipes != FixtureCatalog.generated(seed: 4).recipes)
    }

    @Test(.enabled(if: Fixtures.realRecipesPath != nil, "needs ../shared/fixtures/recipes.json"))
    func realRecipesJSONLoadsAndRendersByteForByte() throws {
        let path = try #require(Fixtures.realRecipesPath)
        // Given the real API's recipes.json
        let catalog = try FixtureCatalog.load(path: path)

        // Then it has the real data's facts
        #expect(catalog.recipes.count == 63)
        #expect(catalog.recipes.filter { $0.sourceURL == nil }.count == 5)
        #expect(catalog.recipes.filter { $0.youtubeURL == nil }.count == 1)
        // and rendered under the real origin, it is the original file, byte for byte
        let origin = "https://d3jbb8n5wk0qxi.cloudfront.net"
        let original = try String(contentsOfFile: path, encoding: .utf8)
        #expect(catalog.json(.recipes, baseURL: origin) == original)
        // (the real malformed file is another snapshot of the API; the same three names are dropped)
        let dropped = catalog.malformedIndices.sorted().map { catalog.recipes[$0].name }
        #expect(dropped == ["Apple & Blackberry Crumble", "Canadian Butter Tarts", "Mince Pies"])
        let empty = try String(
            contentsOfFile: path.replacingOccurrences(of: "recipes.json", with: "recipes-empty.json"), encoding: .utf8)
        #expect(catalog.json(.empty, baseURL: origin) == empty)
    }

    @Test func loadedPhotoSizesAreStableAndInRange() throws {
        let json = Data(
            """
            {"recipes": [{"cuisine": "X", "name": "Y", "uuid": "u",
              "photo_url_small": "https://h/photos/abc/small.jpg", "photo_url_large": "https://h/photos/abc/large.jpg"}]}
            """.utf8)
        let first = try FixtureCatalog.parse(json, path: "inline")
        let again = try FixtureCatalog.parse(json, path: "inline")
        #expect(first.recipes == again.recipes)
        #expect((8_000...14_000).contains(first.recipes[0].smallPhoto.size))
        #expect((60_000...140_000).contains(first.recipes[0].largePhoto.size))
        #expect(first.recipes[0].sourceURL == nil && first.recipes[0].youtubeURL == nil)
    }

    @Test func aRecipeWithoutRequiredFieldsIsRejectedWithItsIndex() {
        let json = Data(#"{"recipes": [{"cuisine": "X"}]}"#.utf8)
        #expect(throws: FixtureServerError.malformedCatalog(path: "inline", reason: "recipe 0 has no \"name\" string"))
        {
            try FixtureCatalog.parse(json, path: "inline")
        }
        #expect(throws: FixtureServerError.unreadableCatalog(path: "/nonexistent/recipes.json")) {
            try FixtureCatalog.load(path: "/nonexistent/recipes.json")
        }
    }

    @Test func photoBodiesHaveExactSizesAndJPEGMarkers() {
        let photo = FixtureCatalog.Photo(folder: "f", file: "small.jpg", size: 9_959, isLarge: false)
        let bytes = PhotoBody.bytes(of: photo, seed: 1)
        #expect(bytes.count == 9_959)
        #expect(Array(bytes.prefix(4)) == [0xFF, 0xD8, 0xFF, 0xE0])
        #expect(Array(bytes.suffix(2)) == [0xFF, 0xD9])
        #expect(bytes == PhotoBody.bytes(of: photo, seed: 1))
        #expect(bytes != PhotoBody.bytes(of: photo, seed: 2))
    }

    @Test func faultRatesSpreadEvenlyAndDrawInOrder() {
        let rates = FaultRates.spread(0.5, over: [.reset, .serverError])
        #expect(rates.rates == [.serverError: 0.25, .reset: 0.25])
        #expect(rates.fault(forDraw: 0.1) == .serverError)
        #expect(rates.fault(forDraw: 0.3) == .reset)
        #expect(rates.fault(forDraw: 0.5) == nil)
    }
}
