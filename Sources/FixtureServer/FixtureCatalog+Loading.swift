import CacheLab
import ClientModel
import Foundation

extension FixtureCatalog {
    /// The catalog of a real `recipes.json` (the API's `{"recipes": [...]}`).
    ///
    /// Optional fields may be missing; names are kept as written (mojibake included). Each photo
    /// keeps its folder and file (the URL's last two path components) and gets a size drawn from a
    /// stable hash of its URL: small 8–14 KB, large 60–140 KB.
    public static func load(path: String) throws(FixtureServerError) -> FixtureCatalog {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unreadableCatalog(path: path)
        }
        return try parse(data, path: path)
    }

    static func parse(_ data: Data, path: String) throws(FixtureServerError) -> FixtureCatalog {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw .malformedCatalog(path: path, reason: "not JSON (\(error.localizedDescription))")
        }
        guard let list = (root as? [String: Any])?["recipes"] as? [Any] else {
            throw .malformedCatalog(path: path, reason: "no \"recipes\" list at the top")
        }
        var recipes: [Recipe] = []
        for (index, item) in list.enumerated() {
            guard let fields = item as? [String: Any] else {
                throw .malformedCatalog(path: path, reason: "recipe \(index) is not an object")
            }
            func text(_ key: String) throws(FixtureServerError) -> String {
                guard let value = fields[key] as? String else {
                    throw .malformedCatalog(path: path, reason: "recipe \(index) has no \"\(key)\" string")
                }
                return value
            }
            recipes.append(
                Recipe(
                    cuisine: try text("cuisine"), name: try text("name"), uuid: try text("uuid"),
                    sourceURL: fields["source_url"] as? String, youtubeURL: fields["youtube_url"] as? String,
                    smallPhoto: try photo(url: try text("photo_url_small"), isLarge: false, path: path),
                    largePhoto: try photo(url: try text("photo_url_large"), isLarge: true, path: path)))
        }
        return FixtureCatalog(recipes: recipes)
    }

    private static func photo(url: String, isLarge: Bool, path: String) throws(FixtureServerError) -> Photo {
        let components = url.split(separator: "?")[0].split(separator: "/")
        guard components.count >= 4 else {
            throw .malformedCatalog(path: path, reason: "photo URL \(url) has no folder and file")
        }
        var random = SplitMix64(seed: StableHash.fnv1a(url))
        let size =
            isLarge ? Int.random(in: 60_000...140_000, using: &random) : Int.random(in: 8_000...14_000, using: &random)
        return Photo(
            folder: String(components[components.count - 2]), file: String(components[components.count - 1]),
            size: size, isLarge: isLarge)
    }
}
