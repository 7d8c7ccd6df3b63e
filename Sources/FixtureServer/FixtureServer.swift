import Hummingbird
import NIOCore
import NIOPosix
import ServiceLifecycle

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A fixture server running in this process, in a `ServiceGroup` of its own: start it, read its
/// `baseURL`, stop it with a graceful shutdown.
///
/// ```swift
/// let server = try await FixtureServer.start()
/// // GET \(server.baseURL)/recipes.json
/// try await server.stop()
/// ```
public final class FixtureServer: Sendable {
    /// `http://127.0.0.1:PORT`, no trailing slash.
    public let baseURL: String
    /// The bound port (the one picked when the configuration said 0).
    public let port: Int
    public let catalog: FixtureCatalog
    private let state: FixtureState
    private let group: ServiceGroup
    private let running: Task<Void, any Error>

    private init(port: Int, baseURL: String, state: FixtureState, group: ServiceGroup, running: Task<Void, any Error>) {
        self.port = port
        self.baseURL = baseURL
        self.catalog = state.catalog
        self.state = state
        self.group = group
        self.running = running
    }

    /// Starts a server and returns once it is listening.
    ///
    /// - Parameters:
    ///   - catalog: serve this catalog (e.g. `TraceObjects(trace:).catalog`) instead of the one
    ///     `configuration.catalog` describes.
    ///   - clock: what latency, bandwidth and drip sleep on.
    ///   - stopOnSignals: also shut down gracefully on SIGINT and SIGTERM (for `cachelab serve`).
    ///   - photoRequested: called with each catalog photo requested, in arrival order, before it
    ///     is answered (`cachelab serve --record`).
    /// - Throws: `FixtureServerError` for a bad configuration or catalog, an address in use or one
    ///   it cannot listen on.
    public static func start(
        configuration: FixtureConfiguration = FixtureConfiguration(), catalog: FixtureCatalog? = nil,
        clock: some Clock<Duration> = ContinuousClock(), stopOnSignals: Bool = false,
        photoRequested: (@Sendable (FixtureCatalog.Photo) -> Void)? = nil
    ) async throws -> FixtureServer {
        try configuration.validate()
        let state = FixtureState(
            catalog: try catalog ?? configuration.makeCatalog(), configuration: configuration, clock: clock,
            photoRequested: photoRequested)
        let (ports, listening) = AsyncStream.makeStream(of: Int.self)
        let application = buildApplication(state: state) { port in listening.yield(port) }
        let group = ServiceGroup(
            configuration: .init(
                services: [application], gracefulShutdownSignals: stopOnSignals ? [.sigint, .sigterm] : [],
                logger: application.logger))
        let running = Task {
            defer { listening.finish() }
            try await group.run()
        }
        guard let port = await ports.first(where: { _ in true }) else {
            do {
                try await running.value
            } catch let error as IOError {
                let address = "\(configuration.host):\(configuration.port)"
                throw error.errnoCode == EADDRINUSE
                    ? FixtureServerError.addressInUse(address)
                    : FixtureServerError.cannotListen(address, reason: String(cString: strerror(error.errnoCode)))
            }
            throw FixtureServerError.stoppedBeforeListening
        }
        return FixtureServer(
            port: port, baseURL: state.currentBaseURL, state: state, group: group, running: running)
    }

    /// Makes SwiftNIO's event loops run every Swift task of this process, so that a request's
    /// handler runs on its connection's thread instead of hopping to the concurrency pool and
    /// back. For a process that only serves (`cachelab serve`); call it before any task starts.
    /// Returns whether it took effect.
    @discardableResult
    public static func runTasksOnEventLoops() -> Bool {
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }

    /// Stops accepting connections, lets the open ones finish, and returns once the server is down.
    public func stop() async throws {
        await group.triggerGracefulShutdown()
        try await running.value
    }

    /// Returns when the server has stopped (after `stop()`, or a signal with `stopOnSignals`).
    public func waitUntilStopped() async throws {
        try await running.value
    }

    /// What the server has served so far, as `/stats` reports it.
    public func stats() async -> FixtureStats {
        state.snapshot()
    }

    /// Zeroes the stats and restarts the request numbering behind every random draw.
    public func resetStats() async {
        state.reset()
    }
}
