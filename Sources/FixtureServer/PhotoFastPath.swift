import HTTPTypes
import NIOCore
import NIOHTTPTypes

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Answers `GET /photos/<folder>/<file>` for a catalog photo on the connection's event loop,
/// without the router, when the server shapes nothing (no latency, jitter, bandwidth cap or
/// faults): the same status, headers, body and stats as the router's route, without the hops to
/// the concurrency pool and back that cost the framework most of its time per request. Every
/// other request (lists, stats, unknown or odd paths, `Connection: close`) goes on to the router,
/// and while one is unanswered on this connection so do photos, so responses keep their order.
final class PhotoFastPath: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let state: FixtureState
    /// Requests passed on to the router whose response has not ended yet.
    private var passedOn = 0
    /// The photo being answered here, between its request's head and end.
    private var answering: (photo: FixtureCatalog.Photo, ifNoneMatch: String?)?
    /// The `Date` header, formatted once a second.
    private var date = (second: 0, text: "")

    init(state: FixtureState) {
        self.state = state
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            if passedOn == 0, let photo = photo(for: request) {
                answering = (photo, request.headerFields[.ifNoneMatch])
                return
            }
            passedOn += 1
            context.fireChannelRead(data)
        case .body:
            if answering == nil { context.fireChannelRead(data) }
        case .end:
            guard let (photo, ifNoneMatch) = answering else {
                context.fireChannelRead(data)
                return
            }
            answering = nil
            respond(context: context, photo: photo, ifNoneMatch: ifNoneMatch)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data), passedOn > 0 { passedOn -= 1 }
        context.write(data, promise: promise)
    }

    /// The catalog photo a plain `GET` names, or nil for anything the router should see.
    private func photo(for request: HTTPRequest) -> FixtureCatalog.Photo? {
        guard request.method == .get, let path = request.path, path.utf8.starts(with: "/photos/".utf8),
            request.headerFields[.connection].map({ !$0.lowercased().contains("close") }) ?? true
        else { return nil }
        let parts = path.utf8.dropFirst(8).split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard parts.count == 2, let folder = String(parts[0]), let file = String(parts[1]) else { return nil }
        return state.catalog.photo(folder: folder, file: file)
    }

    private func respond(context: ChannelHandlerContext, photo: FixtureCatalog.Photo, ifNoneMatch: String?) {
        let path = photo.path
        let route: FixtureStats.Route = photo.isLarge ? .largePhoto : .smallPhoto
        state.photoRequested?(photo)
        let payload = state.photoBody(photo, path: path)
        // Counts the request and advances the numbering every draw comes from; with nothing
        // shaped, the draw is no fault and no delay.
        _ = state.begin(route, path: path)
        var headers: HTTPFields = [
            .contentType: "image/jpeg", .eTag: payload.etag, .cacheControl: state.cacheControl, .date: currentDate(),
        ]
        if let ifNoneMatch, matches(ifNoneMatch, etag: payload.etag) {
            state.notModified(route)
            context.write(
                wrapOutboundOut(.head(HTTPResponse(status: .notModified, headerFields: headers))), promise: nil)
        } else {
            let size = payload.body.readableBytes
            headers[.contentLength] = String(size)
            context.write(wrapOutboundOut(.head(HTTPResponse(status: .ok, headerFields: headers))), promise: nil)
            context.write(wrapOutboundOut(.body(payload.body)), promise: nil)
            state.sent(size, route)
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT` (RFC 9110's IMF-fixdate) for now, remade once a second.
    private func currentDate() -> String {
        var now = time(nil)
        if Int(now) != date.second {
            var parts = tm()
            gmtime_r(&now, &parts)
            func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
            let day = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][Int(parts.tm_wday)]
            let month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][
                Int(parts.tm_mon)]
            date = (
                Int(now),
                "\(day), \(two(parts.tm_mday)) \(month) \(parts.tm_year + 1900) "
                    + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
            )
        }
        return date.text
    }
}
