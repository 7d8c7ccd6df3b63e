import CacheEngine
import CacheLabTestSupport
import Foundation
import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Testing

@testable import FixtureServer

@Suite("Photos answered on the event loop")
struct PhotoFastPathTests {
    static let catalog = FixtureCatalog.generated(recipes: 63, seed: 1)

    static func request(_ path: String, headers: HTTPFields = [:]) -> HTTPRequestPart {
        .head(HTTPRequest(method: .get, scheme: nil, authority: "127.0.0.1", path: path, headerFields: headers))
    }

    @Test func aCatalogPhotoIsAnsweredHereAndAnythingElseGoesOnToTheRouter() throws {
        // Given the handler alone in a channel
        let state = FixtureState(catalog: Self.catalog, configuration: FixtureConfiguration(), clock: ContinuousClock())
        let channel = EmbeddedChannel(handler: PhotoFastPath(state: state))
        let photo = Self.catalog.recipes[0].smallPhoto

        // When a photo is asked for, then it is answered here and the router sees nothing
        try channel.writeInbound(Self.request(photo.path))
        try channel.writeInbound(HTTPRequestPart.end(nil))
        #expect(try channel.readInbound(as: HTTPRequestPart.self) == nil)
        guard case .head(let head) = try channel.readOutbound(as: HTTPResponsePart.self) else {
            Issue.record("no response head")
            return
        }
        #expect(head.status == .ok)
        #expect(head.headerFields[.contentType] == "image/jpeg")
        #expect(head.headerFields[.contentLength] == "\(photo.size)")
        #expect(head.headerFields[.date]?.hasSuffix(" GMT") == true)
        guard case .body(let body) = try channel.readOutbound(as: HTTPResponsePart.self) else {
            Issue.record("no body")
            return
        }
        #expect(Array(body.readableBytesView) == PhotoBody.bytes(of: photo, seed: 1))
        #expect(try channel.readOutbound(as: HTTPResponsePart.self) == .end(nil))
        #expect(state.snapshot().requests == 1 && state.snapshot().bytes == photo.size)

        // and a list, an unknown photo and a traversal attempt all go on to the router
        for path in ["/recipes.json", "/photos/nope/small.jpg", "/photos/../recipes.json"] {
            try channel.writeInbound(Self.request(path))
            #expect(try channel.readInbound(as: HTTPRequestPart.self) == Self.request(path), "\(path)")
            // the router's answer passes back out before the next request is looked at
            try channel.writeOutbound(HTTPResponsePart.end(nil))
            _ = try channel.readOutbound(as: HTTPResponsePart.self)
        }
        // as does a photo while a routed request is still unanswered, so responses keep their order
        try channel.writeInbound(Self.request("/recipes.json"))
        _ = try channel.readInbound(as: HTTPRequestPart.self)
        try channel.writeInbound(Self.request(photo.path))
        #expect(try channel.readInbound(as: HTTPRequestPart.self) == Self.request(photo.path))
        #expect(try channel.finish().isClean)
    }

    @Test func aPipelinedMixOnOneConnectionComesBackInOrderAndAsTheRouterAnswers() async throws {
        // Given the same server with and without the fast path
        var routed = Fixtures.makeConfiguration()
        routed.answersPhotosOnEventLoop = false
        let fast = try await FixtureServer.start(configuration: Fixtures.makeConfiguration())
        let slow = try await FixtureServer.start(configuration: routed)
        let small = Self.catalog.recipes[0].smallPhoto
        let large = Self.catalog.recipes[1].largePhoto
        let etag = await RawHTTP.get(port: fast.port, path: small.path).header("ETag") ?? ""
        await fast.resetStats()
        let requests: [(path: String, headers: String)] = [
            (small.path, ""), ("/recipes-empty.json", ""), (large.path, ""), (small.path, "If-None-Match: \(etag)\r\n"),
            ("/photos/missing/small.jpg", ""), (large.path, ""),
        ]

        // When the same requests go to each, pipelined on one connection
        let answers = await RawHTTP.pipelined(port: fast.port, requests: requests)
        let expected = await RawHTTP.pipelined(port: slow.port, requests: requests)

        // Then the answers are the router's, in order, and the stats are the same
        #expect(answers.count == requests.count && expected.count == requests.count)
        #expect(answers.map(\.status) == [200, 200, 200, 304, 404, 200])
        for (answer, router) in zip(answers, expected) {
            #expect(answer.status == router.status)
            #expect(answer.body == router.body)
            for name in ["Content-Type", "Content-Length", "ETag", "Cache-Control"] {
                #expect(answer.header(name) == router.header(name), "\(name)")
            }
            #expect(answer.header("Date") != nil)
        }
        #expect(answers[2].body == PhotoBody.bytes(of: large, seed: 1))
        #expect(await fast.stats() == slow.stats())
        try await fast.stop()
        try await slow.stop()
    }

    @Test func anyShapingSendsPhotosThroughTheRouter() {
        var configuration = FixtureConfiguration()
        #expect(configuration.shapesNothing)
        configuration.jitter = .milliseconds(1)
        #expect(!configuration.shapesNothing)
        configuration = FixtureConfiguration()
        configuration.faults = .spread(0.1)
        #expect(!configuration.shapesNothing)
        configuration = FixtureConfiguration()
        configuration.bandwidth = 1_000_000
        #expect(!configuration.shapesNothing)
    }
}
