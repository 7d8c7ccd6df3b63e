import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Answers `GET /photos/<folder>/<file>` for a catalog photo straight off the connection's bytes,
/// on its event loop, when the server shapes nothing (no latency, jitter, bandwidth cap or
/// faults): the same status, headers, body and stats as the router's route, without SwiftNIO's
/// HTTP parser and encoder, the conversions to HTTP types and the hops to the concurrency pool.
///
/// It sits first in the connection's pipeline, before the HTTP decoder, and reads each request's
/// head itself (`WireRequestHead`). Every other request (lists, stats, unknown or odd paths,
/// `Connection: close`, HTTP/1.0) goes on to the decoder and the router as whole requests, and
/// while one is unanswered so do photos (`RoutedResponses` counts the router's answers), so
/// responses keep their order. A request with a body, or anything it does not frame, hands the
/// rest of the connection to the decoder.
final class PhotoFastPath: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let state: FixtureState
    /// Requests passed on to the router whose response has not ended yet.
    private var passedOn = 0
    /// Everything from here on goes to the decoder.
    private var handedOff = false
    /// The start of a request whose head has not all arrived.
    private var unread: ByteBuffer?
    /// Whether anything went on to the decoder since the last read completed: when nothing did,
    /// the handlers behind have nothing to finish and the event is not passed on.
    private var forwarded = false
    /// The `Date` header, formatted once a second.
    private var date = (second: 0, text: "")

    init(state: FixtureState) {
        self.state = state
    }

    /// The router has finished a response (`RoutedResponses` sees its end go out).
    func routedResponseEnded() {
        if passedOn > 0 { passedOn -= 1 }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !handedOff else {
            forwarded = true
            context.fireChannelRead(data)
            return
        }
        var buffer = unwrapInboundIn(data)
        if var earlier = unread {
            unread = nil
            earlier.writeBuffer(&buffer)
            buffer = earlier
        }
        // Answers go out together, once this read's requests are all looked at.
        var answered = false
        defer { if answered { context.flush() } }
        while buffer.readableBytes > 0 {
            switch buffer.withUnsafeReadableBytes(WireRequestHead.parse) {
            case .incomplete:
                unread = buffer
                return
            case .unframed:
                handedOff = true
                forwarded = true
                context.fireChannelRead(wrapInboundOut(buffer))
                return
            case .bodyless(let length, let request):
                if passedOn == 0, let request, let photo = photo(request, in: buffer) {
                    let ifNoneMatch = request.ifNoneMatch.map { string(buffer, $0) }
                    respond(context: context, photo: photo, ifNoneMatch: ifNoneMatch)
                    buffer.moveReaderIndex(forwardBy: length)
                    answered = true
                } else {
                    passedOn += 1
                    forwarded = true
                    // A whole request: the decoder never holds part of one the fast path would need.
                    if let whole = buffer.readSlice(length: length) { context.fireChannelRead(wrapInboundOut(whole)) }
                }
            }
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        guard forwarded else { return }
        forwarded = false
        context.fireChannelReadComplete()
    }

    /// The bytes of `range` (offsets from the buffer's reader index) as a string.
    private func string(_ buffer: ByteBuffer, _ range: Range<Int>) -> String {
        buffer.getString(at: buffer.readerIndex + range.lowerBound, length: range.count) ?? ""
    }

    private func photo(_ request: WireRequestHead.Photo, in buffer: ByteBuffer) -> FixtureCatalog.Photo? {
        state.catalog.photo(atPath: string(buffer, request.rest))
    }

    private func respond(context: ChannelHandlerContext, photo: FixtureCatalog.Photo, ifNoneMatch: String?) {
        let path = photo.path
        let route: FixtureStats.Route = photo.isLarge ? .largePhoto : .smallPhoto
        state.photoRequested?(photo)
        let payload = state.photoBody(photo, path: path)
        let notModified = ifNoneMatch.map { matches($0, etag: payload.etag) } ?? false
        // The head as SwiftNIO's encoder writes the router's (its fields in the same order).
        var head = context.channel.allocator.buffer(capacity: 160 + payload.etag.utf8.count)
        head.writeStaticString(notModified ? "HTTP/1.1 304 Not Modified\r\n" : "HTTP/1.1 200 OK\r\n")
        head.writeStaticString("Content-Type: image/jpeg\r\nETag: ")
        head.writeString(payload.etag)
        head.writeStaticString("\r\nCache-Control: ")
        head.writeString(state.cacheControl)
        head.writeStaticString("\r\nDate: ")
        head.writeString(currentDate())
        let size = payload.body.readableBytes
        if !notModified {
            head.writeStaticString("\r\nContent-Length: ")
            head.writeString(String(size))
        }
        head.writeStaticString("\r\n\r\n")
        context.write(wrapOutboundOut(head), promise: nil)
        if !notModified { context.write(wrapOutboundOut(payload.body), promise: nil) }
        state.answered(route, path: path, sent: notModified ? nil : size)
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
