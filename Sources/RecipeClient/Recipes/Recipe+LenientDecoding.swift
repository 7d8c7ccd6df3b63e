import Foundation

extension Recipe {
    /// Decodes one recipe as `Recipe` documents it, appending the optional fields it drops to
    /// `dropped`.
    init(from decoder: any Decoder, dropping dropped: inout [DroppedRecipeField]) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // The required fields first: their errors fail the list, so they are the ones reported.
        cuisine = try container.decode(String.self, forKey: .cuisine)
        name = try container.decode(String.self, forKey: .name)
        uuid = try container.decode(String.self, forKey: .uuid)

        let base = decoder.userInfo[.recipePhotoBase] as? URL
        photoURLLarge = Self.optionalURL(.photoURLLarge, in: container, photoBase: base, uuid: uuid, dropped: &dropped)
        photoURLSmall = Self.optionalURL(.photoURLSmall, in: container, photoBase: base, uuid: uuid, dropped: &dropped)
        sourceURL = Self.optionalURL(.sourceURL, in: container, uuid: uuid, dropped: &dropped)
        youtubeURL = Self.optionalURL(.youtubeURL, in: container, uuid: uuid, dropped: &dropped)
    }

    /// The URL under `key`: `nil` when the key is missing or `null`, or when its value is not a
    /// usable URL (then recorded in `dropped`).
    ///
    /// Links (`source_url`, `youtube_url`) must be absolute http(s) URLs with a host. Photos may
    /// also be relative references: resolved against `photoBase` when there is one (and dropped if
    /// that gives no http(s) URL with a host), kept relative when there is none.
    private static func optionalURL(
        _ key: CodingKeys,
        in container: KeyedDecodingContainer<CodingKeys>,
        photoBase: URL? = nil,
        uuid: String,
        dropped: inout [DroppedRecipeField]
    ) -> URL? {
        if !container.contains(key) || (try? container.decodeNil(forKey: key)) == true {
            return nil
        }
        func drop(_ reason: String) -> URL? {
            dropped.append(DroppedRecipeField(recipeUUID: uuid, key: key.stringValue, reason: reason))
            return nil
        }
        // Decoded from a String rather than as `URL`: Foundation's own URL decoding percent-encodes
        // invalid characters, so "not a url" would pass silently.
        guard let string = try? container.decode(String.self, forKey: key) else {
            return drop("not a string")
        }
        guard !string.isEmpty, let url = URL(string: string, encodingInvalidCharacters: false) else {
            return drop("\"\(string)\" is not a URL")
        }
        let isPhoto = key == .photoURLLarge || key == .photoURLSmall
        if isPhoto, url.scheme == nil {
            // A relative reference: a photo on the API's own host, kept for the caller to resolve
            // when there is no base to resolve it against here.
            guard let photoBase else { return url }
            guard let resolved = URL(string: string, relativeTo: photoBase)?.absoluteURL, isWebURL(resolved) else {
                return drop("\"\(string)\" does not resolve against \(photoBase.absoluteString) to an http(s) URL")
            }
            return resolved
        }
        guard isWebURL(url) else {
            return drop("\"\(string)\" is not an absolute http(s) URL")
        }
        return url
    }

    /// Whether `url` is absolute, `http` or `https`, with a host.
    static func isWebURL(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return false }
        return !(url.host ?? "").isEmpty
    }
}
