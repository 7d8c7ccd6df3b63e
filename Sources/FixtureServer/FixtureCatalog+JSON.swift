extension FixtureCatalog {
    /// The three lists the server serves.
    public enum Listing: String, Sendable, CaseIterable {
        /// Every recipe, as `/recipes.json`.
        case recipes
        /// The same list with `name` removed from three recipes, as `/recipes-malformed.json`.
        case malformed
        /// `{"recipes": []}`, as `/recipes-empty.json`.
        case empty
    }

    /// The recipes whose `name` the malformed listing drops: three spread over the list (fewer in a
    /// list under 12), at the real file's positions 1, 10 and 33 for 63 recipes.
    public var malformedIndices: Set<Int> {
        recipes.isEmpty ? [] : Set([1, recipes.count / 6, recipes.count * 11 / 21].map { min($0, recipes.count - 1) })
    }

    /// The listing as JSON, formatted as the real API's files are (sorted keys, 4-space indent,
    /// raw UTF-8, trailing newline), with photo URLs under `baseURL` (no trailing slash). An empty
    /// `baseURL` gives photo URLs that are paths relative to the server's root, `/photos/...`.
    public func json(_ listing: Listing, baseURL: String) -> String {
        let shown = listing == .empty ? [] : recipes
        guard !shown.isEmpty else { return "{\n    \"recipes\": []\n}\n" }
        let dropped = listing == .malformed ? malformedIndices : []
        var out = "{\n    \"recipes\": [\n"
        for (index, recipe) in shown.enumerated() {
            var fields: [(String, String)] = [("cuisine", recipe.cuisine)]
            if !dropped.contains(index) { fields.append(("name", recipe.name)) }
            fields.append(("photo_url_large", baseURL + recipe.largePhoto.path))
            fields.append(("photo_url_small", baseURL + recipe.smallPhoto.path))
            if let source = recipe.sourceURL { fields.append(("source_url", source)) }
            fields.append(("uuid", recipe.uuid))
            if let video = recipe.youtubeURL { fields.append(("youtube_url", video)) }
            out += "        {\n"
            out += fields.map { "            \(Self.quoted($0.0)): \(Self.quoted($0.1))" }.joined(separator: ",\n")
            out += index == shown.count - 1 ? "\n        }\n" : "\n        },\n"
        }
        return out + "    ]\n}\n"
    }

    // JSON string escaping as Python's json.dumps(ensure_ascii=False) does it.
    static func quoted(_ string: String) -> String {
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
