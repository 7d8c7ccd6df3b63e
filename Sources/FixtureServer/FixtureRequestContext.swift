import Hummingbird
import NIOCore

/// The request context of the fixture server's routes: Hummingbird's core storage plus the
/// connection, which an injected reset closes.
public struct FixtureRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.channel = source.channel
    }
}
