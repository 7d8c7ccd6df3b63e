import Foundation

/// One recipe as the recipe API sends it: exactly its seven fields, under the names it spells.
///
/// Text is kept as sent: a name that arrives as mojibake ("Polskie NaleÅ›niki") stays that way,
/// and `uuid` keeps its case (the October 2024 API had two uppercase ones). Every URL must be an
/// absolute `http` or `https` URL with a host, or decoding fails naming the key.
public struct Recipe: Codable, Sendable, Equatable, Identifiable {
    public var cuisine: String
    public var name: String
    public var photoURLLarge: URL
    public var photoURLSmall: URL
    /// `nil` when the API leaves the field out (5 of the 63 recipes do).
    public var sourceURL: URL?
    public var uuid: String
    /// `nil` when the API leaves the field out (1 of the 63 recipes does).
    public var youtubeURL: URL?

    public var id: String { uuid }

    public init(
        cuisine: String,
        name: String,
        photoURLLarge: URL,
        photoURLSmall: URL,
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

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        cuisine = try container.decode(String.self, forKey: .cuisine)
        name = try container.decode(String.self, forKey: .name)
        photoURLLarge = try Self.decodeWebURL(in: container, forKey: .photoURLLarge)
        photoURLSmall = try Self.decodeWebURL(in: container, forKey: .photoURLSmall)
        sourceURL = try container.contains(.sourceURL) ? Self.decodeWebURL(in: container, forKey: .sourceURL) : nil
        uuid = try container.decode(String.self, forKey: .uuid)
        youtubeURL = try container.contains(.youtubeURL) ? Self.decodeWebURL(in: container, forKey: .youtubeURL) : nil
    }

    // Decoded from a String rather than as `URL`: Foundation's own URL decoding percent-encodes
    // invalid characters and accepts relative references, so "not a url" would pass silently.
    private static func decodeWebURL(
        in container: KeyedDecodingContainer<CodingKeys>,
        forKey key: CodingKeys
    ) throws -> URL {
        let string = try container.decode(String.self, forKey: key)
        guard let url = URL(string: string, encodingInvalidCharacters: false),
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else {
            throw DecodingError.dataCorruptedError(
                forKey: key,
                in: container,
                debugDescription: "\"\(string)\" is not an absolute http(s) URL"
            )
        }
        return url
    }
}
