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

    static func request(_ path: String, headers: String = "") -> ByteBuffer {
        ByteBuffer(string: "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(headers)\r\n")
    }

    /// A channel with the fast path first and the router's side after it, as a server's pipeline has.
    static func channel() -> (EmbeddedChannel, FixtureState) {
        let state = FixtureState(catalog: Self.catalog, configuration: FixtureConfiguration(), clock: ContinuousClock())
        return (EmbeddedChannel(handler: RoutedResponses(state: state)), state)
    }

    /// The response written for one photo: its head as text, then its body, if any.
    static func readResponse(_ channel: EmbeddedChannel) throws -> (head: String, body: [UInt8]?)? {
        guard let head = try channel.readOutbound(as: ByteBuffer.self) else { return nil }
        let text = String(buffer: head)
        guard !text.hasPrefix("HTTP/1.1 304") else { return (text, nil) }
        return (text, try channel.readOutbound(as: ByteBuffer.self).map { Array($0.readableBytesView) })
    }

    @Test func aCatalogPhotoIsAnsweredOffTheWireAsTheEncoderWritesTheRouters() throws {
        // Given the fast path in a channel
        let (channel, state) = Self.channel()
        let photo = Self.catalog.recipes[0].smallPhoto

        // When a photo is asked for, then it is answered here and the router sees nothing
        try channel.writeInbound(Self.request(photo.path))
        #expect(try channel.readInbound(as: ByteBuffer.self) == nil)
        let response = try #require(try Self.readResponse(channel))
        let etag = state.photoBody(photo, path: photo.path).etag
        let lines = response.head.components(separatedBy: "\r\n")
        #expect(lines[0] == "HTTP/1.1 200 OK")
        #expect(lines[1] == "Content-Type: image/jpeg")
        #expect(lines[2] == "ETag: \(etag)")
        #expect(lines[3] == "Cache-Control: public, max-age=\(FixtureConfiguration().maxAge)")
        #expect(lines[4].hasPrefix("Date: ") && lines[4].hasSuffix(" GMT"))
        #expect(Array(lines[5...]) == ["Content-Length: \(photo.size)", "", ""])
        #expect(response.body == PhotoBody.bytes(of: photo, seed: 1))
        #expect(state.snapshot().requests == 1 && state.snapshot().bytes == photo.size)

        // and asked again with its ETag, it is not modified: no body, no length
        try channel.writeInbound(Self.request(photo.path, headers: "If-None-Match: W/\(etag)\r\n"))
        let again = try #require(try Self.readResponse(channel))
        #expect(again.head.hasPrefix("HTTP/1.1 304 Not Modified\r\nContent-Type: image/jpeg\r\nETag: \(etag)\r\n"))
        #expect(!again.head.contains("Content-Length") && again.head.hasSuffix(" GMT\r\n\r\n"))
        #expect(state.snapshot()[.smallPhoto].notModified == 1)
        #expect(try channel.finish().isClean)
    }

    @Test func anythingElseGoesOnToTheRouterAsWholeRequests() throws {
        let (channel, state) = Self.channel()
        let photo = Self.catalog.recipes[0].smallPhoto
        // A list, an unknown photo, a traversal attempt, a photo asked with Connection: close, a
        // HEAD, and a photo over HTTP/1.0
        let others = [
            Self.request("/recipes.json"), Self.request("/photos/nope/small.jpg"),
            Self.request("/photos/../recipes.json"),
            Self.request(photo.path, headers: "Connection: Close\r\n"),
            ByteBuffer(string: "HEAD \(photo.path) HTTP/1.1\r\n\r\n"),
            ByteBuffer(string: "GET \(photo.path) HTTP/1.0\r\n\r\n"),
        ]
        for request in others {
            try channel.writeInbound(request)
            #expect(try channel.readInbound(as: ByteBuffer.self) == request)
            // the router's answer passes back out before the next request is looked at
            try channel.writeOutbound(HTTPResponsePart.end(nil))
            _ = try channel.readOutbound(as: HTTPResponsePart.self)
        }
        #expect(state.snapshot().requests == 0)

        // A photo behind a routed request still unanswered waits for the router too, so responses
        // keep their order; once the router has answered, photos are answered here again
        try channel.writeInbound(Self.request("/recipes.json"))
        _ = try channel.readInbound(as: ByteBuffer.self)
        try channel.writeInbound(Self.request(photo.path))
        #expect(try channel.readInbound(as: ByteBuffer.self) == Self.request(photo.path))
        try channel.writeOutbound(HTTPResponsePart.end(nil))
        try channel.writeOutbound(HTTPResponsePart.end(nil))
        _ = try channel.readOutbound(as: HTTPResponsePart.self)
        _ = try channel.readOutbound(as: HTTPResponsePart.self)
        try channel.writeInbound(Self.request(photo.path))
        #expect(try Self.readResponse(channel)?.head.hasPrefix("HTTP/1.1 200 OK") == true)
        #expect(try channel.finish().isClean)
    }

    @Test func requestsSplitAcrossReadsOrPipelinedInOneAreEachAnsweredOnce() throws {
        let (channel, state) = Self.channel()
        let small = Self.catalog.recipes[0].smallPhoto
        let large = Self.catalog.recipes[1].largePhoto

        // A head that arrives in three pieces is answered once it is whole
        var whole = Self.request(small.path)
        for length in [5, 30] {
            try channel.writeInbound(whole.readSlice(length: length)!)
            #expect(try channel.readOutbound(as: ByteBuffer.self) == nil)
        }
        try channel.writeInbound(whole)
        #expect(try Self.readResponse(channel)?.body == PhotoBody.bytes(of: small, seed: 1))

        // Two requests and the start of a third in one read, the rest of it in the next
        var three = Self.request(large.path)
        three.writeImmutableBuffer(Self.request(small.path))
        var third = Self.request(large.path)
        three.writeImmutableBuffer(third.readSlice(length: 12)!)
        try channel.writeInbound(three)
        #expect(try Self.readResponse(channel)?.body == PhotoBody.bytes(of: large, seed: 1))
        #expect(try Self.readResponse(channel)?.body == PhotoBody.bytes(of: small, seed: 1))
        #expect(try channel.readOutbound(as: ByteBuffer.self) == nil)
        try channel.writeInbound(third)
        #expect(try Self.readResponse(channel)?.body == PhotoBody.bytes(of: large, seed: 1))
        #expect(state.snapshot().requests == 4)
        #expect(try channel.finish().isClean)
    }

    @Test func aRequestWithABodyHandsTheRestOfTheConnectionToTheDecoder() throws {
        let (channel, state) = Self.channel()
        let photo = Self.catalog.recipes[0].smallPhoto
        // A photo, then a POST with a body and a photo behind it, in one read
        var bytes = Self.request(photo.path)
        var rest = ByteBuffer(string: "POST /recipes.json HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc")
        rest.writeImmutableBuffer(Self.request(photo.path))
        bytes.writeImmutableBuffer(rest)
        try channel.writeInbound(bytes)

        // The first photo is answered here; everything after goes on as it came
        #expect(try Self.readResponse(channel)?.head.hasPrefix("HTTP/1.1 200 OK") == true)
        #expect(try channel.readInbound(as: ByteBuffer.self) == rest)
        // and so does whatever comes later, photos too
        try channel.writeInbound(Self.request(photo.path))
        #expect(try channel.readInbound(as: ByteBuffer.self) == Self.request(photo.path))
        #expect(state.snapshot().requests == 1)
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
