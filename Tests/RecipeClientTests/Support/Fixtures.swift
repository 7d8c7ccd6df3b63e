import Foundation

@testable import RecipeClient

/// The recipe API payloads in `shared/fixtures` beside the package (`/work/main` → `/work/shared`),
/// or under the folder `CACHELAB_SHARED` names, plus small hand-made payloads.
///
/// `shared` is not part of the repository: tests that read it use
/// `@Test(.enabled(if: Fixtures.available))` and are skipped where it is absent.
enum Fixtures {
    /// `shared/fixtures`, or `nil` when it is absent. This file is
    /// `Tests/RecipeClientTests/Support/Fixtures.swift`: four levels up is the package root.
    static let directory: String? = {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 {
            root.deleteLastPathComponent()
        }
        let shared =
            ProcessInfo.processInfo.environment["CACHELAB_SHARED"]
            ?? root.deletingLastPathComponent().appendingPathComponent("shared").path
        let fixtures = shared + "/fixtures"
        return FileManager.default.fileExists(atPath: fixtures + "/recipes.json") ? fixtures : nil
    }()

    /// Whether the shared fixtures are present.
    static var available: Bool { directory != nil }

    /// The bytes of the shared fixture at `path` (relative to `shared/fixtures`).
    static func data(_ path: String) throws -> Data {
        guard let directory else {
            preconditionFailure("Guard tests that read \(path) with .enabled(if: Fixtures.available)")
        }
        return try Data(contentsOf: URL(fileURLWithPath: directory + "/" + path))
    }

    /// `recipes.json` with `change` applied to its recipes, as JSONSerialization reads them (an
    /// explicit `null` is `NSNull()`), serialized again.
    static func liveVariant(_ change: (inout [[String: Any]]) throws -> Void) throws -> Data {
        let root = try JSONSerialization.jsonObject(with: data("recipes.json"))
        guard var object = root as? [String: Any], var recipes = object["recipes"] as? [[String: Any]] else {
            preconditionFailure("recipes.json is not {\"recipes\": [...]}")
        }
        try change(&recipes)
        object["recipes"] = recipes
        return try JSONSerialization.data(withJSONObject: object)
    }

    /// Two recipes in the API's format, the second without its optional URLs.
    static let twoRecipesJSON = Data(
        """
        {"recipes": [
            {"cuisine": "Malaysian", "name": "Apam Balik",
             "photo_url_large": "https://example.test/photos/p1/large.jpg",
             "photo_url_small": "https://example.test/photos/p1/small.jpg",
             "source_url": "https://example.test/source/1",
             "uuid": "0c6ca6e7-e32a-4053-b824-1dbf749910d8",
             "youtube_url": "https://www.youtube.com/watch?v=1"},
            {"cuisine": "British", "name": "Bakewell Tart",
             "photo_url_large": "https://example.test/photos/p2/large.jpg",
             "photo_url_small": "https://example.test/photos/p2/small.jpg",
             "uuid": "eed6005f-f8c8-451f-98d0-4088e2b40eb6"}
        ]}
        """.utf8
    )

    /// The recipes in `twoRecipesJSON`.
    static let twoRecipes: [Recipe] = [
        Recipe(
            cuisine: "Malaysian",
            name: "Apam Balik",
            photoURLLarge: URL(string: "https://example.test/photos/p1/large.jpg")!,
            photoURLSmall: URL(string: "https://example.test/photos/p1/small.jpg")!,
            sourceURL: URL(string: "https://example.test/source/1")!,
            uuid: "0c6ca6e7-e32a-4053-b824-1dbf749910d8",
            youtubeURL: URL(string: "https://www.youtube.com/watch?v=1")!
        ),
        Recipe(
            cuisine: "British",
            name: "Bakewell Tart",
            photoURLLarge: URL(string: "https://example.test/photos/p2/large.jpg")!,
            photoURLSmall: URL(string: "https://example.test/photos/p2/small.jpg")!,
            uuid: "eed6005f-f8c8-451f-98d0-4088e2b40eb6"
        ),
    ]
}
