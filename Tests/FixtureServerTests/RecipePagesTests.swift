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
}
