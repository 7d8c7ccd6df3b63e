import Foundation

/// The video a recipe's detail plays, or why it has none.
public enum RecipeVideo: Sendable, Equatable {
    /// The recipe links a YouTube video.
    case youTube(YouTubeVideo)
    /// The recipe has no video link.
    case noLink
    /// The link is not a YouTube video (another site, a channel, an ID that is not one); it is
    /// still a page that can be opened.
    case notAVideo(URL)

    /// What `link` (a recipe's `youtubeURL`) plays.
    public init(link: URL?) {
        guard let link else {
            self = .noLink
            return
        }
        self = YouTubeVideo(url: link).map(Self.youTube) ?? .notAVideo(link)
    }

    /// The video, if there is one.
    public var video: YouTubeVideo? {
        if case .youTube(let video) = self { video } else { nil }
    }

    /// What the detail shows where the player would be, when there is no video.
    public var message: String? {
        video == nil ? Self.noVideoMessage : nil
    }

    /// The sentence for a recipe without a video.
    public static let noVideoMessage = "No video for this recipe."
}
