import Foundation

/// A YouTube video as a recipe links it: its 11-character ID, and the URLs that play it.
///
/// `init?(url:)` reads the ID from every form YouTube and the recipe API use, on youtube.com (and
/// its `www.`, `m.` and `music.` hosts), youtube-nocookie.com and youtu.be, over http or https, with
/// any other query items or fragment around it (`si=`, `t=`, `list=`, `feature=`):
/// - `youtube.com/watch?v=ID` (the `v` item anywhere in the query)
/// - `youtu.be/ID`
/// - `youtube.com/embed/ID`, `youtube-nocookie.com/embed/ID`
/// - `youtube.com/shorts/ID`, `youtube.com/live/ID`, `youtube.com/v/ID`
///
/// Anything else is not a video: another host, a channel or playlist page, an ID that is not 11
/// of `A–Z a–z 0–9 - _`.
public struct YouTubeVideo: Sendable, Hashable, CustomStringConvertible {
    /// The video's ID, e.g. `6R8ffRRJcrg`.
    public let id: String

    /// The video of `id`, if it is a well-formed ID.
    public init?(id: String) {
        guard Self.isWellFormed(id) else { return nil }
        self.id = id
    }

    /// The video `url` links to, or nil when it links to none (see the type's forms).
    public init?(url: URL) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased(), scheme == "https" || scheme == "http",
            let host = components.host?.lowercased()
        else { return nil }
        let segments = components.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        let candidate: String?
        switch host {
        case "youtu.be", "www.youtu.be":
            candidate = segments.count == 1 ? segments[0] : nil
        case "youtube.com", "www.youtube.com", "m.youtube.com", "music.youtube.com":
            if segments == ["watch"] {
                candidate = components.queryItems?.first { $0.name == "v" }?.value
            } else if segments.count == 2, Self.idPaths.contains(segments[0]) {
                candidate = segments[1]
            } else {
                candidate = nil
            }
        case "youtube-nocookie.com", "www.youtube-nocookie.com":
            candidate = segments.count == 2 && segments[0] == "embed" ? segments[1] : nil
        default:
            candidate = nil
        }
        guard let candidate else { return nil }
        self.init(id: candidate)
    }

    /// The player to embed (an `iframe`'s `src`): `https://www.youtube.com/embed/ID`.
    public var embedURL: URL {
        Self.url("https://www.youtube.com/embed/\(id)")
    }

    /// The page to open in a browser or the YouTube app: `https://www.youtube.com/watch?v=ID`.
    public var watchURL: URL {
        Self.url("https://www.youtube.com/watch?v=\(id)")
    }

    public var description: String { "YouTube video \(id)" }

    // The first path segment of the forms that carry the ID as the second.
    private static let idPaths: Set<String> = ["embed", "shorts", "live", "v"]

    private static func isWellFormed(_ id: String) -> Bool {
        id.utf8.count == 11
            && id.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                    true
                default: false
                }
            }
    }

    // The ID is 11 URL-safe characters, so these strings are always URLs.
    private static func url(_ string: String) -> URL {
        guard let url = URL(string: string) else { preconditionFailure("not a URL: \(string)") }
        return url
    }
}
