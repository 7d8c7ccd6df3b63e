import Foundation
import RecipeClient

/// The recipe target: the client's decoding of a response body.
///
/// - Bytes that are not a recipe list are refused with `emptyBody` (no bytes at all) or
///   `malformedPayload` with a detail; never anything else, never a crash.
/// - A list that decodes (relative photo paths resolved against `photoBase`) holds only absolute
///   http(s) URLs with a host, and encoded again and decoded, it is the same list.
enum RecipeChecks {
    static let photoBase = URL(string: "https://recipes.example/")!

    static func check(_ bytes: [UInt8]) -> [String] {
        let recipes: [Recipe]
        do {
            recipes = try URLSessionRecipeService.decode(Data(bytes), photoBase: photoBase)
        } catch {
            switch error {
            case .emptyBody: return bytes.isEmpty ? [] : ["\(bytes.count) bytes refused as an empty body"]
            case .malformedPayload(let detail):
                return bytes.isEmpty || detail.isEmpty
                    ? ["refused as malformed with detail \(detail.debugDescription)"] : []
            default: return ["refused with \(error)"]
            }
        }
        var problems: [String] = []
        for recipe in recipes {
            let urls = [recipe.photoURLLarge, recipe.photoURLSmall, recipe.sourceURL, recipe.youtubeURL]
            for case let url? in urls
            where !["http", "https"].contains(url.scheme?.lowercased()) || (url.host ?? "").isEmpty {
                problems.append("recipe \(recipe.uuid.debugDescription) kept \(url.absoluteString.debugDescription)")
            }
        }
        do {
            let encoded = try JSONEncoder().encode(RecipeList(recipes: recipes))
            let again = try URLSessionRecipeService.decode(encoded, photoBase: photoBase)
            if again != recipes { problems.append("encoded and decoded again, the \(recipes.count) recipes differ") }
        } catch {
            problems.append("the \(recipes.count) recipes it decoded do not survive encoding: \(error)")
        }
        return problems
    }
}
