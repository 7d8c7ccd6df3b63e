import Foundation
import Hummingbird
import Logging
import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The fixture server's routes: the three lists, the photos, the pages (`/`, `/recipes/<uuid>`),
/// `/stats` and `POST /stats/reset`.
/// Everything else is 404, and so is any path holding `..`, an encoded dot or slash, or a backslash.
///
/// Sleeps (latency, jitter, bandwidth, drip) go through `clock`, so tests can pass one that does
/// not wait.
public func buildRouter(
    configuration: FixtureConfiguration, clock: some Clock<Duration> = ContinuousClock()
) throws(FixtureServerError) -> Router<FixtureRequestContext> {
    try configuration.validate()
    return buildRouter(
        state: FixtureState(catalog: try configuration.makeCatalog(), configuration: configuration, clock: clock))
}

/// The fixture server as a Hummingbird application, bound to `configuration.host` and `port`.
public func buildApplication(
    configuration: FixtureConfiguration, clock: some Clock<Duration> = ContinuousClock()
) throws(FixtureServerError) -> some ApplicationProtocol {
    try configuration.validate()
    let state = FixtureState(catalog: try configuration.makeCatalog(), configuration: configuration, clock: clock)
    return buildApplication(state: state) { _ in }
}

func buildApplication(
    state: FixtureState, onServerRunning: @escaping @Sendable (Int) async -> Void
) -> Application<RouterResponder<FixtureRequestContext>> {
    let configuration = state.configuration
    var logger = Logger(label: "cachelab.fixture-server") { StreamLogHandler.standardError(label: $0) }
    logger.logLevel = .warning
    let fastPhotos = configuration.answersPhotosOnEventLoop && configuration.shapesNothing
    return Application(
        router: buildRouter(state: state),
        server: .http1(
            configuration: .init(additionalChannelHandlers: fastPhotos ? [RoutedResponses(state: state)] : [])),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port)),
        onServerRunning: { channel in
            let address = channel.localAddress
            let port = address?.port ?? configuration.port
            state.serverRunning(host: address?.ipAddress ?? configuration.host, port: port)
            await onServerRunning(port)
        },
        logger: logger)
}

func buildRouter(state: FixtureState) -> Router<FixtureRequestContext> {
    let router = Router(context: FixtureRequestContext.self)
    router.add(middleware: CatalogOnlyMiddleware(state: state))
    let routes: [(String, FixtureCatalog.Listing, FixtureStats.Route)] = [
        ("recipes.json", .recipes, .recipes), ("recipes-malformed.json", .malformed, .malformed),
        ("recipes-empty.json", .empty, .empty),
    ]
    for (path, listing, route) in routes {
        router.get(RouterPath(path)) { request, context in
            let payload = state.listing(listing)
            return try await serve(
                payload, route: route, path: "/\(path)", contentType: "application/json", request: request,
                context: context, state: state)
        }
    }
    router.get("photos/:folder/:file") { request, context in
        guard let folder = context.parameters.get("folder"), let file = context.parameters.get("file"),
            let photo = state.catalog.photo(folder: folder, file: file)
        else { throw HTTPError(.notFound) }
        state.photoRequested?(photo)
        let path = photo.path
        let payload = state.photoBody(photo, path: path)
        return try await serve(
            payload, route: photo.isLarge ? .largePhoto : .smallPhoto, path: path, contentType: "image/jpeg",
            request: request, context: context, state: state)
    }
    router.get("/") { _, _ in
        htmlResponse(state.pages.list())
    }
    router.get("recipes/:uuid") { _, context in
        guard let uuid = context.parameters.get("uuid"), let page = state.pages.recipe(uuid: uuid) else {
            throw HTTPError(.notFound)
        }
        return htmlResponse(page)
    }
    router.get("stats") { _, _ in
        try statsResponse(state.snapshot())
    }
    router.post("stats/reset") { _, _ in
        state.reset()
        return try statsResponse(state.snapshot())
    }
    return router
}

/// An HTML page, never cached (a browser's reload asks again).
private func htmlResponse(_ page: String) -> Response {
    Response(
        status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
        body: ResponseBody(byteBuffer: ByteBuffer(string: page)))
}

/// Why a response was cut short on purpose.
enum InjectedFault: Error {
    case reset
    case truncated
}

