import NIOCore
import NIOHTTPTypes

/// Puts a `PhotoFastPath` first in its connection's pipeline and tells it when each response the
/// router wrote has ended, so that photos wait behind a routed request still unanswered.
///
/// Hummingbird installs this one after its HTTP codec (an additional channel handler), where the
/// router's responses pass as HTTP parts; the fast path must sit before the decoder, where only
/// bytes pass, so this puts it there when it is added.
final class RoutedResponses: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let fastPath: PhotoFastPath

    init(state: FixtureState) {
        fastPath = PhotoFastPath(state: state)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // On failure (the channel already closing) requests all take the router.
        try? context.pipeline.syncOperations.addHandler(fastPath, position: .first)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { fastPath.routedResponseEnded() }
        context.write(data, promise: promise)
    }
}
