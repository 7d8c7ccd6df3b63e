import CacheLab
import ClientModel
import Foundation
import RecipeClient

/// Replays a trace through the real client's image pipeline (memory tier, SQLite disk tier,
/// URLSession) against a server over HTTP (`LiveEndpoint`; `LiveServer` starts a fixture server
/// or reaches one), with wall-clock latency.
///
/// Requests are made in trace order, each looked up as it is made. Unpaced, each download is
/// handed to the pipeline at its modelled end (`LiveDriver`), so each request's outcome is the
/// one the simulator gives it: `Replay.simulate(trace, client:)` is the reference. Paced by
/// `speed` (up to `concurrency` requests in flight), downloads end when they end, and outcomes
/// agree but within the timing margin of a download's end. App events apply
/// between requests, once the earlier ones are answered: a relaunch tears the pipeline down and
/// opens a new one on the same SQLite file; other events go through `ClientLifecycle`.
public enum LiveReplay {
    /// The origin of every image URL the pipeline sees: the tiers key images by this stable URL
    /// (a scroll trace's own), and the downloader fetches it from the server instead, so a disk
    /// tier kept with `diskPath` is found again by the next run, whatever port it gets.
    public static let origin = "https://recipes.example"

    /// Replays `trace` through `client` against `endpoint`.
    ///
    /// - Throws: `LiveReplayError.unsupported` for unit sizes, `PolicyError.needsFuture` for a
    ///   tier that needs the future, `LiveReplayError.serverUnreachable` when the server's counts
    ///   cannot be read, or the disk store's error.
    public static func run(
        _ trace: Trace, client: ClientConfiguration, endpoint: LiveEndpoint, options: LiveOptions
    ) async throws -> LiveResult {
        try check(client)
        let scratch = options.diskPath == nil && client.disk != nil ? try TemporaryDirectory() : nil
        defer { scratch?.remove() }
        let diskPath = options.diskPath ?? scratch.map { "\($0.path)/images.sqlite" }
        let before = try await endpoint.counts()
        var result = try await LiveDriver(
            trace: trace, client: client, options: options, diskPath: diskPath, endpoint: endpoint
        ).run()
        let after = try await endpoint.counts()
        result.run.updateLive { live in
            live.serverRequests = after.requests - before.requests
            live.serverBytes = after.bytes - before.bytes
        }
        for (kind, count) in after.faults where count > before.faults[kind, default: 0] {
            result.faultsInjected[kind] = count - before.faults[kind, default: 0]
        }
        return result
    }

    /// Throws if `client` cannot run live: unit sizes are the simulator's alone, and a real client
    /// cannot know the future (Belady). Check before starting a server.
    public static func check(_ client: ClientConfiguration) throws {
        guard client.sizeMode == .bytes else {
            throw LiveReplayError.unsupported("a live replay counts bytes: --size-mode unit is simulator-only")
        }
        try client.requireOnline()
    }

    /// One live run, and how far the client's simulation agrees with it.
    public struct VerifiedRun: Sendable {
        public var live: LiveResult
        /// Request by request against the simulated client (`Replay.simulate(_:client:)`).
        public var agreement: OutcomeAgreement
        /// Requests whose outcome agrees with the simulated client's.
        public var agreeing: Int { agreement.agreeing }
    }

    /// Replays `trace` live through each client in turn, and checks every request's outcome
    /// against the client's simulation: the live execution of a plan of client cells.
    ///
    /// - Parameter each: called after each run, in order.
    public static func verify(
        _ trace: Trace, clients: [ClientConfiguration], endpoint: LiveEndpoint, options: LiveOptions,
        each: (VerifiedRun) -> Void = { _ in }
    ) async throws -> [VerifiedRun] {
        var runs: [VerifiedRun] = []
        for client in clients {
            let measured = try await run(trace, client: client, endpoint: endpoint, options: options)
            let simulated = Replay.simulate(trace, client: client, outcomes: true)
            let agreement = OutcomeAgreement(
                live: measured.run.outcomes ?? [], simulated: simulated, margin: options.timingMargin)
            runs.append(VerifiedRun(live: measured, agreement: agreement))
            each(runs[runs.count - 1])
        }
        return runs
    }
}
