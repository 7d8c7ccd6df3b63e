import Foundation
import RecipeClient
import Testing

@testable import FixtureServer

@Suite("The recipe list as web pages")
struct RecipePagesTests {
    static func catalog(named name: String, cuisine: String = "British") -> FixtureCatalog {
        var recipe = FixtureCatalog.generated(recipes: 1).recipes[0]
        recipe.name = name
        recipe.cuisine = cuisine
        return FixtureCatalog(recipes: [recipe])
    }

    @Test func catalogTextRendersAsTextNeverAsMarkup() throws {
        let pages = RecipePages(catalog: Self.catalog(named: "<script>alert('x')</script> & \"more\"", cuisine: "<b>"))
        for html in [pages.list(), try #require(pages.recipe(uuid: pages.catalog.recipes[0].uuid))] {
            #expect(!html.contains("<script>") && !html.contains("<b><") && !html.contains("'x'"))
            #expect(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;more&quot;"))
            #expect(html.contains("&lt;b&gt;"))
        }
    }

    @Test func everyRowIsALazyImageOfItsRealSizeInARowOfTheDevicesHeight() {
        let catalog = FixtureCatalog.generated(recipes: 63)
        let html = RecipePages(catalog: catalog, rowHeight: 100).list()
        #expect(html.components(separatedBy: "<li ").count - 1 == 63)
        #expect(html.components(separatedBy: "loading=\"lazy\"").count - 1 == 63)
        #expect(html.contains("width=\"150\" height=\"150\""))
        #expect(html.contains("li { height: 100px;"))
        // In the catalog's order, each row linking its recipe's page
        let first = catalog.recipes[0]
        #expect(
            html.contains(
                "<li id=\"row-0\"><a href=\"/recipes/\(first.uuid)\"><img loading=\"lazy\" src=\"\(first.smallPhoto.path)\""
            ))
        #expect(!html.contains("<script"))
    }

    @Test func aRecipesPageShowsItsLargePhotoAtOnce() throws {
        let recipe = FixtureCatalog.generated(recipes: 3).recipes[2]
        let html = try #require(RecipePages(catalog: FixtureCatalog.generated(recipes: 3)).recipe(uuid: recipe.uuid))
        #expect(html.contains("<img src=\"\(recipe.largePhoto.path)\" width=\"700\" height=\"700\""))
        #expect(!html.contains("loading=\"lazy\""))
        #expect(RecipePages(catalog: FixtureCatalog.generated(recipes: 3)).recipe(uuid: "none") == nil)
    }

    /// Four recipes, one of each kind of card: a video (and source), a source only, neither, and a
    /// link that is not a video.
    static func cards() -> FixtureCatalog {
        let generated = FixtureCatalog.generated(recipes: 4).recipes
        let links: [(source: String?, video: String?)] = [
            ("https://example.com/a", "https://youtu.be/6R8ffRRJcrg?si=x"), ("https://example.com/b", nil), (nil, nil),
            (nil, "https://vimeo.com/12345"),
        ]
        return FixtureCatalog(
            recipes: zip(generated, links).map { recipe, link in
                var recipe = recipe
                recipe.sourceURL = link.source
                recipe.youtubeURL = link.video
                return recipe
            })
    }

    @Test func eachRowLeadsWhereTheAppsCardDoes() {
        let catalog = Self.cards()
        let pages = RecipePages(catalog: catalog)
        let html = pages.list()
        #expect(pages.destination(ofRecipeAt: 0) == .detail)
        #expect(html.contains("<li id=\"row-0\"><a href=\"/recipes/\(catalog.recipes[0].uuid)\">"))
        #expect(pages.destination(ofRecipeAt: 1) == .source(URL(string: "https://example.com/b")!))
        #expect(html.contains("<li id=\"row-1\"><a class=\"source\" href=\"https://example.com/b\">"))
        #expect(pages.destination(ofRecipeAt: 2) == CardDestination.none)
        #expect(html.contains("<li id=\"row-2\"><div><img"))
        // A link that is not a video still leads to the page, which says there is none
        #expect(pages.destination(ofRecipeAt: 3) == .detail)
        #expect(html.components(separatedBy: "<a ").count - 1 == 3)
    }

    @Test func aRecipesPageEmbedsItsVideoAndLinksItsSource() throws {
        let catalog = Self.cards()
        let pages = RecipePages(catalog: catalog)
        let video = try #require(pages.recipe(uuid: catalog.recipes[0].uuid))
        #expect(video.contains("<iframe id=\"video\" src=\"https://www.youtube.com/embed/6R8ffRRJcrg\""))
        #expect(video.contains("<a id=\"source\" href=\"https://example.com/a\">"))
        #expect(!video.contains("no-video"))

        let notAVideo = try #require(pages.recipe(uuid: catalog.recipes[3].uuid))
        #expect(notAVideo.contains("<p id=\"no-video\">No video for this recipe.</p>"))
        #expect(!notAVideo.contains("<iframe") && !notAVideo.contains("id=\"source\""))
    }

    @Test func theGeneratedCatalogHasTheRealAPIsMixOfCards() {
        // 62 of 63 lead to a page, 1 to its source only, as on the real API
        let pages = RecipePages(catalog: FixtureCatalog.generated(recipes: 63))
        let destinations = (0..<63).map { pages.destination(ofRecipeAt: $0) }
        #expect(destinations.filter { $0 == .detail }.count == 62)
        #expect(destinations.filter { if case .source = $0 { true } else { false } }.count == 1)
    }
}
