import Foundation
import Testing

@testable import RecipeClient

/// The video ID read from every form of YouTube link, and the links that are not videos.
@Suite("A recipe's YouTube video")
struct YouTubeVideoTests {
    static let id = "6R8ffRRJcrg"

    /// Every form YouTube and the recipe API use, with the query items and fragments they carry.
    static let videoLinks = [
        "https://www.youtube.com/watch?v=6R8ffRRJcrg",
        "https://youtube.com/watch?v=6R8ffRRJcrg",
        "http://www.youtube.com/watch?v=6R8ffRRJcrg",
        "https://m.youtube.com/watch?v=6R8ffRRJcrg",
        "https://music.youtube.com/watch?v=6R8ffRRJcrg",
        "https://WWW.YouTube.com/watch?v=6R8ffRRJcrg",
        "https://www.youtube.com/watch?feature=share&v=6R8ffRRJcrg",
        "https://www.youtube.com/watch?v=6R8ffRRJcrg&t=42s&list=PL123",
        "https://www.youtube.com/watch/?v=6R8ffRRJcrg",
        "https://www.youtube.com/watch?v=6R8ffRRJcrg#comments",
        "https://youtu.be/6R8ffRRJcrg",
        "https://youtu.be/6R8ffRRJcrg?si=Abc_123-xyz",
        "https://youtu.be/6R8ffRRJcrg?t=90",
        "https://www.youtube.com/embed/6R8ffRRJcrg",
        "https://www.youtube.com/embed/6R8ffRRJcrg?autoplay=1&start=30",
        "https://www.youtube-nocookie.com/embed/6R8ffRRJcrg",
        "https://www.youtube.com/shorts/6R8ffRRJcrg",
        "https://youtube.com/shorts/6R8ffRRJcrg?feature=share",
        "https://www.youtube.com/live/6R8ffRRJcrg?si=xyz",
        "https://www.youtube.com/v/6R8ffRRJcrg",
    ]

    @Test(arguments: videoLinks)
    func everyFormOfLinkGivesTheVideoAndItsURLs(link: String) throws {
        let url = try #require(URL(string: link))
        let video = try #require(YouTubeVideo(url: url), "\(link)")
        #expect(video.id == Self.id)
        #expect(video.embedURL.absoluteString == "https://www.youtube.com/embed/6R8ffRRJcrg")
        #expect(video.watchURL.absoluteString == "https://www.youtube.com/watch?v=6R8ffRRJcrg")
    }

    /// Links that are not one video: other sites, YouTube pages that are not a video, malformed IDs.
    static let notVideoLinks = [
        "https://vimeo.com/6R8ffRRJcrg",
        "https://www.youtube.com.evil.example/watch?v=6R8ffRRJcrg",
        "https://notyoutube.com/watch?v=6R8ffRRJcrg",
        "ftp://www.youtube.com/watch?v=6R8ffRRJcrg",
        "https://www.youtube.com/",
        "https://www.youtube.com/watch",
        "https://www.youtube.com/watch?list=PL123",
        "https://www.youtube.com/watch?v=",
        "https://www.youtube.com/watch?v=6R8ffRRJcr",
        "https://www.youtube.com/watch?v=6R8ffRRJcrgX",
        "https://www.youtube.com/watch?v=6R8ff%20RJcrg",
        "https://www.youtube.com/watch?v=6R8ff!RJcrg",
        "https://www.youtube.com/channel/UC123456789",
        "https://www.youtube.com/@chef",
        "https://www.youtube.com/playlist?list=PL123",
        "https://www.youtube.com/embed/",
        "https://www.youtube.com/embed/6R8ffRRJcrg/extra",
        "https://youtu.be/",
        "https://youtu.be/6R8ffRRJcrg/extra",
        "https://www.youtube-nocookie.com/watch?v=6R8ffRRJcrg",
    ]

    @Test(arguments: notVideoLinks)
    func aLinkThatIsNotOneVideoGivesNone(link: String) throws {
        let url = try #require(URL(string: link))
        #expect(YouTubeVideo(url: url) == nil, "\(link)")
        #expect(RecipeVideo(link: url) == .notAVideo(url))
        #expect(RecipeVideo(link: url).message == RecipeVideo.noVideoMessage)
    }

    @Test func aRecipeWithoutALinkHasNoVideo() {
        #expect(RecipeVideo(link: nil) == .noLink)
        #expect(RecipeVideo(link: nil).video == nil && RecipeVideo(link: nil).message == "No video for this recipe.")
    }

    @Test func anIDIsElevenURLSafeCharacters() {
        #expect(YouTubeVideo(id: "abc-DEF_123")?.id == "abc-DEF_123")
        for id in ["", "abc-DEF_12", "abc-DEF_1234", "abc DEF_123", "abc/DEF_123", "abcdéf_1234"] {
            #expect(YouTubeVideo(id: id) == nil, "\(id)")
        }
    }

    @Test(.enabled(if: Fixtures.available, "reads ../shared/fixtures/recipes.json"))
    func everyRecipeOfTheRealAPIWithALinkHasItsVideo() throws {
        // The real API links 62 of its 63 recipes to YouTube, all as watch?v= URLs
        let recipes = try JSONDecoder().decode(RecipeList.self, from: Fixtures.data("recipes.json")).recipes
        #expect(recipes.count == 63)
        var videos = 0
        for recipe in recipes {
            let video = RecipeVideo(link: recipe.youtubeURL)
            switch video {
            case .youTube(let found):
                videos += 1
                let link = try #require(recipe.youtubeURL?.absoluteString)
                #expect(link == found.watchURL.absoluteString, "\(recipe.name)")
                #expect(found.embedURL.absoluteString.hasSuffix("/embed/\(found.id)"))
            case .noLink:
                #expect(recipe.cardDestination != .detail, "\(recipe.name)")
            case .notAVideo(let url):
                Issue.record("\(recipe.name): \(url) read as no video")
            }
        }
        #expect(videos == 62)
    }
}
