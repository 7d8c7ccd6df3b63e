import Foundation

/// One recipe as the recipe API sends it: exactly its seven fields, under the names it spells.
///
/// Text is kept as sent: a name that arrives as mojibake ("Polskie NaleÅ›niki") stays that way,
/// and `uuid` keeps its case (the October 2024 API had two uppercase ones).
///
/// Decoding is strict about the required fields and lenient about the optional ones:
/// - `cuisine`, `name` and `uuid` must be strings; a missing, `null` or mistyped one fails decoding
///   (and with it the whole `RecipeList`).
/// - The four URLs are optional. A missing key or `null` is `nil`. A value that cannot be used
///   (not a string, not a URL, a link that is not an absolute http(s) URL with a host) is also
///   `nil`, and `RecipeList` counts it in `dropped`.
/// - A photo URL may be a relative reference (`photos/abc/small.jpg`, `/photos/abc/small.jpg`):
///   it is resolved against the URL under `CodingUserInfoKey.recipePhotoBase` when the decoder has
///   one (`URLSessionRecipeService` always sets it), and kept relative otherwise.
///
/// Encoding writes the API's keys and leaves `nil` fields out, so a list encoded and decoded again
/// is equal to the original.
public struct Recipe: Codable, Sendable, Equatable, Identifiable {
    public var cuisine: String
    public var name: String
    /// `nil` when the API sends none or one that is not a URL: the recipe has no large photo.
    public var photoURLLarge: URL?
    /// `nil` when the API sends none or one that is not a URL: the recipe has no small photo.
    public var photoURLSmall: URL?
    /// `nil` when the API leaves the field out (5 of the 63 recipes do).
    public var sourceURL: URL?
    public var uuid: String
    /// `nil` when the API leaves the field out (1 of the 63 recipes does).
    public var youtubeURL: URL?

    public var id: String { uuid }

    public init(
        cuisine: String,
        name: String,
        photoURLLarge: URL? = nil,
        photoURLSmall: URL? = nil,
        sourceURL: URL? = nil,
        uuid: String,
        youtubeURL: URL? = nil
    ) {
        self.cuisine = cuisine
        self.name = name
        self.photoURLLarge = photoURLLarge
        self.photoURLSmall = photoURLSmall
        self.sourceURL = sourceURL
        self.uuid = uuid
        self.youtubeURL = youtubeURL
    }

    enum CodingKeys: String, CodingKey {
        case cuisine
        case name
        case photoURLLarge = "photo_url_large"
        case photoURLSmall = "photo_url_small"
        case sourceURL = "source_url"
        case uuid
        case youtubeURL = "youtube_url"
    }

    /// Decodes one recipe; the optional fields it drops are not reported (decode a `RecipeList`
    /// to learn them).
    public init(from decoder: any Decoder) throws {
        var dropped: [DroppedRecipeField] = []
        try self.init(from: decoder, dropping: &dropped)
    }
}
