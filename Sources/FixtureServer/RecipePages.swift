import CacheLab
import Foundation
import RecipeClient

/// The catalog as web pages, for a browser to scroll: the recipe list (`/`) and one page per
/// recipe (`/recipes/<uuid>`). Plain HTML and CSS, no script. Each list row is `rowHeight` CSS
/// pixels tall with the small photo as `<img loading="lazy">` of its real width and height, so
/// the browser decides when to fetch it; a recipe's page shows its large photo at once, its
/// source link, and its video as an embedded player (or says it has none).
///
/// Each row leads where the app's card does (`Recipe.cardDestination`, applied to the catalog's
/// recipes as the app decodes them): to the recipe's page with a YouTube link, to its source site
/// with only a source link, nowhere (not a link) with neither.
///
/// Catalog text (names, cuisines, uuids) is escaped: a `--catalog` file cannot inject markup.
public struct RecipePages: Sendable {
    public let catalog: FixtureCatalog
    /// Height of a list row, in CSS pixels (a device preset's row height).
    public let rowHeight: Int
    /// The catalog's recipes as the app decodes them, in the catalog's order.
    private let decoded: [Recipe]

    public init(catalog: FixtureCatalog, rowHeight: Int = 110) {
        precondition(rowHeight > 0, "a row has a height")
        self.catalog = catalog
        self.rowHeight = rowHeight
        // The catalog requires every field the decoding requires, so its own listing decodes.
        let json = Data(catalog.json(.recipes, baseURL: "").utf8)
        guard let list = try? JSONDecoder().decode(RecipeList.self, from: json),
            list.recipes.count == catalog.recipes.count
        else { preconditionFailure("RecipePages: the catalog's own listing does not decode as the app's") }
        decoded = list.recipes
    }

    /// Where the card of the catalog's recipe at `index` leads, as the app decides.
    public func destination(ofRecipeAt index: Int) -> CardDestination {
        decoded[index].cardDestination
    }

    /// The list page.
    public func list() -> String {
        let side = max(rowHeight - 20, 1)
        var html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Recipes</title>
            <style>
            body { margin: 0; font-family: sans-serif; }
            ol { list-style: none; margin: 0; padding: 0; }
            li { height: \(rowHeight)px; box-sizing: border-box; border-bottom: 1px solid #ddd; overflow: hidden; }
            li a, li div { display: flex; align-items: center; height: 100%; color: inherit; text-decoration: none; }
            li img { width: \(side)px; height: \(side)px; margin: 0 12px; object-fit: cover; background: #eee; }
            small { color: #666; }
            </style></head>
            <body><ol id="recipes">

            """
        for (row, recipe) in catalog.recipes.enumerated() {
            let content = """
                <img loading="lazy" src="\(Self.escape(recipe.smallPhoto.path))" width="\(recipe.smallPhoto.pixels.width)" \
                height="\(recipe.smallPhoto.pixels.height)" alt="">\
                <span><b>\(Self.escape(recipe.name))</b><br><small>\(Self.escape(recipe.cuisine))</small></span>
                """
            let card =
                switch destination(ofRecipeAt: row) {
                case .detail: "<a href=\"/recipes/\(Self.escape(recipe.uuid))\">\(content)</a>"
                case .source(let url): "<a class=\"source\" href=\"\(Self.escape(url.absoluteString))\">\(content)</a>"
                case .none: "<div>\(content)</div>"
                }
            html += "<li id=\"row-\(row)\">\(card)</li>\n"
        }
        html += "</ol></body></html>\n"
        return html
    }

    /// The page of the recipe with `uuid`, or nil when there is none: its large photo, name,
    /// cuisine, video (an embedded YouTube player, or "No video for this recipe.") and source link.
    public func recipe(uuid: String) -> String? {
        guard let index = catalog.recipes.firstIndex(where: { $0.uuid == uuid }) else { return nil }
        let recipe = catalog.recipes[index]
        let video = RecipeVideo(link: decoded[index].youtubeURL)
        let player =
            video.video.map { video in
                """
                <iframe id="video" src="\(Self.escape(video.embedURL.absoluteString))" title="\(Self.escape(recipe.name))" \
                width="560" height="315" allow="encrypted-media; picture-in-picture" allowfullscreen></iframe>
                """
            } ?? "<p id=\"no-video\">\(Self.escape(RecipeVideo.noVideoMessage))</p>"
        let source =
            decoded[index].sourceURL.map {
                "<p><a id=\"source\" href=\"\(Self.escape($0.absoluteString))\">Recipe source</a></p>"
            }
            ?? ""
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(Self.escape(recipe.name))</title>
            <style>
            body { margin: 0; font-family: sans-serif; }
            img { width: 100%; height: auto; display: block; background: #eee; }
            iframe { width: 100%; height: auto; aspect-ratio: 16 / 9; border: 0; background: #000; }
            main { padding: 12px; }
            </style></head>
            <body><img src="\(Self.escape(recipe.largePhoto.path))" width="\(recipe.largePhoto.pixels.width)" height="\(recipe.largePhoto.pixels.height)" alt="">
            <main><h1>\(Self.escape(recipe.name))</h1><p>\(Self.escape(recipe.cuisine))</p>
            \(player)
            \(source)<p><a id="back" href="/">All recipes</a></p></main></body></html>

            """
    }

    /// `text` safe in HTML text and attributes.
    static func escape(_ text: String) -> String { Markup.escaped(text) }
}
