import CacheLab
import ClientModel
import FixtureServer
import Foundation
import LiveReplay

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Wires a live replay to a fixture server: one started in this process to serve the trace's
/// objects, or one already running (`cachelab serve --trace FILE`). `LiveReplay` itself knows
/// only a `LiveEndpoint`; this is where the fixture server and the client meet.
public enum LiveServer {
    /// Replays `trace` through `client` against a fixture server: the running one at `url`, or,
    /// without one, a server started here with `configuration` and stopped after.
    public static func run(
        _ trace: Trace, client: ClientConfiguration, options: LiveOptions = LiveOptions(), server url: String? = nil,
        configuration: FixtureConfiguration = FixtureConfiguration()
    ) async throws -> LiveResult {
        // Before starting a server: a client that cannot run live fails at once.
        try LiveReplay.check(client)
        return try await withEndpoint(for: trace, server: url, configuration: configuration) { endpoint in
            try await LiveReplay.run(trace, client: client, endpoint: endpoint, options: options)
        }
    }

    /// `LiveReplay.verify` against a fixture server, as `run(_:client:options:server:configuration:)`:
    /// a server started here is started anew for each client.
    public static func verify(
        _ trace: Trace, clients: [ClientConfiguration], options: LiveOptions = LiveOptions(),
        server url: String? = nil, configuration: FixtureConfiguration = FixtureConfiguration(),
        each: (LiveReplay.VerifiedRun) -> Void = { _ in }
    ) async throws -> [LiveReplay.VerifiedRun] {
        for client in clients { try LiveReplay.check(client) }
        // A server of its own for each client, so each meets the same faults in the same order.
        var runs: [LiveReplay.VerifiedRun] = []
        for client in clients {
            runs += try await withEndpoint(for: trace, server: url, configuration: configuration) { endpoint in
                try await LiveReplay.verify(trace, clients: [client], endpoint: endpoint, options: options, each: each)
            }
        }
        return runs
    }

    /// Calls `body` with an endpoint serving `trace`'s objects: the running server at `url`, or
    /// one started here with `configuration` (stopped after, whatever `body` does).
    public static func withEndpoint<Result>(
        for trace: Trace, server url: String?, configuration: FixtureConfiguration,
        _ body: (LiveEndpoint) async throws -> Result
    ) async throws -> Result {
        let objects = try TraceObjects(trace: trace)
        let path: @Sendable (UInt64) -> String = { objects.path(of: $0) }
        if let url {
            let base = url.hasSuffix("/") ? String(url.dropLast()) : url
            return try await body(LiveEndpoint(baseURL: base, path: path, counts: { try await remoteCounts(base) }))
        }
        let server = try await FixtureServer.start(configuration: configuration, catalog: objects.catalog)
        do {
            let result = try await body(
                LiveEndpoint(baseURL: server.baseURL, path: path, counts: { await server.stats().counts }))
            try await server.stop()
            return result
        } catch {
            try? await server.stop()
            throw error
        }
    }

    // What a running server has counted so far, from its /stats.
    private static func remoteCounts(_ base: String) async throws -> ServerCounts {
        do {
            let (data, _) = try await URLSession.shared.data(from: URL(string: base + "/stats")!)
            return try JSONDecoder().decode(FixtureStats.self, from: data).counts
        } catch {
            throw LiveReplayError.serverUnreachable(url: base, reason: "\(error)")
        }
    }
}

extension FixtureStats {
    /// Photo requests and body bytes, small and large together, and the faults injected.
    var counts: ServerCounts {
        ServerCounts(
            requests: self[.smallPhoto].requests + self[.largePhoto].requests,
            bytes: self[.smallPhoto].bytes + self[.largePhoto].bytes, faults: faults)
    }
}
