import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOPosix

@testable import FixtureServer

/// A response as a client reads it off the wire: status, header fields and the whole body.
struct TestResponse: Sendable {
    var status: HTTPResponse.Status
    var headers: HTTPFields
    var body: ByteBuffer
}

/// HTTP/1.1 to a fixture server on one kept-alive loopback connection, one request at a time.
///
/// The path goes out exactly as written: `..`, `%2e` and backslashes reach the server, where
/// URLSession (libcurl) would tidy the dots away and NIO's own check of outgoing requests would
/// refuse the backslash. Each response is read to its end before the
/// next request is sent, so the server has counted it by then.
final class TestClient {
    /// The server's `http://127.0.0.1:PORT`, as its lists write photo URLs.
    let baseURL: String
    private let authority: String
    private var inbound: NIOAsyncChannelInboundStream<HTTPResponsePart>.AsyncIterator
    private let outbound: NIOAsyncChannelOutboundWriter<HTTPRequestPart>

    private init(
        baseURL: String, port: Int, inbound: NIOAsyncChannelInboundStream<HTTPResponsePart>,
        outbound: NIOAsyncChannelOutboundWriter<HTTPRequestPart>
    ) {
        self.baseURL = baseURL
        self.authority = "127.0.0.1:\(port)"
        self.inbound = inbound.makeAsyncIterator()
        self.outbound = outbound
    }

    /// Sends one request without a body and reads its whole response.
    func execute(uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:]) async throws -> TestResponse {
        var request = HTTPRequest(method: method, scheme: nil, authority: authority, path: uri, headerFields: headers)
        if method == .post || method == .put { request.headerFields[.contentLength] = "0" }
        try await outbound.write(contentsOf: [.head(request), .end(nil)])
        guard case .head(let head) = try await inbound.next() else { throw TestClientError.noResponse(uri) }
        var body = ByteBuffer()
        while let part = try await inbound.next() {
            switch part {
            case .head: throw TestClientError.unexpectedHead(uri)
            case .body(var chunk): body.writeBuffer(&chunk)
            case .end: return TestResponse(status: head.status, headers: head.headerFields, body: body)
            }
        }
        throw TestClientError.closedMidResponse(uri)
    }

    /// Sends one request and hands its response to `check`, returning what `check` returns.
    @discardableResult
    func execute<T: Sendable>(
        uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:],
        _ check: (TestResponse) async throws -> T
    ) async throws -> T {
        try await check(execute(uri: uri, method: method, headers: headers))
    }

    /// Starts a fixture server on an ephemeral port, runs `body` with a client connected to it,
    /// then closes the connection and stops the server (also when `body` throws).
    static func withServer<T: Sendable>(
        _ configuration: FixtureConfiguration, clock: some Clock<Duration> = RecordingClock(),
        _ body: (TestClient) async throws -> T
    ) async throws -> T {
        let server = try await FixtureServer.start(configuration: configuration, clock: clock)
        do {
            let result = try await connect(to: server, body)
            try await server.stop()
            return result
        } catch {
            try? await server.stop()
            throw error
        }
    }

    private static func connect<T: Sendable>(
        to server: FixtureServer, _ body: (TestClient) async throws -> T
    ) async throws -> T {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: server.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    // No check of what goes out: a backslash in a path must reach the server.
                    try channel.pipeline.syncOperations.addHTTPClientHandlers(enableOutboundHeaderValidation: false)
                    try channel.pipeline.syncOperations.addHandler(HTTP1ToHTTPClientCodec())
                    return try NIOAsyncChannel<HTTPResponsePart, HTTPRequestPart>(
                        wrappingChannelSynchronously: channel)
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            try await body(TestClient(baseURL: server.baseURL, port: server.port, inbound: inbound, outbound: outbound))
        }
    }
}

/// Why a response could not be read; each case names the request's path.
enum TestClientError: Error {
    case noResponse(String)
    case unexpectedHead(String)
    case closedMidResponse(String)
}
