import CacheLab

/// The catalog as web pages, for a browser to scroll: the recipe list (`/`) and one page per
/// recipe (`/recipes/<uuid>`). Plain HTML and CSS, no script. Each list row is `rowHeight` CSS
/// pixels tall with the small photo as `<img loading="lazy">` of its real width and height, so
/// the browser decides when to fetch it; a recipe's page shows its large photo at once.
///
/// Catalog text (names, cuisines, uuids) is escaped: a `--catalog` file cannot inject markup.
public struct RecipePages: Sendable {
    public var catalog: FixtureCatalog
    /// Height of a list row, in CSS pixels (a device preset's row height).
    public var rowHeight: Int

    public init(catalog: FixtureCatalog, rowHeight: Int = 110) {
        precondition(rowHeight > 0, "a row has a height")
        self.catalog = catalog
        self.rowHeight = rowHeight
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
            li a { display: flex; align-items: center; height: 100%; color: inherit; text-decoration: none; }
            li img { width: \(side)px; height: \(side)px; margin: 0 12px; object-fit: cover; background: #eee; }
            small { color: #666; }
            </style></head>
            <body><ol id="recipes">

            """
        for (row, recipe) in catalog.recipes.enumerated() {
            html += """
                <li id="row-\(row)"><a href="/recipes/\(Self.escape(recipe.uuid))">\
                <img loading="lazy" src="\(Self.escape(recipe.smallPhoto.path))" width="\(recipe.smallPhoto.pixels.width)" \
                height="\(recipe.smallPhoto.pixels.height)" alt="">\
                <span><b>\(Self.escape(recipe.name))</b><br><small>\(Self.escape(recipe.cuisine))</small></span></a></li>

                """
        }
        html += "</ol></body></html>\n"
        return html
    }

    /// The page of the recipe with `uuid`, or nil when there is none.
    public func recipe(uuid: String) -> String? {
        guard let recipe = catalog.recipes.first(where: { $0.uuid == uuid }) else { return nil }
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(Self.escape(recipe.name))</title>
            <style>
            body { margin: 0; font-family: sans-serif; }
            img { width: 100%; height: auto; display: block; background: #eee; }
            main { padding: 12px; }
            </style></head>
            <body><img src="\(Self.escape(recipe.largePhoto.path))" width="\(recipe.largePhoto.pixels.width)" height="\(recipe.largePhoto.pixels.height)" alt="">
            <main><h1>\(Self.escape(recipe.name))</h1><p>\(Self.escape(recipe.cuisine))</p>
            <p><a id="back" href="/">All recipes</a></p></main></body></html>

            """
    }

    /// `text` safe in HTML text and attributes.
    static func escape(_ text: String) -> String { Markup.escaped(text) }
}