/// Serves a list or a photo: counts it, draws its fault and delay, answers 304 to a matching
/// `If-None-Match`, and shapes the body.
private func serve(
    _ payload: FixtureState.Payload, route: FixtureStats.Route, path: String, contentType: String,
    request: Request, context: FixtureRequestContext, state: FixtureState
) async throws -> Response {
    let configuration = state.configuration
    let ticket = state.begin(route, path: path)
    if ticket.delay > .zero {
        try await state.clock.sleep(for: ticket.delay)
    }
    switch ticket.fault {
    case .serverError:
        return Response(
            status: .serviceUnavailable, headers: [.contentType: "text/plain; charset=utf-8", .retryAfter: "1"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: "503: fault injected by the fixture server\n")))
    case .reset:
        await resetConnection(context.channel)
        throw InjectedFault.reset
    default:
        break
    }
    let headers: HTTPFields = [
        .contentType: contentType, .eTag: payload.etag, .cacheControl: state.cacheControl,
    ]
    if let ifNoneMatch = request.headers[.ifNoneMatch], matches(ifNoneMatch, etag: payload.etag) {
        state.notModified(route)
        var response = Response(status: .notModified, headers: headers)
        response.headers[.contentLength] = nil
        return response
    }
    let body = payload.body
    let size = body.readableBytes
    switch ticket.fault {
    case .truncate:
        let sent = size / 2
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody(contentLength: size) { writer in
                try await writer.write(body.getSlice(at: body.readerIndex, length: sent)!)
                state.sent(sent, route)
                throw InjectedFault.truncated
            })
    case .length:
        let sent = size - max(1, size / 4)
        state.sent(sent, route)
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody(byteBuffer: body.getSlice(at: body.readerIndex, length: sent)!))
    case .drip:
        return Response(
            status: .ok, headers: headers,
            body: chunkedBody(body, chunk: configuration.dripChunk, route: route, state: state) { _ in
                configuration.dripInterval
            })
    default:
        if let bandwidth = configuration.bandwidth, route == .smallPhoto || route == .largePhoto {
            // Chunks of about a tenth of a second, so the cap holds over short bodies too; each
            // is sent once its transfer time has passed, so a body arrives whole after
            // size / bandwidth, as a network of that bandwidth delivers it.
            let chunk = max(1, min(16_384, bandwidth / 10))
            return Response(
                status: .ok, headers: headers,
                body: chunkedBody(body, chunk: chunk, route: route, state: state, pausingFirst: true) { bytes in
                    .seconds(Double(bytes) / Double(bandwidth))
                })
        }
        state.sent(size, route)
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body))
    }
}

/// A body written `chunk` bytes at a time, pausing `pause(bytes)` on the state's clock between
/// chunks, or before each (`pausingFirst`: the chunk's transfer time).
private func chunkedBody(
    _ body: ByteBuffer, chunk: Int, route: FixtureStats.Route, state: FixtureState, pausingFirst: Bool = false,
    pause: @escaping @Sendable (Int) -> Duration
) -> ResponseBody {
    ResponseBody(contentLength: body.readableBytes) { writer in
        var remaining = body
        var sent = 0
        do {
            while remaining.readableBytes > 0 {
                let piece = remaining.readSlice(length: min(chunk, remaining.readableBytes))!
                if pausingFirst { try await state.clock.sleep(for: pause(piece.readableBytes)) }
                try await writer.write(piece)
                sent += piece.readableBytes
                if !pausingFirst, remaining.readableBytes > 0 {
                    try await state.clock.sleep(for: pause(piece.readableBytes))
                }
            }
            state.sent(sent, route)
            try await writer.finish(nil)
        } catch {
            state.sent(sent, route)
            throw error
        }
    }
}

/// Whether an `If-None-Match` value names `etag` (or is `*`); weak validators match too.
func matches(_ ifNoneMatch: String, etag: String) -> Bool {
    ifNoneMatch.split(separator: ",").contains { candidate in
        var tag = candidate.trimmingCharacters(in: .whitespaces)
        if tag.hasPrefix("W/") { tag.removeFirst(2) }
        return tag == "*" || tag == etag
    }
}

/// Closes the connection with SO_LINGER 0, so the peer sees a reset rather than an orderly close.
private func resetConnection(_ channel: any Channel) async {
    if let sockets = channel as? any SocketOptionProvider {
        _ = try? await sockets.setSoLinger(linger(l_onoff: 1, l_linger: 0)).get()
    }
    try? await channel.close()
}

private func statsResponse(_ stats: FixtureStats) throws -> Response {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return Response(
        status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
        body: ResponseBody(byteBuffer: ByteBuffer(bytes: try encoder.encode(stats))))
}
