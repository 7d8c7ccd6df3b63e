/// Where a detail's video player is: the app reports what its player (a web view with the embed
/// URL, or a native player) does, and the detail model keeps the state to show.
public enum VideoPlayerState: Sendable, Equatable {
    /// Not started: the detail shows a play button (or `RecipeVideo.message` without a video).
    case idle
    /// The player is loading the video.
    case loading
    /// The video is playing (or paused in the player).
    case playing
    /// The player could not play it; the detail shows `error.userMessage`, and the watch URL when
    /// YouTube itself may still play it.
    case failed(VideoPlayerError)
}

/// Why a video could not be played: the YouTube player's error codes, or no network.
public enum VideoPlayerError: Sendable, Equatable {
    /// The player page could not be loaded (offline, timed out).
    case network
    /// The video was removed or made private (YouTube error 100).
    case unavailable
    /// Its owner does not allow it to be played in other apps (101, 150); youtube.com plays it.
    case notEmbeddable
    /// Any other player error (2: a bad request, 5: the HTML5 player failed, ...), with its code.
    case player(code: Int)

    /// The error the YouTube player reports with `code` (its `onError` event's data).
    public init(youTubeCode code: Int) {
        switch code {
        case 100: self = .unavailable
        case 101, 150: self = .notEmbeddable
        default: self = .player(code: code)
        }
    }

    /// A sentence to show a person.
    public var userMessage: String {
        switch self {
        case .network: "The video couldn't load. Check your connection and try again."
        case .unavailable: "This video is no longer available."
        case .notEmbeddable: "This video can only be watched on YouTube."
        case .player: "The video couldn't be played. Please try again."
        }
    }

    /// Whether opening the watch URL (youtube.com or the YouTube app) may still play it.
    public var canWatchOnYouTube: Bool {
        switch self {
        case .notEmbeddable, .player: true
        case .network, .unavailable: false
        }
    }
}
