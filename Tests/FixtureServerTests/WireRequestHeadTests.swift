import Testing

@testable import FixtureServer

@Suite("Request heads read off the wire")
struct WireRequestHeadTests {
    static func parse(_ text: String) -> WireRequestHead {
        Array(text.utf8).withUnsafeBytes(WireRequestHead.parse)
    }

    /// The range of `part` in `text`, in bytes.
    static func range(of part: String, in text: String) -> Range<Int> {
        let found = text.range(of: part)!
        return text.utf8.distance(
            from: text.startIndex, to: found.lowerBound)..<text.utf8.distance(
                from: text.startIndex, to: found.upperBound)
    }

    @Test func aPhotoGetIsFramedWithItsPathAndIfNoneMatch() {
        let plain = "GET /photos/abc/small.jpg HTTP/1.1\r\nHost: x\r\n\r\nGET /next"
        #expect(
            Self.parse(plain)
                == .bodyless(
                    length: plain.utf8.count - 9, photo: .init(rest: Self.range(of: "abc/small.jpg", in: plain))))
        let conditional = "GET /photos/a/b HTTP/1.1\r\nif-none-match:  \"12\" \t\r\nContent-Length: 0\r\n\r\n"
        #expect(
            Self.parse(conditional)
                == .bodyless(
                    length: conditional.utf8.count,
                    photo: .init(
                        rest: Self.range(of: "a/b", in: conditional),
                        ifNoneMatch: Self.range(of: "\"12\"", in: conditional))))
        // No headers at all
        #expect(Self.parse("GET /photos/a/b HTTP/1.1\r\n\r\n") == .bodyless(length: 28, photo: .init(rest: 12..<15)))
    }

    @Test func otherRequestsWithoutABodyAreFramedForTheRouter() {
        for text in [
            "GET /recipes.json HTTP/1.1\r\n\r\n", "HEAD /photos/a/b HTTP/1.1\r\n\r\n",
            "GET /photos/a/b HTTP/1.0\r\n\r\n",
            "GET /photos/a/b HTTP/1.1\r\nConnection: keep-alive, CLOSE\r\n\r\n",
            "GET /photos/a/b HTTP/1.1\r\nExpect: 100-continue\r\n\r\n",
            "GET /photos/a/b HTTP/1.1\r\nIf-None-Match: \"1\"\r\nIF-NONE-MATCH: \"2\"\r\n\r\n",
            "GET /photos/ HTTP/1.1\r\n\r\n", "GET /photos/a b HTTP/1.1\r\n\r\n", "DELETE /photos/a/b HTTP/1.1\r\n\r\n",
        ] {
            #expect(Self.parse(text) == .bodyless(length: text.utf8.count, photo: nil), "\(text)")
        }
    }

    @Test func aBodyAFoldOrAStrayLineBreakIsLeftToTheFullParser() {
        for text in [
            "POST /x HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc",
            "POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n",
            "GET /photos/a/b HTTP/1.1\r\nUpgrade: h2c\r\n\r\n", "GET /photos/a/b HTTP/1.1\r\nX: 1\r\n folded\r\n\r\n",
            "GET /photos/a/b HTTP/1.1\r\n: no name\r\n\r\n", "GET /photos/a/b HTTP/1.1\r\nno colon\r\n\r\n",
            "GET /photos/a/b HTTP/1.1\nX: 1\r\n\r\n", "GET /photos/a/b HTTP/1.1\r\nX: a\rb\r\n\r\n",
            "GET /photos/" + String(repeating: "a", count: WireRequestHead.longestHead),
        ] {
            #expect(Self.parse(text) == .unframed, "\(text.prefix(60))")
        }
    }

    @Test func aHeadNotYetEndedWaitsForMore() {
        for text in ["", "G", "GET /photos/a/b HTTP/1.1\r\n", "GET /photos/a/b HTTP/1.1\r\nHost: x\r\n\r"] {
            #expect(Self.parse(text) == .incomplete, "\(text)")
        }
    }
}
